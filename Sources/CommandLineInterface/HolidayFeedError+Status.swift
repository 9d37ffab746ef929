import CalendarExchange
import CommandLineSupport
import SystemCalls

extension CodedError where CodeType == HolidayFeedFailure {
    /// The exit status it ends `chime holidays update` with: a source that
    /// is not one and a file that is not holiday data are bad data (65), a
    /// folder that is not there not found (66), the rest unavailable (69).
    var status: Int32 {
        switch code {
        case .notASource, .notAFolder, .notHolidayData: ExitStatus.dataError
        case .noSuchFolder: ExitStatus.notFound
        case .unreadable, .notAnAddress, .download, .httpStatus: ExitStatus.unavailable
        }
    }
}
