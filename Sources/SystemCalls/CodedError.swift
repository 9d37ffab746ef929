/// An error with `code` for a caller to match and `description` for people,
/// and beneath it, when one failed, the system call: the one shape of the
/// errors that name their own kinds of failure (the holiday feed's and
/// libcurl's in the command line; the daemon's and its client's fit it too),
/// each with its own enum of codes. It lives here, the lowest module they
/// all import, beside `SystemError`.
public struct CodedError<CodeType: Equatable & Sendable>: Error, CustomStringConvertible {
    // Named so that `LibCurlError.Code` reads as it did before the errors shared this type.
    public typealias Code = CodeType

    public var code: Code
    public var description: String
    /// The system call that failed beneath, when one did.
    public var systemError: SystemError?

    public init(_ code: Code, _ description: String, systemError: SystemError? = nil) {
        self.code = code
        self.description = description
        self.systemError = systemError
    }
}
