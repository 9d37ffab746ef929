import Foundation
import Testing

extension Oracles {
    /// recurring-ical-events' VEVENT occurrences of each of `files`, in the
    /// order given, each nil where it cannot expand the file (the package
    /// calendars broken on purpose): for differential runs over calendars not
    /// all of which are sound. One Python process reads them all
    /// (`expand.py --each`): a process a file spent 30 s of a run starting
    /// Python.
    public static func expandEachIfReadable(_ files: [String], from: String, to: String,
                                            sourceLocation: SourceLocation = #_sourceLocation) throws -> [[Occurrence]?] {
        struct Expansion: Decodable {
            var file: String
            var error: String?
        }
        struct Occurrences: Decodable {
            var occurrences: [Occurrence]
        }
        let run = try runPython("expand.py", ["--components", "VEVENT", "--each", from, to] + files, sourceLocation: sourceLocation)
        try #require(run.status == 0, "expand.py --each exited \(run.status): \(run.err)", sourceLocation: sourceLocation)
        let decoder = JSONDecoder()
        let lines = run.out.split(separator: "\n")
        let expansions = try lines.map { try decoder.decode(Expansion.self, from: Data($0.utf8)) }
        try #require(expansions.map(\.file) == files, "expand.py --each did not answer for each file in turn", sourceLocation: sourceLocation)
        return zip(expansions, lines).map { expansion, line in
            // Occurrences this side cannot read count as the oracle's refusal, as an error does.
            expansion.error == nil ? (try? decoder.decode(Occurrences.self, from: Data(line.utf8)))?.occurrences : nil
        }
    }
}
