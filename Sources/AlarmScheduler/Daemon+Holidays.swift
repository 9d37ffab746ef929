import CalendarModel
import CalendarStore
import Dispatch

/// Holiday data that workday rules need: fetched when it is missing, and
/// said when it is still missing.
///
/// Looked at once a day, and again when a workday rule arrives. A year a
/// rule in use needs and the store lacks (this year's at any time, next
/// year's from October, when the State Council's notice may be out) is
/// fetched through `Options.holidays` on a queue of its own; a fetch that
/// could not reach its source is tried again after `Options.holidayRetry`
/// (a laptop wakes before its network), one that found the year not yet
/// published the next day. A year that arrives is said on the desktop: the
/// person's workday reminders now follow it.
///
/// Then one notice per region and year for what is still missing: this
/// year's at any time, next year's from December (before then its absence
/// is no news). The rules fall back to the ordinary week, and people should
/// know before a holiday rings them awake. On the desktop and in the log;
/// logged under its own key, so it comes once a year, across restarts.
extension Daemon {
    func lookAtHolidayData(now: Int64) throws {
        dispatchPrecondition(condition: .onQueue(queue))
        // Once a day is enough, and spares every wake a scan of the rules.
        let today = store.machineTimeZone.localTime(at: now).date
        guard today != lastNoticeCheck, !fetchingHolidays else { return }
        lastNoticeCheck = today
        let wanted = today.month >= 10 ? [today.year, today.year + 1] : [today.year]
        // A year is asked for once a day (again only after a failure): the
        // re-plan that a year's arrival brings looks again, and must not
        // fetch what is still unpublished a second time.
        var asked = holidaysAsked?.day == today ? holidaysAsked?.years ?? [] : []
        var missing: [(region: String, years: [Int])] = []
        for region in try store.workdayRegionsInUse().sorted() {
            let calendar = try store.workdayCalendar(region: region)
            let years = wanted.filter { !calendar.hasData(forYear: $0) && !asked.contains("\(region) \($0)") }
            if !years.isEmpty { missing.append((region, years)) }
        }
        guard let fetcher = options.holidays, !missing.isEmpty else { return try noticeMissingHolidayData(today: today, now: now) }
        for (region, years) in missing { asked.formUnion(years.map { "\(region) \($0)" }) }
        holidaysAsked = (today, asked)
        fetchingHolidays = true
        holidayRetryTimer?.source.cancel()
        holidayRetryTimer = nil
        let path = options.storePath, log = self.log, toFetch = missing
        holidayQueue.async { [weak self] in
            var arrived: [CalendarStore.HolidayYearChange] = []
            var failed = false
            for (region, years) in toFetch {
                if let changes = fetcher.fetch(years: years, region: region, storePath: path, log: log) {
                    arrived += changes.filter { $0.kind != .unchanged }
                } else {
                    failed = true
                }
            }
            guard let self else { return }
            let (arrivedYears, anyFailed) = (arrived, failed)
            self.queue.async { self.fetchedHolidayData(arrivedYears, failed: anyFailed, today: today) }
        }
    }

    /// After a fetch: says what arrived, arms the retry after a failure, and
    /// gives the notices for what is still missing.
    private func fetchedHolidayData(_ arrived: [CalendarStore.HolidayYearChange], failed: Bool, today: CivilDate) {
        dispatchPrecondition(condition: .onQueue(queue))
        fetchingHolidays = false
        guard store != nil else { return }
        for change in arrived {
            let notice = DaemonNotice.holidayDataArrived(region: change.region, year: change.year, offDays: change.offDays,
                                                         makeupWorkdays: change.makeupWorkdays)
            log("chimed: notice: \(notice.title) — \(notice.body)")
            do { try notifier.showNotice(notice) } catch { log("chimed: notice not shown: \(error)") }
        }
        if failed {
            holidayRetryTimer = oneShot(at: clock.now + options.holidayRetry) { daemon in
                daemon.holidayRetryTimer = nil
                daemon.holidaysAsked = nil
                daemon.lastNoticeCheck = nil
                daemon.wake()
            }
        }
        do { try noticeMissingHolidayData(today: today, now: clock.second) } catch { log("chimed: holiday data: \(error)") }
    }

    private func noticeMissingHolidayData(today: CivilDate, now: Int64) throws {
        let years = today.month == 12 ? [today.year, today.year + 1] : [today.year]
        for region in try store.workdayRegionsInUse().sorted() {
            let calendar = try store.workdayCalendar(region: region)
            for missing in years where !calendar.hasData(forYear: missing) {
                guard try !ledger.holidayNoticeShown(region: region, year: missing) else { continue }
                let notice = DaemonNotice.missingHolidayData(region: region, year: missing)
                log("chimed: notice: \(notice.title) — \(notice.body)")
                try notifier.showNotice(notice)
                try ledger.recordHolidayNotice(region: region, year: missing, at: now)
            }
        }
    }
}
