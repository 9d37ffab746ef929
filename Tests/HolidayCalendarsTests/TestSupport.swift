import CalendarModel
import Foundation
import HolidayCalendars
import TestSupport
import Testing

/// A date from its ISO form, which is the literal the tests read.
func day(_ iso: String, sourceLocation: SourceLocation = #_sourceLocation) -> CivilDate {
    guard let date = CivilDate(parsing: iso) else {
        Issue.record("'\(iso)' is not a date", sourceLocation: sourceLocation)
        return CivilDate(dayNumber: 0)
    }
    return date
}

/// The holiday-cn reference files (`PackagePaths.holidayCN`). A missing
/// folder or file is a failure, never a skip.
enum Reference {
    static let packageRoot = PackagePaths.root

    static let folder = PackagePaths.holidayCN

    /// The folder, or a recorded failure naming it.
    static func requireFolder(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try PackagePaths.requireHolidayCN(sourceLocation: sourceLocation)
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
