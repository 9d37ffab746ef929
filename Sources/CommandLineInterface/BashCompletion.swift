/// The part of the bash completion (share/bash-completion/completions/chime)
/// that the option declarations decide: which options take a value, and
/// which options each command declares. The script holds this text between
/// its generated-block lines, and a test checks it against the declarations,
/// so a new or renamed option cannot be left out of the completion. What to
/// offer as an option's value stays written by hand in the script.
enum BashCompletion {
    static let begin = "# --- generated from the option declarations (BashCompletion.swift); a test checks it"
    static let end = "# --- end of the generated block"

    /// The generated block, its first and last lines included.
    static var declaredBlock: String {
        let syntaxes = Chime.commands.flatMap { $0.syntaxes }
        var valued: [String] = []
        for option in syntaxes.flatMap(\.options) where option.takesValue && !valued.contains(option.name) {
            valued.append(option.name)
        }
        var lines = [begin, "",
                     "# The words of a value-taking option (the next word is its value, never a",
                     "# command or action).",
                     "_chime_options_with_values='" + wrapped(valued, width: 100) + "'",
                     "",
                     "# Prints the options that a command (or 'add event') declares, and --help.",
                     "_chime_declared_options()",
                     "{",
                     "    case $1 in"]
        for syntax in syntaxes {
            let name = syntax.name.split(separator: " ").dropFirst().joined(separator: " ")
            let pattern = name.contains(" ") ? "'\(name)'" : name
            lines.append("        \(pattern)) echo '\((syntax.options.map(\.name) + ["--help"]).joined(separator: " "))' ;;")
        }
        lines += ["    esac", "}", end]
        return lines.joined(separator: "\n")
    }

    /// Words joined by spaces, a new line before one that would pass `width`.
    static func wrapped(_ words: [String], width: Int) -> String {
        var lines = [""]
        for word in words {
            if !lines[lines.count - 1].isEmpty && lines[lines.count - 1].count + 1 + word.count > width { lines.append("") }
            lines[lines.count - 1] += (lines[lines.count - 1].isEmpty ? "" : " ") + word
        }
        return lines.joined(separator: "\n")
    }
}
