extension PasswordCommand {
    /// A command line as its words, quoted as a POSIX shell quotes them but
    /// never expanded: blanks separate words; '…' holds anything but a
    /// single quote; "…" holds anything, with \" \\ \$ and \` for those
    /// characters; a backslash outside quotes takes the next character as
    /// it is. So `pass show "My Server"` is three words, and `sh -c '…'`
    /// hands a whole line to a shell the person names. Nil for a quote left
    /// open or a line that ends in a lone backslash.
    public static func words(_ line: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var characters = line.makeIterator()
        while let character = characters.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'":
                inWord = true
                var closed = false
                while let next = characters.next() {
                    if next == "'" { closed = true; break }
                    word.append(next)
                }
                guard closed else { return nil }
            case "\"":
                inWord = true
                var closed = false
                while let next = characters.next() {
                    if next == "\"" { closed = true; break }
                    if next == "\\" {
                        guard let escaped = characters.next() else { return nil }
                        if !["\"", "\\", "$", "`"].contains(escaped) { word.append("\\") }
                        word.append(escaped)
                    } else {
                        word.append(next)
                    }
                }
                guard closed else { return nil }
            case "\\":
                guard let escaped = characters.next() else { return nil }
                inWord = true
                word.append(escaped)
            default:
                inWord = true
                word.append(character)
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
