import Dispatch
import Foundation
import ICalendar
import Synchronization

/// A file read and surveyed (`CalendarImport.survey`) on a thread of its
/// own, from the moment it is made: an import starts it before it opens
/// (or makes) its store, which then takes no time of its own. A
/// 10,000-event file's survey took 20–26 ms and making the store 15–17
/// (chime-bench ical), one after the other.
///
/// `take` hands the bytes and the survey to `CalendarImport.plan`, once,
/// waiting for the thread (which holds the file until it has ended).
public final class SurveyedFile: Sendable {
    public let source: String
    private let outcome = Mutex<Result<(bytes: [UInt8], surveyed: CalendarImport.Surveyed), ImportFault>?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    private let taken = Atomic<Bool>(false)

    /// Starts reading `source` (`bytes`, when they were read already: standard input's).
    public init(source: String, bytes: [UInt8]? = nil, limits: ICalendarReader.Limits = .standard) {
        self.source = source
        let thread = Thread { [self] in
            let result = Result { () throws(ImportFault) -> (bytes: [UInt8], surveyed: CalendarImport.Surveyed) in
                let read = if let bytes { bytes } else { try CalendarImport.bytes(of: source, limits: limits) }
                return (bytes: read, surveyed: try CalendarImport.survey(read, source: source, limits: limits))
            }
            outcome.withLock { $0 = result }
            finished.signal()
        }
        // As the main thread's: the reader recurses with a component's depth.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The file's bytes and its survey, once made; what reading or
    /// surveying it threw. Nil when taken before: a plan made again (an
    /// import that turns to another store) surveys the file itself.
    public func take() throws(ImportFault) -> (bytes: [UInt8], surveyed: CalendarImport.Surveyed)? {
        guard !taken.exchange(true, ordering: .relaxed) else { return nil }
        finished.wait()
        return try outcome.withLock { outcome in
            defer { outcome = nil }
            return outcome!
        }.get()
    }
}
