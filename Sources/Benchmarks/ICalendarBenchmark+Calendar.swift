import CalendarModel
import SeededRandom

extension ICalendarBenchmark {
    /// The zones of the generated calendar, each with the VTIMEZONE a
    /// client of today writes for it (the rules in force since 2007 for New
    /// York, since 1996 for Berlin; Shanghai has no DST since 1991).
    static let zones: [(tzid: String, vtimezone: [String])] = [
        ("Asia/Shanghai", ["BEGIN:VTIMEZONE", "TZID:Asia/Shanghai", "BEGIN:STANDARD", "TZOFFSETFROM:+0800", "TZOFFSETTO:+0800",
                           "TZNAME:CST", "DTSTART:19700101T000000", "END:STANDARD", "END:VTIMEZONE"]),
        ("Europe/Berlin", ["BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "BEGIN:DAYLIGHT", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
                           "TZNAME:CEST", "DTSTART:19700329T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", "END:DAYLIGHT",
                           "BEGIN:STANDARD", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100", "TZNAME:CET", "DTSTART:19701025T030000",
                           "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU", "END:STANDARD", "END:VTIMEZONE"]),
        ("America/New_York", ["BEGIN:VTIMEZONE", "TZID:America/New_York", "BEGIN:DAYLIGHT", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400",
                              "TZNAME:EDT", "DTSTART:20070311T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "END:DAYLIGHT",
                              "BEGIN:STANDARD", "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "TZNAME:EST", "DTSTART:20071104T020000",
                              "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "END:STANDARD", "END:VTIMEZONE"]),
    ]

    /// What went into the generated calendar.
    struct Contents {
        var text = ""
        var lines = 0
        var events = 0
        var series = 0
        var overrides = 0
        var alarms = 0
        var allDay = 0
    }

    /// A decade (2017–2026) of a busy work calendar, `events` VEVENTs in
    /// all, the same for the same count on every machine: three in ten a
    /// series (weekly stand-ups and one-to-ones, daily check-ins, monthly
    /// reviews) with COUNT or UNTIL, a third of those with EXDATEs and a
    /// moved occurrence (a RECURRENCE-ID component, counted among the
    /// events), one in ten all day, half with a VALARM, some with long
    /// folded descriptions and non-ASCII text.
    static func calendar(events: Int) -> Contents {
        var random = SplitMix64(seed: 19)
        var contents = Contents()
        var lines: [String] = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Chime//chime-bench ical//EN", "CALSCALE:GREGORIAN"]
        for zone in zones { lines += zone.vtimezone }
        let titles = ["Stand-up", "1:1 with Mei", "Design review", "Quarterly planning", "周会 (weekly sync)", "Dentist",
                      "Customer call — Müller GmbH", "Budget", "Lunch & learn", "Release retro"]
        let places = ["Room 4.12", "Zoom", "望京 SOHO T3", "Alexanderplatz 1, Berlin", "Conference room B"]
        var number = 0
        while contents.events < events {
            number += 1
            let uid = "event-\(number)@bench.chime.test"
            let zone = zones[random.int(0...(zones.count - 1))].tzid
            let date = (year: random.int(2017...2026), month: random.int(1...12), day: random.int(1...28))
            let day = stamp(date.year, date.month, date.day)
            let hour = random.int(8...18), minute = random.element([0, 15, 30, 45])
            let minutes = random.element([15, 30, 45, 60, 90])
            let start = day + "T" + CivilDate.twoDigits(hour) + CivilDate.twoDigits(minute) + "00"
            let endHour = hour + (minute + minutes) / 60, endMinute = (minute + minutes) % 60
            let end = day + "T" + CivilDate.twoDigits(endHour) + CivilDate.twoDigits(endMinute) + "00"
            var event = ["BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:20261201T090000Z", "SEQUENCE:\(random.int(0...3))",
                         "SUMMARY:" + escaped(random.element(titles))]
            let allDay = random.chance(0.1)
            if allDay {
                event += ["DTSTART;VALUE=DATE:" + day, "DTEND;VALUE=DATE:" + stamp(date.year, date.month, date.day + 1)]
                contents.allDay += 1
            } else {
                event += ["DTSTART;TZID=\(zone):\(start)", "DTEND;TZID=\(zone):\(end)"]
            }
            if random.chance(0.4) { event.append("LOCATION:" + escaped(random.element(places))) }
            if random.chance(0.2) {
                event.append("DESCRIPTION:" + escaped("Agenda: " + (0..<random.int(3...12)).map { "item \($0 + 1), notes; owner \(random.element(titles))" }
                    .joined(separator: "\n")))
            }
            let recurring = !allDay && random.chance(0.3) && contents.events + 2 <= events
            var moved: [String] = []
            if recurring {
                contents.series += 1
                let rule = random.element(["FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=WEEKLY", "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR", "FREQ=MONTHLY;BYDAY=2TU",
                                           "FREQ=WEEKLY;INTERVAL=2"])
                let limit = random.chance(0.5) ? ";COUNT=\(random.int(5...200))" : ";UNTIL=\(stamp(min(date.year + random.int(0...3), 2026), 12, 31))T235959Z"
                event.append("RRULE:" + rule + limit)
                if random.chance(0.33) {
                    // An EXDATE one or two weeks in and an override three weeks in: occurrences of the weekly rules, not always of the others.
                    let excluded = stamp(date.year, date.month, date.day + 7 * random.int(1...2))
                    event.append("EXDATE;TZID=\(zone):\(excluded)T\(CivilDate.twoDigits(hour))\(CivilDate.twoDigits(minute))00")
                    let original = stamp(date.year, date.month, date.day + 21) + "T" + CivilDate.twoDigits(hour) + CivilDate.twoDigits(minute) + "00"
                    moved = ["BEGIN:VEVENT", "UID:" + uid, "DTSTAMP:20261201T090000Z", "RECURRENCE-ID;TZID=\(zone):\(original)",
                             "DTSTART;TZID=\(zone):\(stamp(date.year, date.month, date.day + 22))T\(CivilDate.twoDigits(min(hour + 1, 20)))0000",
                             "DURATION:PT\(minutes)M", "SUMMARY:" + escaped(random.element(titles) + " (moved)"), "END:VEVENT"]
                }
            }
            if random.chance(0.5) {
                contents.alarms += 1
                event += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER:-PT\(random.element([5, 10, 15, 30]))M", "END:VALARM"]
            }
            event.append("END:VEVENT")
            lines += event + moved
            contents.events += moved.isEmpty ? 1 : 2
            contents.overrides += moved.isEmpty ? 0 : 1
        }
        lines.append("END:VCALENDAR")
        var text = ""
        text.reserveCapacity(lines.count * 60)
        for line in lines {
            let folded = fold(line)
            contents.lines += folded.count
            for part in folded { text += part + "\r\n" }
        }
        contents.text = text
        return contents
    }

    /// YYYYMMDD of a day that may run past its month's end (day + n), as a real date.
    static func stamp(_ year: Int, _ month: Int, _ day: Int) -> String {
        var (year, month, day) = (year, month, day)
        func length(_ year: Int, _ month: Int) -> Int {
            month == 2 ? (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28) : [4, 6, 9, 11].contains(month) ? 30 : 31
        }
        while day > length(year, month) {  // bounded: day grows by at most a few weeks
            day -= length(year, month)
            month += 1
            if month > 12 { month = 1; year += 1 }
        }
        return String(year) + CivilDate.twoDigits(month) + CivilDate.twoDigits(day)
    }

    /// RFC 5545 TEXT escaping (backslash, semicolon, comma, newline).
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// A content line folded to 75 octets a line (RFC 5545 3.1), never
    /// inside a UTF-8 sequence.
    static func fold(_ line: String) -> [String] {
        var parts: [String] = []
        var current = "", octets = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if octets + size > 75 {
                parts.append(current)
                current = " "
                octets = 1
            }
            current.unicodeScalars.append(scalar)
            octets += size
        }
        parts.append(current)
        return parts
    }
}
