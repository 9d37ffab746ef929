import Foundation

/// Where the store lives: `--db PATH`, else `CHIME_DB`, else
/// `$XDG_DATA_HOME/chime/chime.db`, else `~/.local/share/chime/chime.db`
/// (the XDG Base Directory default).
public enum StoreLocation {
    public static func path(explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let path = environment["CHIME_DB"], !path.isEmpty { return path }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") { return data + "/chime/chime.db" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/chime/chime.db"
    }

    /// Only the default location's folders are made: the folder of a path
    /// given with --db or CHIME_DB must exist, so that a mistyped path is
    /// an error rather than a new store in new folders (for chimed, a
    /// daemon that rings nothing the person made). The message when it is
    /// not there, naming what gave the path; nil when it is, or the path is
    /// the default.
    public static func missingFolder(explicit: String?, environment: [String: String]) -> String? {
        let given = explicit.flatMap { $0.isEmpty ? nil : "--db" } ?? environment["CHIME_DB"].flatMap { $0.isEmpty ? nil : "CHIME_DB" }
        let path = self.path(explicit: explicit, environment: environment)
        guard let given, let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
        let folder = String(path[..<slash])
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue { return nil }
        return "no folder \(folder) for the store \(path) (\(given)); create it first, or check the path"
    }
}
