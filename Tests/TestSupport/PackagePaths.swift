import Foundation
import Testing

/// Places in the package and beside the built tests, found from this file's
/// path and the test runner's, so a clone needs nothing set up.
public enum PackagePaths {
    /// #filePath is <package>/Tests/TestSupport/PackagePaths.swift.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The holiday-cn reference files (per-year JSON and ICS, 2007-2027, with
    /// their licence), kept in the repository so a clone needs nothing beside it.
    public static let holidayCN = root + "/Tests/Fixtures/holiday-cn"

    /// `holidayCN`, or a recorded failure naming it: missing, the fixtures
    /// fail the test, never skip it.
    public static func requireHolidayCN(sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        var isDirectory: ObjCBool = false
        try #require(FileManager.default.fileExists(atPath: holidayCN, isDirectory: &isDirectory) && isDirectory.boolValue,
                     "the holiday-cn fixtures are missing: no folder \(holidayCN)", sourceLocation: sourceLocation)
        return holidayCN
    }

    /// The executable `name` built beside these tests: the first folder up
    /// from the test runner's own (…/debug/ChimePackageTests.xctest, or a
    /// bundle inside it) that holds it; when none does, the path it would
    /// have, so a test can say to build it first.
    public static func builtExecutable(_ name: String) -> String {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" && !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent(name).path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent(name).path
    }
}
