/// A number as people write coordinates, radii and accuracies: an optional
/// sign, digits, an optional fraction (`31.2304`, `-33.87`, `+5`, `.5`).
/// `Double(_:)` also reads hexadecimal (`0x10` is 16), exponents (`1e1`),
/// `inf` and `nan`, none of which anyone means by a position; the item
/// options and the position lines read their numbers here alike.
public enum DecimalNumber {
    /// The value, or nil when `text` is not such a number.
    public static func value(_ text: some StringProtocol) -> Double? {
        var digits = 0, points = 0
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): points += 1
            case UInt8(ascii: "+") where index == 0, UInt8(ascii: "-") where index == 0: break
            default: return nil
            }
        }
        guard digits > 0, points <= 1 else { return nil }
        return Double(String(text))
    }
}
