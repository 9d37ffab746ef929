#if canImport(Glibc)
import Glibc
#endif

/// Waiting for the disk by path: a file's data (a store made without
/// syncing its commits, before it is put in place), or a folder's entries
/// (the name it was put in place under).
public enum DiskSync {
    /// fsync(2) of the file or folder at `path`.
    public static func sync(path: String, isFolder: Bool = false) throws(SystemError) {
        let descriptor = SystemError.retryingEINTR { open(path, O_RDONLY | O_CLOEXEC | (isFolder ? O_DIRECTORY : 0)) }
        guard descriptor >= 0 else { throw .last("open", path: path) }
        defer { close(descriptor) }
        guard SystemError.retryingEINTR({ fsync(descriptor) }) == 0 else { throw .last("fsync", path: path) }
    }
}
