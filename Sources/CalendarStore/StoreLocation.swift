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
}
