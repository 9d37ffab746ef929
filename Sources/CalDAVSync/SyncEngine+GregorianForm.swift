import CalendarModel
import CalendarStore

/// Rules in the Chinese calendar (RFC 7529's RSCALE=CHINESE) for servers
/// that will not take them: Radicale answers such a PUT 400, and neither it
/// nor a phone that reads its copy would expand one.
///
/// Such an item goes up a second time in a *Gregorian form*: the rule is
/// left out, its occurrences are written as RDATEs (through the Chinese
/// table's last year, at most `gregorianFormDates`), and the rule itself is
/// kept in `X-CHIME-RRULE`, which other clients keep as an unknown property
/// and ignore, with the start the dates were counted from in its
/// `X-CHIME-FROM` parameter. A reminder's RDATEs are written as a kept line
/// (Chime's reminders hold no RDATE). Every resource read from a server
/// (`SyncEngine.read`) is turned back: an item with `X-CHIME-RRULE` and no
/// RRULE gets its rule again, and loses the RDATEs the rule makes from that
/// start and from the start it has now (a phone may have moved it, with or
/// without the dates); other RDATEs (a date added on the phone) stay.
extension SyncEngine {
    /// The most occurrences written as RDATEs: a yearly rule's to 2100, a
    /// twice-monthly one's for sixteen years.
    static let gregorianFormDates = 400

    /// The property that carries the rule in the Gregorian form.
    static let keptRuleProperty = "X-CHIME-RRULE"
    /// Its parameter naming the start the written dates were counted from.
    static let keptStartParameter = "X-CHIME-FROM"

    /// `items` with each Chinese-calendar rule written out as dates.
    func gregorianForm(_ items: CalendarItems) throws -> CalendarItems {
        var form = items
        for index in form.events.indices {
            let event = form.events[index].event
            guard let rule = event.recurrenceRule, rule.scale == .chinese else { continue }
            var written = event
            written.extraDates = Array(try store.recurrence(ofEvent: event).occurrences().dropFirst()
                .prefix { $0.scheduledTime.date.year <= ChineseCalendar.lastYear }.prefix(Self.gregorianFormDates).map(\.scheduledTime))
            written.recurrenceRule = nil
            written.origin = Self.keeping([Self.keptRuleLine(rule, from: event.start)], in: event.origin)
            form.events[index].event = written
        }
        for index in form.reminders.indices {
            let reminder = form.reminders[index]
            guard let rule = reminder.recurrenceRule, rule.scale == .chinese, let due = reminder.due,
                  let recurrence = try store.recurrence(ofReminder: reminder) else { continue }
            let dates = recurrence.occurrences().dropFirst().prefix { $0.scheduledTime.date.year <= ChineseCalendar.lastYear }
                .prefix(Self.gregorianFormDates).map(\.scheduledTime)
            var written = reminder
            written.recurrenceRule = nil
            var lines = [Self.keptRuleLine(rule, from: due)]
            if !dates.isEmpty {
                switch due {
                case .date: lines.append("RDATE;VALUE=DATE:" + dates.map(\.date.basicFormat).joined(separator: ","))
                case .floating: lines.append("RDATE:" + dates.map(\.basicFormat).joined(separator: ","))
                case .zoned(_, let zone, _): lines.append("RDATE;TZID=\(zone):" + dates.map(\.basicFormat).joined(separator: ","))
                }
            }
            written.origin = Self.keeping(lines, in: reminder.origin)
            form.reminders[index] = written
        }
        return form
    }

    /// `items` as read from a server, with any Gregorian form turned back into its rule.
    func restoringKeptRules(_ items: CalendarItems) -> CalendarItems {
        var restored = items
        for index in restored.events.indices {
            var event = restored.events[index].event
            guard event.recurrenceRule == nil, let origin = event.origin, let (rule, writtenFrom) = Self.keptRule(in: origin) else { continue }
            event.recurrenceRule = rule
            event.origin = Self.leavingOut([Self.keptRuleProperty], from: origin)
            // The RDATEs the rule makes go, counted from where they were
            // written and from where the series starts now; any other (one
            // added on the phone) stays.
            if let last = event.extraDates.max() {
                var made = Set<LocalDateTime>()
                for start in Set([event.start, writtenFrom.map { event.start.withWallClock($0) } ?? event.start]) {
                    var plain = event
                    (plain.start, plain.end, plain.extraDates) = (start, start, [])
                    guard let recurrence = try? store.recurrence(ofEvent: plain) else { continue }
                    made.formUnion(recurrence.occurrences().lazy.map(\.scheduledTime).prefix { $0 <= last })
                }
                event.extraDates = event.extraDates.filter { !made.contains($0) }
            }
            restored.events[index].event = event
        }
        for index in restored.reminders.indices {
            var reminder = restored.reminders[index]
            guard reminder.recurrenceRule == nil, let origin = reminder.origin, let (rule, _) = Self.keptRule(in: origin) else { continue }
            reminder.recurrenceRule = rule
            reminder.origin = Self.leavingOut([Self.keptRuleProperty, "RDATE"], from: origin)
            restored.reminders[index] = reminder
        }
        return restored
    }

    /// `X-CHIME-RRULE;X-CHIME-FROM=20270915:RSCALE=CHINESE;FREQ=YEARLY`: the
    /// rule, and the start (its wall-clock reading) its dates are counted from.
    static func keptRuleLine(_ rule: RecurrenceRule, from start: ItemTime) -> String {
        let from = switch start {
        case .date(let date): date.basicFormat
        case .floating(let time), .zoned(let time, _, _): time.basicFormat
        }
        return "\(keptRuleProperty);\(keptStartParameter)=\(from):\(rule.rfc5545)"
    }

    /// The rule kept in an item's own `X-CHIME-RRULE`, if it reads as a
    /// Chinese-calendar rule, and the start its dates were written from (nil
    /// where the line does not say, as Chime's before 2026-12 did not).
    private static func keptRule(in origin: ICalendarOrigin) -> (RecurrenceRule, LocalDateTime?)? {
        guard origin.keepsProperty(named: keptRuleProperty) else { return nil }
        guard let line = ownLines(of: origin.unmodelled).first(where: {
            $0.hasPrefix(keptRuleProperty + ":") || $0.hasPrefix(keptRuleProperty + ";")
        }), let colon = line.firstIndex(of: ":") else { return nil }
        // A server that keeps an unknown property as TEXT writes it back escaped (Radicale: `RSCALE=CHINESE\;FREQ=YEARLY`).
        let text = line[line.index(after: colon)...].replacingOccurrences(of: "\\;", with: ";").replacingOccurrences(of: "\\,", with: ",")
        guard let rule = try? RecurrenceRule(rfc5545: text), rule.scale == .chinese else { return nil }
        let start = line[..<colon].split(separator: ";").dropFirst().lazy.compactMap { parameter -> LocalDateTime? in
            guard parameter.hasPrefix(keptStartParameter + "=") else { return nil }
            let value = parameter.dropFirst(keptStartParameter.count + 1).filter { $0 != "\"" }
            return LocalDateTime(parsing: value) ?? CivilDate(parsing: value).flatMap { LocalDateTime(date: $0) }
        }.first
        return (rule, start)
    }

    /// `origin` with `lines` kept first, before any kept component.
    private static func keeping(_ lines: [String], in origin: ICalendarOrigin?) -> ICalendarOrigin {
        var kept = origin ?? ICalendarOrigin()
        kept.unmodelled = lines.map { $0 + "\r\n" }.joined() + kept.unmodelled
        return kept
    }

    /// `origin` without its own properties named `names` (those of its kept components stay).
    private static func leavingOut(_ names: [String], from origin: ICalendarOrigin) -> ICalendarOrigin {
        var kept = origin
        let lines = Self.lines(of: origin.unmodelled)
        let components = lines.firstIndex { $0.hasPrefix("BEGIN:") } ?? lines.endIndex
        let own = lines[..<components].filter { line in
            !names.contains { line.hasPrefix($0 + ":") || line.hasPrefix($0 + ";") }
        }
        kept.unmodelled = (own + lines[components...]).map { $0 + "\r\n" }.joined()
        return kept
    }

    /// The kept lines that are the item's own properties: those before its first kept component.
    private static func ownLines(of unmodelled: String) -> ArraySlice<Substring> {
        lines(of: unmodelled).prefix { !$0.hasPrefix("BEGIN:") }
    }

    /// Kept lines, each ending in CR LF, without their ends.
    private static func lines(of unmodelled: String) -> [Substring] {
        Array(unmodelled.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast())
    }
}
