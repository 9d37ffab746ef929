import ChimedCommandLine
@testable import CommandLineInterface
import CommandLineSupport
import Foundation
import Testing

/// `--help` is written from the declarations the parser reads by, so help
/// and parsing cannot disagree; these walk every command (and chimed) to
/// hold that: each declared option is in its help, each option its help
/// names parses.
@Suite("Help and parsing agree")
struct HelpParsingTests {
    /// Every syntax: each command's and its actions', and chimed's.
    static var syntaxes: [CommandSyntax] { families.flatMap { $0 } }
    /// The syntaxes of one program or command: a command that hands on to
    /// actions (`chime add`) describes what its actions parse.
    static var families: [[CommandSyntax]] { Chime.commands.map { $0.syntaxes } + [[DaemonCommandLine.syntax]] }

    /// The `--option` words of a text.
    static func optionWords(_ text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"(?<![\w-])--[a-z][a-z-]*[a-z]"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { String(text[Range($0.range, in: text)!]) }
    }

    /// Whether the parser takes the option (with a value, when it takes one):
    /// a refused value is the value's fault, not an unknown option.
    static func parses(_ name: String, by family: [CommandSyntax]) -> Bool {
        family.contains { parses(name, by: $0) }
    }

    static func parses(_ name: String, by syntax: CommandSyntax) -> Bool {
        let value = syntax.options.first { $0.name == name }?.takesValue == true ? ["x"] : []
        do {
            _ = try syntax.parser.parseRefusing([name] + value)
            return true
        } catch {
            if case .unknownOption = error { return false }
            return true
        }
    }

    @Test("every declared option has its line in its command's --help, with its placeholder")
    func declaredOptionsAreInHelp() {
        for syntax in Self.syntaxes {
            let lines = syntax.help.split(separator: "\n").map(String.init)
            for option in syntax.options {
                let label = (option.short.map { $0 + ", " } ?? "") + option.name + (option.valueName.map { " " + $0 } ?? "")
                let listed = lines.contains { $0.hasPrefix("  " + label) }
                #expect(listed, "\(syntax.name) --help has no line for \(label)")
            }
        }
    }

    @Test("a usage form names each option with the placeholder its help line gives it")
    func formsAgreeWithTheOptionList() {
        for syntax in Self.syntaxes {
            let listed = Dictionary(syntax.options.map { ($0.name, $0.valueName) }, uniquingKeysWith: { first, _ in first })
            for form in syntax.forms {
                // A family's head (chime add) shows its actions' options, listed in their own help.
                for option in form.options ?? [] {
                    guard let placeholder = listed[option.name] else { continue }
                    #expect(placeholder == option.valueName,
                            "\(syntax.name): the usage shows \(option.name) \(option.valueName ?? ""), the option list \(option.name) \(listed[option.name].flatMap { $0 } ?? "")")
                }
            }
        }
    }

    @Test("every option a --help names parses: by that command, or by the chime command the text names with it")
    func optionsInHelpParse() throws {
        let byName = Dictionary(Self.syntaxes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // `chime add reminder --alarm-leave`, `'chime list reminders --completed'`: another command's option.
        let reference = try NSRegularExpression(pattern: #"(chime(?: [a-z]+){1,2}) (--[a-z][a-z-]*[a-z])"#)
        for (family, syntax) in Self.families.flatMap({ family in family.map { (family, $0) } }) {
            var text = syntax.help
            for match in reference.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
                let range = Range(match.range, in: text)!
                let named = String(text[Range(match.range(at: 1), in: text)!])
                let option = String(text[Range(match.range(at: 2), in: text)!])
                // The longest command name the words make: `chime list reminders` is `chime list`.
                let words = named.split(separator: " ")
                let owner = (1..<words.count).reversed().lazy.compactMap { byName[words[0...$0].joined(separator: " ")] }.first
                if option != "--help" {
                    let owner = try #require(owner, "\(syntax.name) --help names \(named), which is no command")
                    let parsed = Self.parses(option, by: owner)
                    #expect(parsed, "\(syntax.name) --help names \(named) \(option), which it does not parse")
                }
                text.replaceSubrange(range, with: "")
            }
            for option in Self.optionWords(text) where option != "--help" {
                let parsed = Self.parses(option, by: family)
                #expect(parsed, "\(syntax.name) --help names \(option), which it does not parse")
            }
        }
    }

    @Test("chime COMMAND --help prints the syntax's help, and every command is listed in chime --help")
    func helpIsTheSyntaxes() {
        let usage = CapturedRun(["--help"]).text
        for command in Chime.commands {
            #expect(CapturedRun([command.name, "--help"]).text == command.syntax.help, "\(command.name)")
            #expect(usage.contains("  \(command.name) "), "chime --help does not list \(command.name)")
        }
        #expect(CapturedRun(["add", "event", "--help"]).text == AddEventCommand.syntax.help)
    }

    @Test("bash completion's list of value-taking options is exactly the chime options declared with a value")
    func completionTakesTheDeclaredValues() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = try String(contentsOf: root.appendingPathComponent("share/bash-completion/completions/chime"), encoding: .utf8)
        let list = try #require(script.range(of: #"_chime_options_with_values='[^']*'"#, options: .regularExpression).map { script[$0] })
        let completed = Set(Self.optionWords(String(list)))
        let declared = Set(Chime.commands.flatMap { $0.syntaxes }.flatMap(\.options).filter(\.takesValue).map(\.name))
        #expect(completed == declared, "only completed: \(completed.subtracting(declared).sorted()), only declared: \(declared.subtracting(completed).sorted())")
    }

    @Test("bash completion holds the block generated from the option declarations, word for word")
    func completionHoldsTheGeneratedBlock() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = try String(contentsOf: root.appendingPathComponent("share/bash-completion/completions/chime"), encoding: .utf8)
        let begin = try #require(script.range(of: BashCompletion.begin), "no generated block in the completion")
        let end = try #require(script.range(of: BashCompletion.end, range: begin.upperBound..<script.endIndex))
        let committed = String(script[begin.lowerBound..<end.upperBound])
        #expect(committed == BashCompletion.declaredBlock, "replace the block with:\n\(BashCompletion.declaredBlock)")
    }

    @Test("an option's default is declared once: read back when the option is not given, and named at the end of its help")
    func defaultedOption() throws {
        let count = Option("--count", value: "N", help: "how many", convert: { Int($0) }).defaulting(to: 10, shown: "10")
        let syntax = CommandSyntax("chime try", options: [count], discussion: "Tries.")
        #expect(try syntax.parse([])[count] == 10)
        #expect(try syntax.parse(["--count", "3"])[count] == 3)
        #expect(syntax.help.contains("how many (default 10)"), "\(syntax.help)")
        #expect(NextCommand.syntax.help.contains("(default 10)") && MissedCommand.syntax.help.contains("(default 20)"))
    }

    @Test("an action word is taken from the positionals: missing, unknown (with a suggestion) or implicit")
    func actionWord() throws {
        let syntax = CommandSyntax("chime try", forms: [.init("ACTION [NAME]")], options: [], discussion: "Tries.")
        let chosen = try syntax.parse(["remove", "Work"]).action(of: "chime try", among: ["add", "remove"])
        #expect(chosen.name == "remove" && chosen.command == "chime try remove" && chosen.rest.positionals == ["Work"])
        let implicit = try syntax.parse([]).action(of: "chime try", among: ["list", "add"], implicit: "list")
        #expect(implicit.name == "list" && implicit.command == "chime try")
        do {
            _ = try syntax.parse([]).action(of: "chime try", among: ["add", "list", "remove"])
            Issue.record("a missing action was taken")
        } catch {
            #expect(error.status == 64 && error.message == "chime try: missing add, list or remove (see 'chime try --help')")
        }
        do {
            _ = try syntax.parse(["ad"]).action(of: "chime try", among: ["add", "remove"])
            Issue.record("an unknown action was taken")
        } catch {
            #expect(error.status == 64
                    && error.message == "chime try: unknown action 'ad'; expected add or remove (see 'chime try --help'); did you mean 'add'?", "\(error.message)")
        }
    }
}
