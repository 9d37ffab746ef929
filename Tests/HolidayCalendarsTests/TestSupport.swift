import CalendarModel
import Foundation
import HolidayCalendars
import Testing

/// A date from its ISO form, which is the literal the tests read.
func day(_ iso: String, sourceLocation: SourceLocation = #_sourceLocation) -> CivilDate {
    guard let date = CivilDate(parsing: iso) else {
        Issue.record("'\(iso)' is not a date", sourceLocation: sourceLocation)
        return CivilDate(dayNumber: 0)
    }
    return date
}

/// The holiday-cn reference files (per-year JSON and ICS, 2007-2027): from
/// `CHIME_HOLIDAY_REFERENCE`, else `../shared/data/holiday-cn` beside the
/// package, else `/work/shared/data/holiday-cn`. Nil when none exists, which
/// the cross-check turns into a failure, never a skip.
enum Reference {
    static let candidates: [String] = {
        var paths: [String] = []
        if let configured = ProcessInfo.processInfo.environment["CHIME_HOLIDAY_REFERENCE"], !configured.isEmpty {
            paths.append(configured)
        }
        // #filePath is <package>/Tests/HolidayCalendarsTests/TestSupport.swift.
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        paths.append(packageRoot.appendingPathComponent("../shared/data/holiday-cn").standardizedFileURL.path)
        paths.append("/work/shared/data/holiday-cn")
        return paths
    }()

    static let folder: String? = candidates.first { path in
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path + "/2021.json", isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// The folder, or a recorded failure naming every place looked in.
    static func requireFolder(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try #require(folder, "the holiday-cn reference files are not in any of \(candidates); set CHIME_HOLIDAY_REFERENCE",
                     sourceLocation: sourceLocation)
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        let path = try requireFolder() + "/" + name
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// The error a parse throws, or a recorded failure when it does not throw.
func refusal(sourceLocation: SourceLocation = #_sourceLocation,
             _ body: () throws(HolidayDataError) -> Void) -> HolidayDataError? {
    do {
        try body()
        Issue.record("the data was accepted", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The compact text of one year, for malformed-file cases.
func compact(_ lines: String) -> String { "region cn\n" + lines }
