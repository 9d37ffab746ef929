import CalendarModel

extension TimeExpressionError {
    /// The failure a command ends with: `context` names the command and the
    /// option, e.g. `chime add: --start`; the status is 65.
    public func failure(in context: String) -> CommandFailure {
        .data("\(context): \(description)")
    }
}
