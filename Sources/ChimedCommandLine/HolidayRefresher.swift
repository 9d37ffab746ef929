import AlarmScheduler
import CalendarExchange
import CalendarModel
import CalendarStore

/// chimed's fetcher of missing holiday data: the store's holiday source
/// (`chime holidays source`), read through a connection of its own. Only
/// cn's data has a source; other regions are left as they are.
struct HolidayRefresher: HolidayRefreshing {
    var machineZone: @Sendable () -> TimeZoneRules

    func fetch(years: [Int], region: String, storePath: String, log: @Sendable (String) -> Void) -> [CalendarStore.HolidayYearChange]? {
        guard region == "cn" else { return [] }
        let listed = years.map(String.init).joined(separator: ", ")
        do {
            let store = try CalendarStore(path: storePath, creating: false, machineTimeZone: machineZone())
            guard let feed = try HolidayFeed.named(by: try store.holidayUpdateSource()) else { return [] }
            let fetched = try feed.years(years, region: region)
            let changes = try store.importHolidayYears(fetched.years)
            for change in changes where change.kind != .unchanged { log("chimed: holidays: \(change)") }
            if !fetched.unpublished.isEmpty {
                log("chimed: holidays: not published yet at \(feed): " + fetched.unpublished.map(String.init).joined(separator: ", "))
            }
            return changes
        } catch let error as HolidayFeedError where error.code == .notHolidayData {
            // A file that is not holiday data stays so until its source mends it: tried again the next day.
            log("chimed: holidays: \(listed) not fetched: \(error)")
            return []
        } catch {
            log("chimed: holidays: \(listed) not fetched (tried again later): \(error)")
            return nil
        }
    }
}
