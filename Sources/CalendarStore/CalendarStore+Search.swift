import CalendarModel
import Foundation

/// Finding items by what they say, for `chime find`.
extension CalendarStore {
    /// The series and reminders whose title, location (as text or as a
    /// structured location's title) or notes hold every one of `words`,
    /// each anywhere in any of them, ignoring case, accents and width
    /// (`dentist` finds `Dentist`, `Dentíst` and `ｄｅｎｔｉｓｔ`), in the
    /// order `items(identifiers:)` gives. A detached occurrence that
    /// matches gives its series whole. `[]` for `words`: every item; `[]`
    /// for `calendars`: every calendar.
    ///
    /// Every row of the calendars is read and its text folded: no index
    /// helps a word in the middle of a title, and SQLite's own case folding
    /// stops at ASCII, which would miss `Ä` for `ä`.
    public func items(matching words: [String], calendars: [ItemIdentifier] = []) throws(StoreError) -> CalendarItems {
        let folded = words.map { Array(Self.folded($0).utf8) }.filter { !$0.isEmpty }
        var found: [ItemIdentifier] = []
        try StoreError.wrap {
            let sql = """
                SELECT id, title || char(10) || location || char(10) || notes || char(10) || coalesce(structured_title, '') FROM items
                WHERE ?1 = '[]' OR calendar_id IN (SELECT value FROM json_each(?1))
                """
            try database.forEachRow(sql, [Self.jsonArray(calendars)]) { row in
                let text = Self.foldedBytes(try row.value(1))
                if folded.allSatisfy({ Self.bytes(text, contain: $0) }), let identifier = ItemIdentifier(try row.value(0) as String) {
                    found.append(identifier)
                }
                return true
            }
        }
        return try items(identifiers: found)
    }

    /// `text` as searches compare it.
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// `folded(text)` as UTF-8; ASCII text, most of it, lower-cased byte by
    /// byte, which is what folding makes of it, at a fraction of the cost.
    static func foldedBytes(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return Array(folded(text).utf8) }
        for index in bytes.indices where (0x41...0x5A).contains(bytes[index]) { bytes[index] |= 0x20 }
        return bytes
    }

    /// Whether `word` stands anywhere in `text`. UTF-8 is self-synchronizing:
    /// a match of whole characters' bytes is a match of the characters.
    static func bytes(_ text: [UInt8], contain word: [UInt8]) -> Bool {
        guard word.count <= text.count else { return false }
        for start in 0...(text.count - word.count) where text[start] == word[0] {
            if text[start..<(start + word.count)].elementsEqual(word) { return true }
        }
        return false
    }
}
