@testable import CalDAVSync
import ICalendar
import Testing

/// The three-way merge of one resource, on components built in code.
@Suite("ResourceMerge: Chime's and the server's changes against the base")
struct ResourceMergeTests {
    static func component(_ lines: [(String, String)], alarms: [String] = [], recurrenceID: String? = nil,
                          name: String = "VTODO") -> ICalendarComponent {
        var properties = [ICalendarProperty(name: "UID", value: "bins@phone")]
        if let recurrenceID { properties.append(ICalendarProperty(name: "RECURRENCE-ID", value: recurrenceID)) }
        properties += lines.map { ICalendarProperty(name: $0.0, value: $0.1) }
        let valarms = alarms.map {
            ICalendarComponent(name: "VALARM", properties: [ICalendarProperty(name: "ACTION", value: "DISPLAY"),
                                                              ICalendarProperty(name: "TRIGGER", value: $0)])
        }
        return ICalendarComponent(name: name, properties: properties, components: valarms)
    }

    static let base = component([("DTSTAMP", "20261201T080000Z"), ("SUMMARY", "Bins"), ("PRIORITY", "5")], alarms: ["-PT15M"])

    @Test("changes to different properties are both kept, with no clash; the server's stamps stand")
    func apart() {
        let mine = Self.component([("DTSTAMP", "19700101T000000Z"), ("SUMMARY", "Bins"), ("PRIORITY", "1")], alarms: ["-PT15M"])
        let theirs = Self.component([("DTSTAMP", "20261202T080000Z"), ("SUMMARY", "Bins tonight"), ("PRIORITY", "5")], alarms: ["-PT15M"])
        let result = ResourceMerge.merge(base: [Self.base], mine: [mine], theirs: [theirs])
        #expect(result.clashes.isEmpty)
        #expect(result.components == [Self.component([("DTSTAMP", "20261202T080000Z"), ("SUMMARY", "Bins tonight"), ("PRIORITY", "1")],
                                                     alarms: ["-PT15M"])])
    }

    @Test("the same property changed differently keeps the server's and names the clash; changed alike, no clash")
    func clash() {
        let mine = Self.component([("DTSTAMP", "20261201T080000Z"), ("SUMMARY", "Bins (desktop)"), ("PRIORITY", "5")], alarms: ["-PT15M"])
        let theirs = Self.component([("DTSTAMP", "20261201T080000Z"), ("SUMMARY", "Bins (phone)"), ("PRIORITY", "5")], alarms: ["-PT30M"])
        let result = ResourceMerge.merge(base: [Self.base], mine: [mine], theirs: [theirs])
        #expect(result.clashes == ["SUMMARY"])
        #expect(result.components == [theirs])
        let alike = ResourceMerge.merge(base: [Self.base], mine: [theirs], theirs: [theirs])
        #expect(alike.clashes.isEmpty && alike.components == [theirs])
    }

    @Test("an alarm changed on one side only is taken; changed on both, the server's stands as a clash")
    func alarms() {
        let mine = Self.component([("DTSTAMP", "20261201T080000Z"), ("SUMMARY", "Bins"), ("PRIORITY", "5")], alarms: ["-PT1H"])
        let theirs = Self.component([("DTSTAMP", "20261201T080000Z"), ("SUMMARY", "Bins later"), ("PRIORITY", "5")], alarms: ["-PT15M"])
        let result = ResourceMerge.merge(base: [Self.base], mine: [mine], theirs: [theirs])
        #expect(result.clashes.isEmpty)
        #expect(result.components.first?.components == mine.components)
        #expect(result.components.first?["SUMMARY"]?.value == "Bins later")
        let both = Self.component([("DTSTAMP", "20261201T080000Z"), ("SUMMARY", "Bins later"), ("PRIORITY", "5")], alarms: ["-PT5M"])
        #expect(ResourceMerge.merge(base: [Self.base], mine: [mine], theirs: [both]).clashes == ["VALARM"])
    }

    @Test("a dismissal against alarms the server changed goes onto the server's alarms, with no clash; a later answer there stands")
    func dismissalOntoTheServersAlarms() {
        func answered(_ component: ICalendarComponent, _ at: String) -> ICalendarComponent {
            var copy = component
            copy.components = copy.components.map { alarm in
                var alarm = alarm
                alarm.properties.append(ICalendarProperty(name: "ACKNOWLEDGED", value: at))
                return alarm
            }
            return copy
        }
        let mine = answered(Self.base, "20261201T094500Z")
        // The phone moved the alarm and added one.
        let theirs = Self.component([("DTSTAMP", "20261201T093000Z"), ("SUMMARY", "Bins"), ("PRIORITY", "5")], alarms: ["-PT30M", "-PT5M"])
        let result = ResourceMerge.merge(base: [Self.base], mine: [mine], theirs: [theirs])
        #expect(result.clashes.isEmpty)
        #expect(result.components == [answered(theirs, "20261201T094500Z")])
        // Answered there later than here: the server's answer stands.
        let later = answered(theirs, "20261201T095000Z")
        #expect(ResourceMerge.merge(base: [Self.base], mine: [mine], theirs: [later]).components == [later])
        // A dismissal with another alarm change is an alarm change: the clash stands.
        let changed = answered(Self.component([("DTSTAMP", "20261201T080000Z"), ("SUMMARY", "Bins"), ("PRIORITY", "5")], alarms: ["-PT1H"]),
                               "20261201T094500Z")
        #expect(ResourceMerge.merge(base: [Self.base], mine: [changed], theirs: [theirs]).clashes == ["VALARM"])
    }

    @Test("overrides: one removed there and untouched here goes; one removed here and edited there stays; one added here is added")
    func overrides() {
        let override = Self.component([("SUMMARY", "Moved")], recurrenceID: "20270111T090000Z", name: "VEVENT")
        let edited = Self.component([("SUMMARY", "Moved again")], recurrenceID: "20270111T090000Z", name: "VEVENT")
        let added = Self.component([("SUMMARY", "Added here")], recurrenceID: "20270118T090000Z", name: "VEVENT")
        let series = Self.component([("SUMMARY", "Stand-up"), ("RRULE", "FREQ=WEEKLY;COUNT=4")], name: "VEVENT")
        let gone = ResourceMerge.merge(base: [series, override], mine: [series, override], theirs: [series])
        #expect(gone.components == [series])
        let kept = ResourceMerge.merge(base: [series, override], mine: [series], theirs: [series, edited])
        #expect(kept.components == [series, edited] && kept.clashes.isEmpty)
        let grown = ResourceMerge.merge(base: [series], mine: [series, added], theirs: [series])
        #expect(grown.components == [series, added])
    }
}
