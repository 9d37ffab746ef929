import Foundation

/// What the project's scripts make in `.build` beside the benchmark's own
/// executable (chime-bench is in .build/<triple>/release): the oracles of
/// contrib/oracle/setup, the servers of contrib/caldav/setup.
enum BuildFolder {
    /// The executable at `relative` in the nearest folder up from this
    /// executable's that holds one, or nil.
    static func executable(_ relative: String) -> String? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<8 where folder.path != "/" {
            let candidate = folder.appendingPathComponent(relative).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }
}
