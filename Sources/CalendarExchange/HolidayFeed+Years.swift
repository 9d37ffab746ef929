import CalendarStore
import HolidayCalendars

/// Fetching and reading years, as `chime holidays update` and chimed's look
/// for a missing year both do.
extension HolidayFeed {
    /// The source's files of `years`, read as `region`'s holiday data, and
    /// the years it has not published: no file (404), or holiday-cn's
    /// placeholder with no days before the State Council's notice. A file
    /// that is not holiday data fails the whole (`.notHolidayData`): no year
    /// of it is taken.
    public func years(_ years: some Sequence<Int>, region: String) throws(HolidayFeedError) -> (years: [HolidayYear], unpublished: [Int]) {
        var read: [HolidayYear] = []
        var unpublished: [Int] = []
        for year in years {
            let fetched: (bytes: [UInt8], origin: String)?
            fetched = try fetch(year: year)
            guard let fetched else {
                unpublished.append(year)
                continue
            }
            do {
                read += try HolidayData.parse(fetched.bytes, format: .holidayCNJSON, file: fetched.origin, region: region, year: year)
            } catch where error.kind == .noData {
                unpublished.append(year)
            } catch {
                throw HolidayFeedError(.notHolidayData, error.description)
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
