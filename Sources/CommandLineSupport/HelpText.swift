/// How `--help` lays text out: options in a column, usage lines wrapped.
public enum HelpText {
    /// Where an option's help starts, and how wide lines get.
    static let helpColumn = 21
    static let width = 86

    /// One option per entry: its label, then its help in a column beside it
    /// (below it, when the label is too long).
    public static func options(_ options: [OptionSpec]) -> String {
        options.map(entry).joined(separator: "\n")
    }

    static func entry(_ option: OptionSpec) -> String {
        let indent = String(repeating: " ", count: helpColumn)
        let label = "  " + option.label
        let lines = wrap(option.help, width: width - helpColumn)
        guard let first = lines.first else { return label }
        let head = label.count <= helpColumn - 2
            ? label.padding(toLength: helpColumn, withPad: " ", startingAt: 0) + first
            : label + "\n" + indent + first
        return ([head] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, breaking at spaces:
    /// declarations write their help as prose, and this lays it out.
    public static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(whereSeparator: \.isWhitespace) {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count > width {
                lines.append(line)
                line = String(word)
            } else {
                line += " " + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `lead` and the words after it, continued on lines indented past the
    /// lead; a bracketed option is never split.
    static func wrap(_ words: [String], after lead: String) -> String {
        let indent = String(repeating: " ", count: lead.count + 1)
        var lines = [lead]
        for word in words {
            if lines[lines.count - 1].count + 1 + word.count > 80, lines[lines.count - 1] != lead, lines[lines.count - 1] != indent {
                lines.append(indent + word)
            } else {
                lines[lines.count - 1] += " " + word
            }
        }
        return lines.joined(separator: "\n")
    }
}
