import CalendarStore
import HolidayCalendars

/// Fetching and reading years, as `chime holidays update` and chimed's look
/// for a missing year both do.
extension HolidayFeed {
    /// Why `years(_:region:)` gave nothing: the source failed, or one of its
    /// files is not holiday data (then no year of it is taken).
    public enum YearsError: Error, CustomStringConvertible {
        case source(HolidayFeedError)
        case data(HolidayDataError)

        public var description: String {
            switch self {
            case .source(let error): error.description
            case .data(let error): error.description
            }
        }
    }

    /// The source's files of `years`, read as `region`'s holiday data, and
    /// the years it has not published: no file (404), or holiday-cn's
    /// placeholder with no days before the State Council's notice.
    public func years(_ years: some Sequence<Int>, region: String) throws(YearsError) -> (years: [HolidayYear], unpublished: [Int]) {
        var read: [HolidayYear] = []
        var unpublished: [Int] = []
        for year in years {
            let fetched: (bytes: [UInt8], origin: String)?
            do { fetched = try fetch(year: year) } catch { throw .source(error) }
            guard let fetched else {
                unpublished.append(year)
                continue
            }
            do {
                read += try HolidayData.parse(fetched.bytes, format: .holidayCNJSON, file: fetched.origin, region: region, year: year)
            } catch where error.kind == .noData {
                unpublished.append(year)
            } catch {
                throw .data(error)
            }
        }
        return (read, unpublished)
    }

    /// The feed a store names (`CalendarStore.HolidayUpdateSource`); nil when it is off.
    public static func named(by source: CalendarStore.HolidayUpdateSource) throws(HolidayFeedError) -> HolidayFeed? {
        switch source {
        case .holidayCN: try HolidayFeed(nil)
        case .given(let text): try HolidayFeed(text, given: "the holiday source")
        case .off: nil
        }
    }
}
