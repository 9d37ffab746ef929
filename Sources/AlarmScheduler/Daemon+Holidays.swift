import CalendarModel
import CalendarStore
import Dispatch

/// Holiday data that workday rules need: fetched once a day, and said when
/// it is still missing.
///
/// Looked at once a day, and again when a workday rule arrives. The years
/// a rule in use needs (this year's at any time, next year's from October,
/// when the State Council's notice may be out) are fetched through
/// `Options.holidays` on a queue of its own, once a day each: a missing one
/// arrives when it is published, one in hand changes when a notice is
/// amended (as the Spring Festival of 2020 was, its makeup day dropped). A
/// fetch for a missing year that could not reach its source is tried again
/// after `Options.holidayRetry` (a laptop wakes before its network), the
/// rest the next day. A year that arrives or changes is said on the
/// desktop: the person's workday reminders now follow it.
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
        var toFetch: [(region: String, years: [Int])] = []
        var anyMissing = false
        for region in try store.workdayRegionsInUse().sorted() {
            let calendar = try store.workdayCalendar(region: region)
            let years = wanted.filter { !asked.contains("\(region) \($0)") }
            if !years.isEmpty { toFetch.append((region, years)) }
            anyMissing = anyMissing || years.contains { !calendar.hasData(forYear: $0) }
        }
        guard let fetcher = options.holidays, !toFetch.isEmpty else { return try noticeMissingHolidayData(today: today, now: now) }
        for (region, years) in toFetch { asked.formUnion(years.map { "\(region) \($0)" }) }
        holidaysAsked = (today, asked)
        fetchingHolidays = true
        holidayRetryTimer?.source.cancel()
        holidayRetryTimer = nil
        let path = options.storePath, log = self.log, asking = toFetch, retrySoon = anyMissing
        holidayQueue.async { [weak self] in
            var arrived: [CalendarStore.HolidayYearChange] = []
            var failed = false
            for (region, years) in asking {
                if let changes = fetcher.fetch(years: years, region: region, storePath: path, log: log) {
                    arrived += changes.filter { $0.kind != .unchanged }
                } else {
                    failed = true
                }
            }
            guard let self else { return }
            // A source out of reach is tried again soon only for a year that is missing; a check of years in hand waits for the next day.
            let (arrivedYears, retry) = (arrived, failed && retrySoon)
            self.queue.async { self.fetchedHolidayData(arrivedYears, retry: retry, today: today) }
        }
    }

    /// After a fetch: says what arrived or changed, arms the retry after a
    /// failure, and gives the notices for what is still missing.
    private func fetchedHolidayData(_ arrived: [CalendarStore.HolidayYearChange], retry: Bool, today: CivilDate) {
        dispatchPrecondition(condition: .onQueue(queue))
        fetchingHolidays = false
        guard store != nil else { return }
        for change in arrived {
            let notice: DaemonNotice = change.kind == .changed
                ? .holidayDataChanged(region: change.region, year: change.year, offDays: change.offDays, makeupWorkdays: change.makeupWorkdays)
                : .holidayDataArrived(region: change.region, year: change.year, offDays: change.offDays, makeupWorkdays: change.makeupWorkdays)
            log("chimed: notice: \(notice.title) — \(notice.body)")
            do { try notifier.showNotice(notice) } catch { log("chimed: notice not shown: \(error)") }
        }
        if retry {
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
