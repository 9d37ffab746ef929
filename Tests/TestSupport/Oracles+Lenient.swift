import Foundation
import Testing

extension Oracles {
    /// recurring-ical-events' occurrences of `file`, or nil when it cannot
    /// expand the file (the package calendars broken on purpose): for
    /// differential runs over calendars not all of which are sound.
    public static func expandIfReadable(_ file: String, from: String, to: String,
                                        sourceLocation: SourceLocation = #_sourceLocation) throws -> [Occurrence]? {
        let run = try runPython("expand.py", ["--components", "VEVENT", file, from, to], sourceLocation: sourceLocation)
        guard run.status == 0 else { return nil }
        let decoder = JSONDecoder()
        return try? run.out.split(separator: "\n").map { try decoder.decode(Occurrence.self, from: Data($0.utf8)) }
    }
}
