import HolidayCalendars
import Testing

@Suite("SHA-256")
struct SHA256Tests {
    @Test("the FIPS 180-2 test vectors: 'abc', the empty message, the 448-bit message and one million 'a'")
    func fipsVectors() {
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("feeding a message in pieces of any size gives the digest of the whole")
    func piecewise() {
        // Lengths around the padding boundaries: 55 bytes still fit the length
        // in one block, 56 do not; 64 fill one exactly.
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let whole = SHA256.hex(message)
            for piece in [1, 3, 63, 64, 65] {
                var hasher = SHA256()
                var start = 0
                while start < length {
                    hasher.update(message[start..<min(start + piece, length)])
                    start += piece
                }
                #expect(hasher.finalizeHex() == whole, "length \(length) in pieces of \(piece)")
            }
        }
    }

    @Test("finalising leaves the hasher usable: more input then gives the digest of everything")
    func finalizeIsRepeatable() {
        var hasher = SHA256()
        hasher.update("ab".utf8)
        #expect(hasher.finalizeHex() == SHA256.hex("ab"))
        hasher.update("c".utf8)
        #expect(hasher.finalizeHex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hasher.finalize().count == 32)
    }
}
