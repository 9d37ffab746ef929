import Foundation
import Glibc

/// EventKit's authorization status, mapped onto a file: whether this user
/// may read and write the store.
public enum AccessStatus: String, Sendable, CaseIterable {
    /// No store yet; the first write creates it.
    case notDetermined = "not determined"
    /// The store exists and can be read and written.
    case authorized
    /// Permissions forbid reading the store (or creating it).
    case denied
    /// The store can be read but not written: a read-only file or medium.
    case restricted

    public static func of(path: String) -> AccessStatus {
        guard FileManager.default.fileExists(atPath: path) else {
            let folder = (path as NSString).deletingLastPathComponent
            var ancestor = folder.isEmpty ? "." : folder
            while !FileManager.default.fileExists(atPath: ancestor), ancestor != "/" {
                ancestor = (ancestor as NSString).deletingLastPathComponent
                if ancestor.isEmpty { ancestor = "." }
            }
            return access(ancestor, W_OK | X_OK) == 0 ? .notDetermined : .denied
        }
        guard access(path, R_OK) == 0 else { return .denied }
        var info = statvfs()
        if statvfs(path, &info) == 0, info.f_flag & UInt(ST_RDONLY) != 0 { return .restricted }
        return access(path, W_OK) == 0 ? .authorized : .restricted
    }
}
