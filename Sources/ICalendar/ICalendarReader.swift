/// Reads iCalendar text (RFC 5545 §3.1, §3.4, §3.6) into component trees:
/// the top-level components (usually one or more VCALENDAR) with every
/// property and sub-component in order, and line numbers on each.
///
/// Lenient where real files are, and saying so in `Reading.warnings`:
/// LF-only line ends, a UTF-8 byte-order mark, names in any case, blank
/// lines, continuation lines without their leading space ("bad folding"),
/// text outside any component, invalid UTF-8 (replaced with U+FFFD).
///
/// Exact where a file is broken: a component with a line that is not a
/// content line, an END that closes nothing open, or no END at all is a
/// `Reading.Problem` naming the line, the component and its UID; the
/// component is left out and its siblings are kept. The caller decides what
/// a problem means (`chime import` writes nothing unless told to skip them).
///
/// Past one of its `Limits` reading stops with an `ICalendarReadError`.
public struct ICalendarReader: Sendable {
    /// The largest input read: 64 MiB, some 100,000 events of the size real
    /// calendars have; a file past it is more likely not a calendar.
    public static let maximumFileSize = 64 << 20

    /// The longest content line after unfolding: 4 MiB. Real lines are
    /// short; the long ones are inline attachments (ATTACH;ENCODING=BASE64),
    /// and 4 MiB holds one of 3 MiB, past which RFC 5545 §3.8.1.1's URI form
    /// is what calendar programs use. A file with no line breaks in it stops here.
    public static let maximumLineLength = 4 << 20

    /// The deepest nesting of components: 16. RFC 5545 and its extensions
    /// nest four deep at most (VCALENDAR, VEVENT, VALARM or VLOCATION, …).
    public static let maximumDepth = 16

    /// The most components one input may hold: 1,000,000, ten times the
    /// events a full-size file has room for.
    public static let maximumComponents = 1_000_000

    /// The most properties one input may hold: 4,000,000, a 16-byte line on
    /// average in a full-size file; it bounds the memory a file of tiny lines takes.
    public static let maximumProperties = 4_000_000

    /// The most warnings kept for one input: 1,000, then one saying more
    /// were left out (a file of stray lines would otherwise warn once a line).
    public static let maximumWarnings = 1_000

    /// The most faults reported of one component: 100, then one counting the rest.
    public static let maximumFaultsPerComponent = 100

    /// Where reading stops. `standard` holds the constants above; tests and
    /// callers with tighter needs make their own.
    public struct Limits: Hashable, Sendable {
        public var fileSize: Int
        public var lineLength: Int
        public var depth: Int
        public var components: Int
        public var properties: Int

        public init(fileSize: Int = ICalendarReader.maximumFileSize, lineLength: Int = ICalendarReader.maximumLineLength,
                    depth: Int = ICalendarReader.maximumDepth, components: Int = ICalendarReader.maximumComponents,
                    properties: Int = ICalendarReader.maximumProperties) {
            self.fileSize = fileSize
            self.lineLength = lineLength
            self.depth = depth
            self.components = components
            self.properties = properties
        }

        public static let standard = Limits()
    }

    public var limits: Limits

    public init(limits: Limits = .standard) {
        self.limits = limits
    }

    /// Reads a whole input.
    public func read(_ bytes: [UInt8]) throws(ICalendarReadError) -> Reading {
        try read(bytes, handOver: nil)
    }

    /// Reads a whole input as `read(_:)` does, handing each sound component
    /// of a top-level VCALENDAR to `handOver` as it closes, with that
    /// VCALENDAR as read so far (its properties and the components kept
    /// until then; its `line` names it): one it takes (returns true for) is
    /// left out of the tree, so that a caller can map a large file
    /// component by component without holding the whole tree.
    ///
    /// `skimmingItems`: the VCALENDARs' VEVENTs and VTODOs (and what they
    /// hold) are read for their UID and RECURRENCE-ID alone, their other
    /// lines counted against the limits but not read: a first look at a
    /// large file (`ICalendarItems.Survey`) in a third of a read's time.
    /// What is wrong in the lines not read goes unnoticed, so that such a
    /// reading's problems and warnings are not the input's.
    public func read(_ bytes: [UInt8], skimmingItems: Bool = false,
                     handingOver handOver: (ICalendarComponent, _ calendar: ICalendarComponent) -> Bool)
        throws(ICalendarReadError) -> Reading {
        let result = withoutActuallyEscaping(handOver) { handOver in
            Result { () throws(ICalendarReadError) -> Reading in try read(bytes, skimmingItems: skimmingItems, handOver: handOver) }
        }
        return try result.get()
    }

    private func read(_ bytes: [UInt8], skimmingItems: Bool = false, handOver: ((ICalendarComponent, ICalendarComponent) -> Bool)?)
        throws(ICalendarReadError) -> Reading {
        guard bytes.count <= limits.fileSize else {
            throw ICalendarReadError(kind: .tooLarge, line: 0, reason: "the input is larger than \(limits.fileSize) bytes")
        }
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(ICalendarReadError) -> Reading in
                var parse = Parse(input: buffer, limits: limits)
                parse.handOver = handOver
                parse.skimsItems = skimmingItems
                return try parse.run()
            }
        }
        return try result.get()
    }

    /// Reads text already in memory.
    public func read(_ text: String) throws(ICalendarReadError) -> Reading {
        try read(Array(text.utf8))
    }
}
