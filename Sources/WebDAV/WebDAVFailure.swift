/// A multistatus reply that cannot be read: `code` for a caller to match,
/// `description` saying what and where (line and column in the reply).
public struct WebDAVError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Code: Equatable, Sendable {
        /// Not well-formed XML (libxml2's code), or a DTD's entity declarations.
        case malformed
        /// Well-formed, but not a multistatus as RFC 4918 defines it (no
        /// multistatus root, a response with no href, a status line that is not one).
        case notMultistatus
        /// Past a bound of `MultistatusLimits`: size, depth or count.
        case tooLarge
    }

    public var code: Code
    public var description: String
    /// 1-based, 0 when the fault has no place (the reply as a whole).
    public var line = 0
    public var column = 0
}

/// The bounds a reply is read within: a server, or whoever is between it
/// and Chime, cannot make the reader take unbounded memory or time.
public struct MultistatusLimits: Equatable, Sendable {
    /// Bytes of the reply (the HTTP client bounds the body already; this
    /// holds for a reply from elsewhere too).
    public var maximumSize: Int
    /// Elements nested: a multistatus needs about eight.
    public var maximumDepth: Int
    /// Elements in all (a response is about ten).
    public var maximumElements: Int

    public init(maximumSize: Int = 64 << 20, maximumDepth: Int = 48, maximumElements: Int = 4_000_000) {
        self.maximumSize = maximumSize
        self.maximumDepth = maximumDepth
        self.maximumElements = maximumElements
    }
}
