/// Exit statuses, after BSD's sysexits.h, as `chime(1)` and `chimed(8)` document them.
public enum ExitStatus {
    public static let success: Int32 = 0
    /// `chime workday`: the date is a day off (an answer, not a failure).
    public static let dayOff: Int32 = 1
    /// `chime find`: nothing matches (an answer, as grep's 1).
    public static let noMatch: Int32 = 1
    /// The command line itself is wrong: unknown command or option, missing argument.
    public static let usage: Int32 = 64
    /// A value is wrong: a malformed rule, date, time or time zone, coordinates
    /// out of range, a duplicate key, a read-only calendar, a calendar that
    /// still holds items (without `--yes`), an ambiguous identifier prefix.
    public static let dataError: Int32 = 65
    /// What the command names does not exist: an unknown item identifier,
    /// calendar or occurrence (EX_NOINPUT).
    public static let notFound: Int32 = 66
    /// Something the command needs is not there (EX_UNAVAILABLE): no daemon
    /// answers (`chime daemon status`, `chime location` handing positions
    /// on), the holiday source cannot be reached (`chime holidays update`),
    /// another `chimed` already runs.
    public static let unavailable: Int32 = 69
    /// The store could not be opened, read or written (EX_IOERR): permissions,
    /// a read-only medium, a damaged file, a lock held too long; or standard
    /// output could not be written (a full disk, a closed pipe).
    public static let storeFailure: Int32 = 74

    /// Every status a command returns; README's table, chime(1) and
    /// `chime --help` list exactly these.
    public static let all: [Int32] = [success, dayOff, usage, dataError, notFound, unavailable, storeFailure]
}
