import CalendarModel
@testable import ICalendar
import Testing

@Suite struct ICalendarValueTests {
    @Test("TEXT escapes backslash, semicolon, comma and line breaks, and reads them back") func textEscapes() {
        let text = "Stand-up; room 4, floor 2\\east\r\nbring notes\nand coffee"
        let value = ICalendarText.escape(text)
        #expect(value == "Stand-up\\; room 4\\, floor 2\\\\east\\nbring notes\\nand coffee")
        #expect(ICalendarText.unescape(value) == "Stand-up; room 4, floor 2\\east\nbring notes\nand coffee")
        #expect(ICalendarText.unescape("a\\Nb\\:c\\") == "a\nb:c\\")
        #expect(ICalendarText.list("Work,Home\\, garden,") == ["Work", "Home, garden", ""])
    }

    @Test("TEXT has no escape for the other CONTROL characters: a NUL, a BEL and a DEL are written as U+FFFD, a tab as it is")
    func textControlCharacters() {
        #expect(ICalendarText.escape("a\u{0}b\u{7}c\u{7F}d\te") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\te")
        #expect(ICalendarText.escape("tab\tonly") == "tab\tonly")
    }

    @Test("a DATE-TIME reads as a date, a floating, a UTC or a zoned time by its shape") func dateTimeShapes() throws {
        let day = try #require(CivilDate(year: 2026, month: 12, day: 1))
        let time = try #require(LocalDateTime(date: day, hour: 8, minute: 50))
        #expect(try ICalendarDateTime(value: "20261201") == .date(day))
        #expect(try ICalendarDateTime(value: "20261201T085000") == .floating(time))
        #expect(try ICalendarDateTime(value: "20261201T085000Z", tzid: "Asia/Shanghai") == .utc(time))
        #expect(try ICalendarDateTime(value: "20261201t085000", tzid: "Asia/Shanghai") == .zoned(time, tzid: "Asia/Shanghai"))
        let lastDay = try #require(CivilDate(year: 2026, month: 12, day: 31))
        let lastSecond = try #require(LocalDateTime(date: lastDay, hour: 23, minute: 59, second: 59))
        #expect(try ICalendarDateTime(value: "20261231T235960") == .floating(lastSecond), "a leap second, 2026-12-31T23:59:60, reads as :59")
        for bad in ["2026120", "20261301", "20260230", "20261201T250000", "20261201 085000", "20261201T0850"] {
            #expect(throws: ICalendarValueError.self, "\(bad)") { try ICalendarDateTime(value: bad) }
        }
        let property = ICalendarProperty(name: "EXDATE", parameters: [ICalendarParameter("TZID", "Europe/Berlin")],
                                         value: "20261201T085000,20261202T085000", line: 12)
        #expect(try ICalendarDateTime.list(property).count == 2)
        let broken = ICalendarProperty(name: "EXDATE", value: "20261201T085000,tomorrow", line: 12)
        #expect(throws: ICalendarValueError(property: "EXDATE", value: "tomorrow", line: 12,
                                            reason: "is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, Z for UTC)")) {
            try ICalendarDateTime.list(broken)
        }
    }

    @Test("a DURATION keeps nominal days apart from seconds", arguments: [
        ("P1W", 7, 0, "P1W"), ("-PT15M", 0, -900, "-PT15M"), ("P1DT12H", 1, 43_200, "P1DT12H"),
        ("PT0S", 0, 0, "PT0S"), ("+pt1h30m", 0, 5_400, "PT1H30M"), ("P15DT5H0M20S", 15, 18_020, "P15DT5H20S"),
        ("-P2D", -2, 0, "-P2D"), ("PT", 0, 0, "PT0S"),
    ])
    func durationDays(text: String, days: Int, seconds: Int, written: String) throws {
        let duration = try ICalendarDuration(value: text)
        #expect(duration == ICalendarDuration(days: days, seconds: seconds))
        #expect(duration.value == written)
    }

    @Test("a malformed DURATION is refused") func malformedDuration() {
        for bad in ["", "P", "1D", "PT1D", "P1H", "P1D1D", "PT1H1H", "P12345678901D", "-"] {
            #expect(throws: ICalendarValueError.self, "\(bad)") { try ICalendarDuration(value: bad) }
        }
    }

    @Test("UTC offsets read and write with optional seconds, and -0000 is refused") func utcOffsets() throws {
        #expect(try ICalendarUTCOffset.seconds("+0800") == 28_800)
        #expect(try ICalendarUTCOffset.seconds("-0500") == -18_000)
        #expect(try ICalendarUTCOffset.seconds("+053000") == 19_800)
        #expect(try ICalendarUTCOffset.seconds("+0000") == 0)
        #expect(ICalendarUTCOffset.value(19_800) == "+0530")
        #expect(ICalendarUTCOffset.value(-16_200) == "-0430")
        #expect(ICalendarUTCOffset.value(4_075) == "+010755")
        for bad in ["-0000", "0800", "+2400", "+0860", "+08:00"] {
            #expect(throws: ICalendarValueError.self, "\(bad)") { try ICalendarUTCOffset.seconds(bad) }
        }
    }
}

@Suite struct ICalendarContentLineTests {
    @Test("a content line with quoted and RFC 6868-escaped parameters reads and writes back the same")
    func contentLineRoundTrip() throws {
        let line = #"ATTENDEE;CN="Wang, Wei";X-NOTE=say ^'hi^'^nthen go;ROLE=REQ-PARTICIPANT,OPT-PARTICIPANT:mailto:wei@example.com"#
        let property = try ICalendarProperty(contentLine: line, line: 7)
        #expect(property.name == "ATTENDEE")
        #expect(property.parameters == [ICalendarParameter("CN", "Wang, Wei"), ICalendarParameter("X-NOTE", "say \"hi\"\nthen go"),
                                        ICalendarParameter(name: "ROLE", values: ["REQ-PARTICIPANT", "OPT-PARTICIPANT"])])
        #expect(property.value == "mailto:wei@example.com")
        #expect(property.line == 7)
        #expect(try ICalendarProperty(contentLine: property.contentLine) == property)
        #expect(try ICalendarProperty(contentLine: "dtstart;tzid=Asia/Shanghai:20261201T085000").name == "DTSTART")
    }

    @Test("a line without a name, a colon or a closing quote is refused with its line")
    func brokenContentLines() {
        for bad in [":value", "SUMMARY", "X;=1:v", #"X;CN="open:v"#] {
            #expect(throws: ICalendarValueError.self, "\(bad)") { try ICalendarProperty(contentLine: bad, line: 3) }
        }
    }

    @Test("unmodelled properties and components are kept as text and read back in order")
    func unmodelledRoundTrip() throws {
        let properties = [ICalendarProperty(name: "X-MOZ-GENERATION", value: "3"),
                          ICalendarProperty(name: "ORGANIZER", parameters: [ICalendarParameter("CN", "Li: team")], value: "mailto:li@example.com")]
        let location = ICalendarComponent(name: "VLOCATION", properties: [ICalendarProperty(name: "NAME", value: "Office")])
        let text = ICalendarComponent.unmodelledText(properties: properties, components: [location])
        #expect(text == "X-MOZ-GENERATION:3\r\nORGANIZER;CN=\"Li: team\":mailto:li@example.com\r\nBEGIN:VLOCATION\r\nNAME:Office\r\nEND:VLOCATION\r\n")
        let back = try ICalendarComponent.readUnmodelled(text)
        #expect(back.properties == properties)
        #expect(back.components == [location])
        #expect(throws: ICalendarValueError.self) { try ICalendarComponent.readUnmodelled("BEGIN:VLOCATION\r\n") }
    }
}

@Suite struct TrimmedSpacesTests {
    @Test("values are trimmed of exactly what Foundation's trimmingCharacters(in: .whitespaces) takes off: tabs, every Zs space and U+200B, nothing else")
    func trimsAsFoundationDoes() {
        let samples = ["", " ", "\t\t", "2", " 2 ", "\t12\t", " a b ", "\u{00A0}3\u{3000}", "\u{2009}x\u{202F}", "\n4\n", "\r\n5 ", " \u{301}6",
                       "7\u{200B}", "中文 ", " 😀 ", "\u{1680}8\u{205F}", "x\u{0085}"]
        for sample in samples {
            #expect(sample.trimmedSpaces == sample.trimmingCharacters(in: .whitespaces), "\(sample.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(Substring(sample).trimmedSpaces == sample.trimmingCharacters(in: .whitespaces))
        }
    }
}
