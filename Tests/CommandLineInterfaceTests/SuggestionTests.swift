import CalendarModel
import CommandLineInterface
import Foundation
import TestSupport
import Testing

/// A misspelt word gets the nearest known one, from one helper, wherever
/// the command line names what it expected.
@Suite("Did you mean")
struct SuggestionTests {
    @Test("the edit distance counts insertions, deletions, substitutions and swaps of neighbours, case aside")
    func distance() {
        #expect(Suggestion.distance("event", "events") == 1)
        #expect(Suggestion.distance("statsu", "status") == 1)
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("", "abc") == 3)
        #expect(Suggestion.distance("WorkDays", "workdays") == 0)
        #expect(Suggestion.nearest(to: "xyz", among: ["list", "agenda", "next"]) == nil)
        #expect(Suggestion.nearest(to: "rem", among: ["event", "reminder"]) == "reminder")
        #expect(Suggestion.nearest(to: "--calender", among: ["--db", "--calendar", "--json"]) == "--calendar")
    }

    @Test("unknown commands, kinds, actions and options name the nearest one", arguments: [
        (["lst"], "did you mean 'list'?"),
        (["--verison"], "did you mean '--version'?"),
        (["list", "event"], "did you mean 'events'?"),
        (["add", "remnder", "X"], "did you mean 'reminder'?"),
        (["calendar", "ad", "Work"], "did you mean 'add'?"),
        (["holidays", "statsu"], "did you mean 'status'?"),
        (["daemon", "stats"], "did you mean 'status'?"),
        (["list", "events", "--calender", "Work"], "did you mean '--calendar'?"),
        (["agenda", "--jsn"], "did you mean '--json'?"),
    ])
    func suggestions(_ arguments: [String], _ hint: String) {
        // chime daemon takes no --db.
        let run = arguments.first == "daemon" ? CapturedRun(arguments) : Scratch().run(arguments)
        #expect(run.status == 64)
        #expect(run.errors.joined(separator: "\n").contains(hint), "\(run.errors)")
    }

    @Test("a word far from every known one gets no guess")
    func noGuess() {
        let run = Scratch().run(["zzzzzz"])
        #expect(run.status == 64)
        #expect(run.errors == ["chime: unknown command 'zzzzzz' (see 'chime --help')"])
    }

    @Test("--repeat workday suggests workdays and lists the words; --help lists them too, without the stray --alarm line")
    func ruleWords() {
        let scratch = Scratch()
        for arguments in [["add", "reminder", "Clock in", "--due", "08:50", "--repeat", "workday"],
                          ["add", "event", "Stand-up", "--start", "08:50", "--repeat", "workday"],
                          ["rrule", "workday", "--start", "2026-12-01T08:50"]] {
            let run = scratch.run(arguments)
            #expect(run.status == 65)
            let message = run.errors.joined(separator: "\n")
            #expect(message.contains("did you mean 'workdays'?"), "\(message)")
            #expect(message.contains("workdays, makeup-workdays, back-to-work, weekdays, daily, weekly, monthly, yearly"), "\(message)")
        }
        // A rule that is a rule gone wrong gets no word list.
        let rule = scratch.run("add", "reminder", "X", "--due", "08:50", "--repeat", "FREQ=FORTNIGHTLY")
        #expect(rule.status == 65 && !rule.errors.joined().contains("did you mean"))
        for command in [["add", "reminder"], ["add", "event"], ["edit"]] {
            let help = scratch.run(command + ["--help"]).text
            for word in ["workdays", "makeup-workdays", "back-to-work", "weekdays", "daily", "weekly", "monthly", "yearly"] {
                #expect(help.contains(word), "chime \(command.joined(separator: " ")) --help does not name \(word)")
            }
            #expect(!help.contains("(--alarm needs --due)"))
        }
    }

    /// The built executable next to the test bundle.
    static func executable(_ name: String) throws -> String {
        let path = PackagePaths.builtExecutable(name)
        try #require(FileManager.default.isExecutableFile(atPath: path), "build \(name) first (swift build --build-tests)")
        return path
    }

    static func output(_ executable: String, _ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try runProcess(executable, arguments)
    }

    @Test("chime --version and chimed --version print the one version; a misspelt chimed option gets a hint")
    func versions() throws {
        let chime = try Self.output(try Self.executable("chime"), ["--version"])
        let chimed = try Self.output(try Self.executable("chimed"), ["--version"])
        #expect(chime.status == 0 && chime.out == "chime \(ChimeVersion.current)\n")
        #expect(chimed.status == 0 && chimed.out == "chimed \(ChimeVersion.current)\n")
        #expect(Chime.version == ChimeVersion.current)
        let wrong = try Self.output(try Self.executable("chimed"), ["--log-onyl"])
        #expect(wrong.status == 64 && wrong.err == "chimed: unknown argument '--log-onyl'; did you mean '--log-only'?\n(see 'chimed --help')\n")
    }

    @Test("chimed: an option without its value is a usage error (64), a wrong value is bad data (65) and named")
    func chimedOptionValues() throws {
        let chimed = try Self.executable("chimed")
        for option in ["--snooze", "--missed-window", "--urgency", "--language"] {
            let missing = try Self.output(chimed, [option])
            #expect(missing.status == 64 && missing.err.hasPrefix("chimed: \(option) needs "), "\(option): \(missing.err)")
        }
        for (option, value) in [("--snooze", "soon"), ("--snooze", "0s"), ("--missed-window", "-1h"), ("--urgency", "loud")] {
            let wrong = try Self.output(chimed, [option, value])
            #expect(wrong.status == 65 && wrong.err == "chimed: \(option) '\(value)' is not " + (option == "--urgency" ? "low, normal or critical\n"
                : option == "--snooze" ? "a DURATION such as 5m, 10m or 1h\n" : "a DURATION such as 30m, 4h or 1d\n"),
                    "\(option) \(value): \(wrong.status) \(wrong.err)")
        }
        let language = try Self.output(chimed, ["--language", "fr_FR"])
        #expect(language.status == 65 && language.err == "chimed: --language 'fr_FR' is not en, zh-Hans or zh-Hant (or a locale such as zh_CN)\n",
                "\(language.err)")
    }
}
