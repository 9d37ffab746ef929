import ICalendar

/// A three-way merge of one resource (one UID: its series and overrides)
/// that both Chime and another device changed since the last sync: the
/// base as both last agreed, Chime's version and the server's, each as
/// Chime exports it (so that a difference is a change, not another
/// program's way of writing the same thing).
///
/// Components are matched by name, UID and RECURRENCE-ID; within one,
/// properties by name, each name's lines taken as a whole, and the VALARMs
/// and other sub-components as one list. For each: unchanged on one side,
/// the other side's change is taken; changed alike, either; changed
/// differently, the server's is kept and the name is reported as a clash,
/// which the caller keeps Chime's version for. A component removed on one
/// side and changed on the other is kept as changed (a deletion against an
/// edit keeps the edit). DTSTAMP, LAST-MODIFIED and SEQUENCE are the
/// server's: they say when, not what. A dismissal (Chime's alarms changed
/// only by RFC 9074 ACKNOWLEDGED) is the least of changes: against alarms
/// the server changed too it is put onto the server's alarms, and never
/// clashes.
enum ResourceMerge {
    struct Result: Equatable {
        /// The items' components, merged (VTIMEZONEs left to the export).
        var components: [ICalendarComponent]
        /// What both sides changed differently, as `SUMMARY` or `VALARM`,
        /// with the component's RECURRENCE-ID where it has one.
        var clashes: [String]
    }

    static let stamps: Set<String> = ["DTSTAMP", "LAST-MODIFIED", "SEQUENCE"]

    /// `base`, `mine`, `theirs`: the VEVENTs and VTODOs of each version.
    static func merge(base: [ICalendarComponent], mine: [ICalendarComponent], theirs: [ICalendarComponent]) -> Result {
        func keyed(_ components: [ICalendarComponent]) -> [String: ICalendarComponent] {
            var byKey: [String: ICalendarComponent] = [:]
            for component in components where component.name != "VTIMEZONE" { byKey[key(component)] = component }
            return byKey
        }
        let b = keyed(base), m = keyed(mine), t = keyed(theirs)
        var order: [String] = []
        for component in theirs + mine where component.name != "VTIMEZONE" && !order.contains(key(component)) {
            order.append(key(component))
        }
        var result = Result(components: [], clashes: [])
        for key in order {
            let (old, ours, their) = (b[key], m[key], t[key])
            let chosen: ICalendarComponent?
            if ours == old {
                chosen = their
            } else if their == old || ours == their {
                chosen = ours
            } else if let ours, let their {
                let merged = mergeProperties(base: old ?? ICalendarComponent(name: their.name), mine: ours, theirs: their)
                chosen = merged.component
                let place = their["RECURRENCE-ID"].map { " (RECURRENCE-ID \($0.value))" } ?? ""
                result.clashes += merged.clashes.map { $0 + place }
            } else {
                // Removed on one side, changed on the other: the change stands.
                chosen = ours ?? their
            }
            if let chosen { result.components.append(chosen) }
        }
        return result
    }

    private static func key(_ component: ICalendarComponent) -> String {
        [component.name, component["UID"]?.value ?? "", component["RECURRENCE-ID"]?.value ?? ""].joined(separator: "\u{1F}")
    }

    private static func mergeProperties(base: ICalendarComponent, mine: ICalendarComponent,
                                        theirs: ICalendarComponent) -> (component: ICalendarComponent, clashes: [String]) {
        var names: [String] = []
        for property in theirs.properties + mine.properties where !names.contains(property.name) { names.append(property.name) }
        var clashes: [String] = []
        var properties: [ICalendarProperty] = []
        for name in names {
            let (old, ours, their) = (base.properties(named: name), mine.properties(named: name), theirs.properties(named: name))
            if stamps.contains(name) || ours == old || ours == their {
                properties += their
            } else if their == old {
                properties += ours
            } else {
                properties += their
                clashes.append(name)
            }
        }
        var components = theirs.components
        if mine.components != base.components, mine.components != theirs.components {
            if theirs.components == base.components {
                components = mine.components
            } else if let answered = acknowledgement(of: mine.components, over: base.components) {
                components = theirs.components.map { acknowledged($0, at: answered) }
            } else {
                clashes.append(Set(theirs.components.map(\.name) + mine.components.map(\.name)).sorted().joined(separator: ","))
            }
        }
        return (ICalendarComponent(name: theirs.name, properties: properties, components: components), clashes)
    }

    /// The latest ACKNOWLEDGED of `mine` when it differs from `base` by
    /// ACKNOWLEDGED alone (a dismissal and nothing else); else nil.
    private static func acknowledgement(of mine: [ICalendarComponent], over base: [ICalendarComponent]) -> String? {
        func unanswered(_ component: ICalendarComponent) -> ICalendarComponent {
            guard component.name == "VALARM" else { return component }
            var plain = component
            plain.properties.removeAll { $0.name == "ACKNOWLEDGED" }
            return plain
        }
        guard mine.map(unanswered) == base.map(unanswered) else { return nil }
        // The same form throughout (UTC, as Chime writes it): the latest sorts last.
        return mine.compactMap { $0.name == "VALARM" ? $0["ACKNOWLEDGED"]?.value : nil }.max()
    }

    /// A time-based VALARM of the server's answered at `at`, unless it was later.
    private static func acknowledged(_ component: ICalendarComponent, at: String) -> ICalendarComponent {
        guard component.name == "VALARM", component["PROXIMITY"] == nil, component["X-APPLE-PROXIMITY"] == nil else { return component }
        if let theirs = component["ACKNOWLEDGED"]?.value, theirs >= at { return component }
        var answered = component
        answered.properties.removeAll { $0.name == "ACKNOWLEDGED" }
        answered.properties.append(ICalendarProperty(name: "ACKNOWLEDGED", value: at))
        return answered
    }
}
