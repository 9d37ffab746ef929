/// Where the export (`ICalendarItems.Writer`) puts what it writes: straight
/// into bytes (`ICalendarWriter.Output`, what `chime export` uses: no
/// component tree and no String per value for a file of ten thousand
/// events), or into a component tree (`ICalendarTreeSink`, for callers
/// that look at the components). One writer serves both, so the tree is
/// always what the bytes read back as.
protocol ICalendarExportSink {
    /// What refuses a write: `ICalendarWriteError` for bytes, `Never` for a tree.
    associatedtype Failure: Error

    /// Opens a component the export writes.
    mutating func begin(_ name: String) throws(Failure)
    /// Closes the component `begin` opened last.
    mutating func end(_ name: String)
    /// A property the export writes: its own `parameters`, then those a
    /// kept line of the same name `lent` it, and the value `value` appends
    /// as UTF-8 value text.
    mutating func property(_ name: String, _ parameters: ICalendarItems.Parameters, lent: [ICalendarParameter],
                           value: (inout [UInt8]) -> Void) throws(Failure)
    /// A property kept as read (an unmodelled line).
    mutating func property(_ property: ICalendarProperty) throws(Failure)
    /// A component kept as read, or a VTIMEZONE, inside the open one.
    mutating func component(_ component: ICalendarComponent) throws(Failure)
    /// Where the next component would go in the open one, to `insert` at later.
    var mark: Int { get }
    /// `components` put in the open component at `mark`, before what was written since.
    mutating func insert(_ components: [ICalendarComponent], at mark: Int) throws(Failure)
}
