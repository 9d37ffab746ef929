import CalendarModel
import CalendarStore
import Foundation
import HTTPDownload
import ICalendar

/// One refresh of a subscribed calendar: a conditional GET of its feed,
/// then an import that replaces the calendar's items with the feed's.
///
/// The feed is the calendar: what it holds replaces what is stored,
/// whatever SEQUENCE or LAST-MODIFIED say (an organizer's feed that drops
/// a moved occurrence puts it back where the series has it), and what it
/// no longer holds is removed.
///
/// The last good copy stays when anything goes wrong: a failed download,
/// a feed that does not read as iCalendar or whose VCALENDAR is broken
/// (a download cut short ends before END:VCALENDAR), or a store error
/// writes nothing but the failure, and the next attempt comes sooner
/// (`Subscription.nextAttempt`). A feed with some broken components
/// imports the rest, since nobody is there to pass `--skip-broken`, but
/// removes nothing: a component that does not read may be one of the
/// items stored, and its last good copy stays. The outcome names what was
/// left out.
public enum SubscriptionRefresh {
    /// What one refresh did.
    public struct Outcome: Sendable {
        public var calendar: ItemCalendar
        /// The subscription as recorded after the attempt.
        public var subscription: Subscription
        /// The import's report; nil when nothing was imported (not modified, or failed).
        public var report: ImportReport? = nil
        public var notModified = false
        /// Why it failed; nil on success.
        public var failure: String? = nil
        /// Components of the feed left out; while there are any, nothing
        /// the feed lacks was removed.
        public var skipped: [ImportFault] = []
        /// The name the feed gives itself (X-WR-CALNAME), when it came.
        public var feedName: String? = nil
    }

    /// The bounds of a download: a feed is a file a person would keep.
    public static func request(for subscription: Subscription) throws(DownloadError) -> Downloader.Request {
        Downloader.Request(url: try subscriptionHTTPAddress(subscription.url), entityTag: subscription.entityTag,
                           lastModified: subscription.lastModifiedHeader)
    }

    /// Refreshes one subscription at `now` (Unix seconds) and records how it went.
    public static func refresh(_ subscription: Subscription, store: CalendarStore, now: Int64,
                               downloader: Downloader = Downloader()) throws(StoreError) -> Outcome {
        let calendar = try store.calendar(identifier: subscription.calendarIdentifier)
        func failed(_ reason: String) throws(StoreError) -> Outcome {
            let recorded = try store.recordRefresh(of: calendar.identifier, at: now, .failed(reason))
            return Outcome(calendar: calendar, subscription: recorded, failure: reason)
        }
        let response: Downloader.Response
        do {
            response = try downloader.download(try request(for: subscription))
        } catch {
            return try failed(error.description)
        }
        guard let body = response.body else {
            let recorded = try store.recordRefresh(of: calendar.identifier, at: now, .notModified)
            return Outcome(calendar: calendar, subscription: recorded, notModified: true)
        }
        var plan: CalendarImport.Plan
        do {
            plan = try CalendarImport.plan(body, source: subscription.url, into: calendar, defaultCalendar: calendar, store: store)
        } catch {
            return try failed(error.description)
        }
        guard !plan.parts.isEmpty else {
            return try failed(plan.faults.first?.description ?? "\(subscription.url): the feed holds no calendar")
        }
        if let broken = plan.faults.first(where: { $0.component == nil || $0.component == "VCALENDAR" }) {
            return try failed(broken.description)
        }
        // A feed of several VCALENDARs is one calendar's items: imported as
        // one batch, so that removing what is missing keeps every part's.
        var items = CalendarItems()
        for part in plan.parts { items.append(part.items) }
        plan.parts = [CalendarImport.Part(calendar: calendar, isNew: false, items: items)]
        do {
            let reports = try store.transaction { () throws(StoreError) -> [ImportReport] in
                let reports = try CalendarImport.apply([plan], store: store, removingMissing: plan.faults.isEmpty,
                                                          asSubscriptionRefresh: true)
                try store.recordRefresh(of: calendar.identifier, at: now,
                                        .fetched(entityTag: response.entityTag, lastModifiedHeader: response.lastModified))
                return reports
            }
            let recorded = try store.subscription(of: calendar.identifier) ?? subscription
            return Outcome(calendar: calendar, subscription: recorded, report: reports.first, skipped: plan.faults, feedName: plan.feedName)
        } catch {
            return try failed((error as? StoreError)?.description ?? String(describing: error))
        }
    }
}
