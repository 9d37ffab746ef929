import Glibc
import SystemCalls

extension Database {
    /// Creates the folders of `path` that are missing (like `mkdir -p`), each
    /// with `permissions` exactly (the umask is undone). Existing folders keep
    /// their modes. Throws a `DatabaseError` with code `.cannotOpen` when a
    /// folder cannot be made or a path component is not a folder.
    public static func createDirectory(atPath path: String, permissions: mode_t = 0o700) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            if mkdir(prefix, permissions) == 0 {
                guard chmod(prefix, permissions) == 0 else {
                    throw fileError("cannot set the mode of the folder", .last("chmod", path: prefix))
                }
                continue
            }
            let mkdirErrno = errno
            var status = stat()
            guard mkdirErrno == EEXIST, stat(prefix, &status) == 0 else {
                throw fileError("cannot create the folder", SystemError(code: mkdirErrno, call: "mkdir", path: prefix))
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw DatabaseError(extendedResultCode: .cannotOpen, message: "not a folder: \(prefix)")
            }
        }
    }

    /// Creates the folder that will hold the database file at `path`; see
    /// `createDirectory(atPath:permissions:)`.
    public static func createParentDirectory(of path: String, permissions: mode_t = 0o700) throws {
        guard let slash = path.lastIndex(of: "/") else { return }
        let parent = String(path[..<slash])
        guard !parent.isEmpty else { return }
        try createDirectory(atPath: parent, permissions: permissions)
    }

    /// Creates an empty file with exactly `permissions` unless something
    /// already exists at `path` (O_CREAT | O_EXCL, so no race with another
    /// creator). An empty file is a valid empty database; SQLite then opens it
    /// and gives the `-wal`, `-shm` and `-journal` files the same mode. An
    /// empty regular file already there (`touch`ed, or made by another
    /// creator a moment ago) is about to become the database, so it gets
    /// `permissions` too; a file with content keeps its mode.
    ///
    /// A file already there is looked at by path, never opened: closing any
    /// descriptor of a file drops every POSIX lock this process holds on it
    /// (fcntl(2)), so a second connection opened in a process whose first
    /// one is in a transaction (chimed's sync and subscription refresh
    /// open their own) would free the first one's locks, and another
    /// process could then write under it: a corrupt database.
    static func createPrivateFile(atPath path: String, permissions: mode_t) throws {
        let descriptor = SystemError.retryingEINTR { open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, permissions) }
        if descriptor < 0 {
            guard errno == EEXIST else { throw fileError("cannot create the database file", .last("open", path: path)) }
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 0,
                  status.st_mode & 0o7777 != permissions else { return }
            guard chmod(path, permissions) == 0 else {
                throw fileError("cannot set the mode of the empty database file", .last("chmod", path: path))
            }
            return
        }
        // Made just now by this call: no connection has it open yet.
        defer { close(descriptor) }
        // open(2) applied the umask; set the mode asked for.
        guard fchmod(descriptor, permissions) == 0 else {
            throw fileError("cannot set the mode of the database file", .last("fchmod", path: path))
        }
    }

    private static func fileError(_ what: String, _ failure: SystemError) -> DatabaseError {
        DatabaseError(extendedResultCode: .cannotOpen, message: "\(what) \(failure.path ?? ""): \(failure.reason)")
    }
}
