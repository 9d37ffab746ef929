import Foundation
import Testing

/// A clone is all the tests and scripts have: nothing in them may reach for
/// the folder beside the package or for a path of one machine.
@Suite("The repository stands alone")
struct StandaloneRepositoryTests {
    /// Read from outside, so that this file does not name them itself.
    static let forbidden = ["..", "/shared"].joined(), machinePath = ["/", "work", "/"].joined()

    @Test("no test, source, script or CI file names the folder beside the package or an absolute machine path")
    func noOutsidePaths() throws {
        let root = Reference.packageRoot
        var offending: [String] = []
        var scanned = 0
        for top in ["Tests", "Sources", "contrib", ".ci"] {
            let enumerator = try #require(FileManager.default.enumerator(atPath: root + "/" + top), "no folder \(top)")
            while let relative = enumerator.nextObject() as? String {
                let path = root + "/" + top + "/" + relative
                guard let data = FileManager.default.contents(atPath: path),
                      let text = String(data: data, encoding: .utf8) else { continue }
                scanned += 1
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where line.contains(Self.forbidden) || line.contains(Self.machinePath) {
                    offending.append("\(top)/\(relative):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(scanned > 100)
        #expect(offending == [])
    }
}
