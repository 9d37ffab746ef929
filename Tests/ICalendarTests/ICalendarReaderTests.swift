import Foundation
import Glibc
@testable import ICalendar
import Synchronization
import Testing
import TestSupport

/// The bytes of a fixture in Fixtures/reader; a missing one fails the test.
func readerFixture(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: "ics", subdirectory: "Fixtures/reader"),
                           "the fixture Fixtures/reader/\(name).ics is missing", sourceLocation: sourceLocation)
    return [UInt8](try Data(contentsOf: url))
}

/// Reads `text` with the standard limits.
func readText(_ text: String, limits: ICalendarReader.Limits = .standard) throws -> ICalendarReader.Reading {
    try ICalendarReader(limits: limits).read(Array(text.utf8))
}

@Suite struct ICalendarReaderTests {
    @Test("RFC 5545's content-line examples unfold and split into names, parameters and values")
    func rfcContentLines() throws {
        let reading = try ICalendarReader().read(readerFixture("rfc5545-content-lines"))
        #expect(reading.problems.isEmpty)
        #expect(reading.warnings.isEmpty)
        let calendar = try #require(reading.components.first)
        #expect(reading.components.count == 1)
        #expect(calendar.name == "VCALENDAR")
        #expect(calendar.line == 1)
        let event = try #require(calendar.components(named: "VEVENT").first)
        #expect(event.line == 4)
        let descriptions = event.properties(named: "DESCRIPTION")
        #expect(descriptions.map(\.value) == ["This is a long description that exists on a long line.",
                                              "This is a long description that exists on a long line.",
                                              "The Fall'98 Wild Wizards Conference - - Las Vegas\\, NV\\, USA"])
        #expect(descriptions.map(\.line) == [7, 8, 11], "a folded line is numbered by its first physical line")
        #expect(descriptions[2].parameters == [ICalendarParameter("ALTREP", "cid:part1.0001@example.org")])
        let attendees = event.properties(named: "ATTENDEE")
        #expect(attendees.first?.parameters == [ICalendarParameter(name: "DELEGATED-TO", values: ["mailto:jdoe@example.com", "mailto:jqpublic@example.com"])])
        #expect(attendees.first?.value == "mailto:jsmith@example.com")
        #expect(attendees.last?[parameter: "CN"] == "George Herman \"Babe\" Ruth", "RFC 6868 ^' is a double quote")
        let geo = try #require(event["GEO"])
        #expect(geo[parameter: "X-ADDRESS"] == "Pittsburgh Pirates\n115 Federal St\nPittsburgh, PA 15212", "RFC 6868 ^n is a line break")
        #expect(geo.value == "40.446816;-80.00566")
        #expect(event["DTSTART"] == ICalendarProperty(name: "DTSTART", parameters: [ICalendarParameter("TZID", "America/New_York")], value: "20261201T085000"))
        #expect(event["RDATE"]?.value == "19970304,19970504,19970704,19970904")
        #expect(event["X-EMPTY"]?.value == "")
        #expect(event["X-EMPTY"]?.line == 18)
    }

    @Test("LF-only line ends and a byte-order mark read the same as CR LF")
    func lineFeedsAndByteOrderMark() throws {
        let crlf = try readerFixture("rfc5545-content-lines")
        var lf: [UInt8] = [0xEF, 0xBB, 0xBF]
        for byte in crlf where byte != UInt8(ascii: "\r") { lf.append(byte) }
        let fromCRLF = try ICalendarReader().read(crlf)
        let fromLF = try ICalendarReader().read(lf)
        #expect(fromLF == fromCRLF)
        #expect(fromLF.components.first?.components.first?["X-EMPTY"]?.line == 18)
    }

    @Test("an input whose lines end in CR alone is read with CR as the line end, with a warning")
    func carriageReturnLineEnds() throws {
        let crlf = try readerFixture("rfc5545-content-lines")
        var cr: [UInt8] = []
        for byte in crlf where byte != UInt8(ascii: "\n") { cr.append(byte) }
        let reading = try ICalendarReader().read(cr)
        #expect(try reading.components == ICalendarReader().read(crlf).components)
        #expect(reading.warnings.map(\.kind) == [.carriageReturnLineEnds])
        #expect(reading.components.first?.components.first?["X-EMPTY"]?.line == 18)
    }

    @Test("names in any case are stored in upper case; values keep their case")
    func lowerCaseNames() throws {
        let reading = try readText("begin:vcalendar\nbegin:vEvent\ndtStart;tzid=Asia/Shanghai;value=DATE-TIME:20261201t085000\nend:VEVENT\nend:vcalendar\n")
        let event = try #require(reading.components.first?.components.first)
        #expect(event.name == "VEVENT")
        #expect(event.properties == [ICalendarProperty(name: "DTSTART", parameters: [ICalendarParameter("TZID", "Asia/Shanghai"),
                                                                                     ICalendarParameter("VALUE", "DATE-TIME")],
                                                       value: "20261201t085000")])
        #expect(event.properties.first?.name == "DTSTART")
        #expect(event.properties.first?.parameters.map(\.name) == ["TZID", "VALUE"])
    }

    @Test("a BEGIN or END names its component with spaces and tabs around it and in any case; a name with other characters is no name")
    func componentNamesAroundSpaces() throws {
        let reading = try readText("BEGIN: vcalendar \t\nBEGIN:\tvEvent\nUID:a@chime.test\nEND:VEVENT  \nBEGIN:V EVENT\nUID:b@chime.test\nEND:V EVENT\nEND:VCALENDAR\n")
        #expect(reading.components.map(\.name) == ["VCALENDAR"])
        #expect(reading.components.first?.components.map(\.name) == ["VEVENT"])
        #expect(reading.components.first?.components.first?["UID"]?.value == "a@chime.test")
        // BEGIN:V EVENT does not open a component: its lines are faults of the VCALENDAR around them.
        #expect(reading.problems.map(\.line) == [5, 7])
        #expect(reading.problems.first?.reason.contains("BEGIN:V EVENT does not name a component") == true)
    }

    @Test("blank lines are skipped, also between a line and its fold")
    func blankLines() throws {
        let reading = try readText("\r\nBEGIN:VCALENDAR\r\n\r\nBEGIN:VEVENT\r\nSUMMARY:Stand\r\n\r\n -up\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n\r\n\r\n")
        #expect(reading.problems.isEmpty)
        #expect(reading.warnings.isEmpty)
        let event = try #require(reading.components.first?.components.first)
        #expect(event["SUMMARY"]?.value == "Stand-up")
        #expect(event.line == 4)
    }

    @Test("a line without the leading space of a fold continues the line before it, with a warning")
    func badFolding() throws {
        let reading = try ICalendarReader().read(readerFixture("bad-folding-lf"))
        #expect(reading.problems.isEmpty)
        let event = try #require(reading.components.first?.components.first)
        #expect(event["DESCRIPTION"]?.value == "The agenda runs long and this writerforgot the space when it foldedand then remembered.")
        #expect(event["DESCRIPTION"]?.line == 5)
        #expect(event["SUMMARY"]?.value == "Planning")
        #expect(event["UID"]?.value == "bad-folding@chime.test")
        #expect(reading.warnings.map(\.line) == [6])
        #expect(reading.warnings.map(\.kind) == [.badFolding])
    }

    @Test("a line that cannot be a content line right after BEGIN is not a fold: the component is broken")
    func noBadFoldingAfterBegin() throws {
        let reading = try readText("BEGIN:VCALENDAR\nBEGIN:VEVENT\nno colon here\nUID:x@chime.test\nEND:VEVENT\nEND:VCALENDAR\n")
        #expect(reading.problems.map(\.line) == [3])
        #expect(reading.problems.first?.uid == "x@chime.test")
        #expect(reading.components.first?.components.isEmpty == true)
    }

    @Test("text outside any component is skipped with a warning per line")
    func strayText() throws {
        let text = "Subject: calendar\r\nBEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a@chime.test\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n-- \r\nX-TRAILER:1\r\n"
        let reading = try readText(text)
        #expect(reading.problems.isEmpty)
        #expect(reading.components.count == 1)
        #expect(reading.components.first?.components.first?["UID"]?.value == "a@chime.test")
        #expect(reading.warnings.map(\.line) == [1, 7, 8])
        #expect(reading.warnings.allSatisfy { $0.kind == .outsideComponent })
    }

    @Test("broken components are reported with line, component and UID and left out; their siblings are kept")
    func brokenComponents() throws {
        let reading = try ICalendarReader().read(readerFixture("broken-components"))
        let found = reading.problems.map { "\($0.line) \($0.component)@\($0.componentLine) \($0.uid ?? "-") \($0.dropped ? "dropped" : "kept")" }
        #expect(found == [
            "1 VCALENDAR@1 - kept",                       // never ended: the file stops inside it
            "8 VEVENT@7 broken-1@chime.test dropped",    // an unclosed quote; the UID comes after the fault
            "13 VALARM@13 - dropped",                    // END:VTODO closes the VTODO around it
            "18 VEVENT@16 broken-3@chime.test dropped",  // END:VTODO closes nothing open
            "24 VEVENT@23 broken-4@chime.test dropped",  // not a content line
            "27 VEVENT@27 truncated@chime.test dropped", // never ended
        ])
        #expect(reading.problems[1].reason.contains("closing quote"))
        #expect(reading.problems[2].reason.contains("never ended"))
        #expect(reading.problems[3].reason.contains("closes nothing open"))
        let calendar = try #require(reading.components.first)
        #expect(calendar["VERSION"]?.value == "2.0")
        #expect(calendar.components.map { $0.name + " " + ($0["UID"]?.value ?? "") } == ["VEVENT good-1@chime.test", "VTODO broken-2@chime.test", "VEVENT good-2@chime.test"])
        #expect(calendar.components[1].components.isEmpty, "the VALARM without its END is left out of its VTODO")
        #expect(calendar.components.map(\.line) == [3, 11, 20])
    }

    @Test("an END with nothing open is a problem naming it")
    func endWithoutBegin() throws {
        let reading = try readText("END:VEVENT\r\nBEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n")
        #expect(reading.problems == [ICalendarReader.Problem(line: 1, component: "VEVENT", componentLine: 1, uid: nil,
                                                             reason: "END:VEVENT without a BEGIN:VEVENT", dropped: false)])
        #expect(reading.components == [ICalendarComponent(name: "VCALENDAR")])
    }

    @Test("invalid UTF-8 is replaced with U+FFFD and warned of by line")
    func invalidUTF8() throws {
        var bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:caf".utf8)
        bytes += [0xE9, 0xFF]
        bytes += Array(" ok\r\nLOCATION;X-P=a\u{FFFD}b:c\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        let reading = try ICalendarReader().read(bytes)
        let event = try #require(reading.components.first?.components.first)
        #expect(event["SUMMARY"]?.value == "caf\u{FFFD}\u{FFFD} ok")
        #expect(event["LOCATION"]?[parameter: "X-P"] == "a\u{FFFD}b", "a real U+FFFD in the file is no warning")
        #expect(reading.warnings == [ICalendarReader.Warning(line: 3, kind: .invalidUTF8, reason: "bytes that are not UTF-8 are replaced with U+FFFD")])
        #expect(reading.problems.isEmpty)
    }

    @Test("a value is warned of exactly when it is not UTF-8: overlong, surrogate, truncated and stray bytes are; every length of valid sequence and a real U+FFFD are not")
    func invalidUTF8Cases() throws {
        let cases: [(bytes: [UInt8], valid: Bool)] = [
            ([0xC0, 0xAF], false), ([0xED, 0xA0, 0x80], false), ([0xE2, 0x82], false), ([0xF4, 0x90, 0x80, 0x80], false), ([0x80], false),
            ([0xF8, 0x88, 0x80, 0x80, 0x80], false), ([0xC3, 0xA9], true), ([0xE4, 0xB8, 0xAD], true), ([0xF0, 0x9F, 0x98, 0x80], true),
            ([0xEF, 0xBF, 0xBD], true), ([0xE2, 0x82, 0xAC, 0xE2, 0x82], false),
        ]
        for (value, valid) in cases {
            let bytes = Array("BEGIN:VCALENDAR\r\nSUMMARY:a".utf8) + value + Array("z\r\nEND:VCALENDAR\r\n".utf8)
            let reading = try ICalendarReader().read(bytes)
            #expect(reading.warnings.contains { $0.kind == .invalidUTF8 } == !valid, "\(value.map { String($0, radix: 16) })")
            #expect(reading.components.first?["SUMMARY"]?.value == "a" + String(decoding: value, as: UTF8.self) + "z")
        }
    }

    @Test("CONTROL characters in values and parameters (a NUL in a UID) become U+FFFD, warned of by line; a tab and RFC 6868's ^n stay")
    func controlCharacters() throws {
        var bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:8C3A4F1E-".utf8)
        bytes += [0x00, 0x00]
        bytes += Array("x\r\nSUMMARY:a\tb\u{7F}c\r\nLOCATION;X-P=\"l^n".utf8) + [0x07] + Array("m\":v\r\nEND:VTODO\r\nEND:VCALENDAR\r\n".utf8)
        let reading = try ICalendarReader().read(bytes)
        let todo = try #require(reading.components.first?.components.first)
        #expect(todo["UID"]?.value == "8C3A4F1E-\u{FFFD}\u{FFFD}x")
        #expect(todo["SUMMARY"]?.value == "a\tb\u{FFFD}c")
        #expect(todo["LOCATION"]?[parameter: "X-P"] == "l\n\u{FFFD}m")
        let reason = "control characters, which RFC 5545 allows in no value, are replaced with U+FFFD"
        #expect(reading.warnings == [3, 4, 5].map { ICalendarReader.Warning(line: $0, kind: .controlCharacters, reason: reason) })
        #expect(reading.problems.isEmpty)
    }

    @Test("a fold inside a multi-byte character is unfolded on bytes, so the character survives")
    func foldInsideCharacter() throws {
        let summary = Array("SUMMARY:国庆节😀".utf8)
        for cut in 8..<summary.count {
            var bytes = Array("BEGIN:VEVENT\r\n".utf8) + summary[..<cut]
            bytes += Array("\r\n ".utf8) + summary[cut...] + Array("\r\nEND:VEVENT\r\n".utf8)
            let reading = try ICalendarReader().read(bytes)
            #expect(reading.components.first?["SUMMARY"]?.value == "国庆节😀", "cut after byte \(cut)")
            #expect(reading.warnings.isEmpty, "cut after byte \(cut)")
        }
    }

    @Test("a UTF-16 byte-order mark is refused: iCalendar is UTF-8")
    func utf16() {
        #expect(throws: ICalendarReadError(kind: .notUTF8, line: 1, reason: "the input starts with a UTF-16 or UTF-32 byte-order mark: iCalendar is UTF-8")) {
            try ICalendarReader().read([0xFF, 0xFE, UInt8(ascii: "B"), 0])
        }
    }

    @Test("mangled calendars (seeded byte edits) read without a crash, and every problem and warning names a line of the input; what was read writes and reads back equal")
    func mangledInput() throws {
        let sources = try ["rfc5545-content-lines", "broken-components", "bad-folding-lf"].map { try readerFixture($0) }
        let inserts: [[UInt8]] = [[0x0D], [0x0A], [0x0D, 0x0A], [0x20], [0x09], [0x22], [0x3A], [0x3B], [0x2C], [0x5E], [0xFF], [0xE5, 0x9B],
                                  Array("BEGIN:VEVENT\r\n".utf8), Array("END:VEVENT\r\n".utf8), Array("END:VCALENDAR".utf8)]
        var random = LinearCongruential(state: 5_545)
        for round in 0..<400 {
            var bytes = random.pick(sources)
            for _ in 0..<(1 + random.below(6)) {
                let at = random.below(bytes.count + 1)
                switch random.below(3) {
                case 0: bytes.insert(contentsOf: random.pick(inserts), at: at)
                case 1: if at < bytes.count { bytes.remove(at: at) }
                default: if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: random.below(256)) }
                }
            }
            let lines = bytes.filter { $0 == 0x0A }.count + 1
            let reading = try ICalendarReader().read(bytes)
            #expect(reading.problems.allSatisfy { (1...lines).contains($0.line) && (1...lines).contains($0.componentLine) }, "round \(round)")
            #expect(reading.warnings.allSatisfy { (1...lines).contains($0.line) }, "round \(round)")
            // Whatever was read can be written, and reads back the same.
            let written = try ICalendarWriter.write(reading.components)
            #expect(try ICalendarReader().read(written).components == reading.components, "round \(round)")
        }
    }

    @Test("an empty input reads as no components")
    func emptyInput() throws {
        #expect(try ICalendarReader().read([UInt8]()) == ICalendarReader.Reading(components: []))
        #expect(try ICalendarReader().read([0xEF, 0xBB, 0xBF]) == ICalendarReader.Reading(components: []))
    }
}

@Suite struct ICalendarReaderLimitTests {
    @Test("the limits are the documented constants")
    func constants() {
        #expect(ICalendarReader.maximumFileSize == 67_108_864)
        #expect(ICalendarReader.maximumLineLength == 4_194_304)
        #expect(ICalendarReader.maximumDepth == 16)
        #expect(ICalendarReader.Limits.standard == ICalendarReader.Limits(fileSize: 67_108_864, lineLength: 4_194_304, depth: 16,
                                                                        components: 1_000_000, properties: 4_000_000))
    }

    @Test("a content line longer than the limit stops reading, naming its line, whether folded or not")
    func lineTooLong() throws {
        let long = String(repeating: "a", count: ICalendarReader.maximumLineLength)
        let fits = try readText("BEGIN:VEVENT\r\nX:" + long.dropFirst(2) + "\r\nEND:VEVENT\r\n")
        #expect(fits.components.first?["X"]?.value.utf8.count == ICalendarReader.maximumLineLength - 2)
        #expect(throws: ICalendarReadError(kind: .lineTooLong, line: 2, reason: "the content line is longer than 4194304 bytes after unfolding")) {
            try readText("BEGIN:VEVENT\r\nX:" + long.dropFirst(1) + "\r\nEND:VEVENT\r\n")
        }
        var folded = "BEGIN:VEVENT\r\nX:"
        for _ in 0..<(ICalendarReader.maximumLineLength / 64) { folded += String(repeating: "b", count: 64) + "\r\n " }
        folded += "b\r\nEND:VEVENT\r\n"
        #expect(throws: ICalendarReadError(kind: .lineTooLong, line: 2, reason: "the content line is longer than 4194304 bytes after unfolding")) {
            try readText(folded)
        }
        #expect(throws: ICalendarReadError.self, "a file with no line break at all") {
            try ICalendarReader().read([UInt8](repeating: UInt8(ascii: "x"), count: ICalendarReader.maximumLineLength + 1))
        }
    }

    @Test("components nested deeper than the limit stop reading at the BEGIN that passes it")
    func nestingTooDeep() throws {
        let depth = ICalendarReader.maximumDepth
        let fits = (1...depth).map { "BEGIN:X-\($0)\r\n" }.joined() + (1...depth).reversed().map { "END:X-\($0)\r\n" }.joined()
        let reading = try readText(fits)
        #expect(reading.problems.isEmpty)
        var innermost = try #require(reading.components.first)
        for _ in 1..<depth { innermost = try #require(innermost.components.first) }
        #expect(innermost.name == "X-16")
        let tooDeep = (1...(depth + 1)).map { "BEGIN:X-\($0)\r\n" }.joined()
        #expect(throws: ICalendarReadError(kind: .nestedTooDeep, line: 17, reason: "BEGIN:X-17 nests components deeper than 16")) {
            try readText(tooDeep)
        }
    }

    @Test("more components, properties or bytes than the limits allow stop reading")
    func countsAndSize() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:2\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        #expect(try readText(text, limits: ICalendarReader.Limits(components: 3, properties: 2)).components.first?.components.count == 2)
        #expect(throws: ICalendarReadError(kind: .tooManyComponents, line: 5, reason: "the input holds more than 2 components")) {
            try readText(text, limits: ICalendarReader.Limits(components: 2))
        }
        #expect(throws: ICalendarReadError(kind: .tooManyProperties, line: 6, reason: "the input holds more than 1 properties")) {
            try readText(text, limits: ICalendarReader.Limits(properties: 1))
        }
        #expect(throws: ICalendarReadError(kind: .tooLarge, line: 0, reason: "the input is larger than 90 bytes")) {
            try readText(text, limits: ICalendarReader.Limits(fileSize: 90))
        }
    }

    @Test("a skimming reading hands over each VCALENDAR's VEVENTs and VTODOs holding their UID and RECURRENCE-ID alone, and reads every other component whole")
    func skimmingItems() throws {
        let text = [
            "BEGIN:VCALENDAR", "VERSION:2.0", "X-WR-CALNAME:Work",
            "BEGIN:VTIMEZONE", "TZID:Office", "BEGIN:STANDARD", "DTSTART:19700101T000000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0100",
            "END:STANDARD", "END:VTIMEZONE",
            "BEGIN:VEVENT", "SUMMARY:Stand-up", "uid:standup@chime.test", "DTSTART;TZID=Office:20261201T090000",
            "BEGIN:VALARM", "UID:alarm@chime.test", "ACTION:DISPLAY", "TRIGGER:-PT5M", "END:VALARM", "END:VEVENT",
            "BEGIN:VEVENT", "UID:standup@chime.test", "RECURRENCE-ID;TZID=Office:20261202T090000", "SUMMARY:Moved", "END:VEVENT",
            "BEGIN:VTODO", "SUMMARY:No UID", "DUE:20261203T090000Z", "END:VTODO",
            "BEGIN:X-OTHER", "X-NOTE:kept", "END:X-OTHER",
            "END:VCALENDAR",
        ].joined(separator: "\r\n") + "\r\n"
        func read(skimming: Bool) throws -> (handed: [ICalendarComponent], reading: ICalendarReader.Reading) {
            var handed: [ICalendarComponent] = []
            let reading = try ICalendarReader().read(Array(text.utf8), skimmingItems: skimming) { component, _ in
                guard component.name == "VEVENT" || component.name == "VTODO" else { return false }
                handed.append(component)
                return true
            }
            return (handed, reading)
        }
        let whole = try read(skimming: false), skimmed = try read(skimming: true)
        #expect(skimmed.reading == whole.reading, "what is not handed over reads the same")
        #expect(skimmed.reading.components.first?.components.map(\.name) == ["VTIMEZONE", "X-OTHER"])
        #expect(skimmed.handed.map(\.line) == whole.handed.map(\.line))
        #expect(skimmed.handed.map { $0.properties.map(\.name) } == [["UID"], ["UID", "RECURRENCE-ID"], []])
        #expect(skimmed.handed.map { $0.properties.map(\.value) } == [["standup@chime.test"], ["standup@chime.test", "20261202T090000"], []])
        #expect(skimmed.handed[1].properties.last?[parameter: "TZID"] == "Office")
        let alarm = try #require(skimmed.handed.first?.components.first)
        #expect(alarm.name == "VALARM" && alarm.properties.map(\.name) == ["UID"], "a component inside an item is skimmed too")
        #expect(whole.handed.map { $0.properties.count } == [3, 3, 2])
    }

    @Test("a skimming reading counts the lines it does not read against the limits, and stops where a whole reading stops")
    func skimmingCountsAgainstTheLimits() throws {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:One that is long\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:Two\r\nUID:2\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        for skimming in [false, true] {
            #expect(throws: ICalendarReadError(kind: .tooManyProperties, line: 7, reason: "the input holds more than 2 properties")) {
                try ICalendarReader(limits: ICalendarReader.Limits(properties: 2)).read(Array(text.utf8), skimmingItems: skimming) { _, _ in true }
            }
            #expect(throws: ICalendarReadError(kind: .lineTooLong, line: 4, reason: "the content line is longer than 20 bytes after unfolding")) {
                try ICalendarReader(limits: ICalendarReader.Limits(lineLength: 20)).read(Array(text.utf8), skimmingItems: skimming) { _, _ in true }
            }
        }
    }

    @Test("a file of stray lines keeps the first 1,000 warnings and one saying the rest are left out")
    func warningCap() throws {
        let text = String(repeating: "junk line\r\n", count: 1_500) + "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"
        let reading = try readText(text)
        #expect(reading.warnings.count == ICalendarReader.maximumWarnings + 1)
        #expect(reading.warnings.last?.line == 1_001)
        #expect(reading.warnings.last?.reason == "more than 1000 warnings: the rest from here on are left out")
        #expect(reading.components == [ICalendarComponent(name: "VCALENDAR")])
    }

    @Test("a component with more bad lines than the cap reports the first 100 and one counting the rest")
    func faultCap() throws {
        let text = "BEGIN:VEVENT\r\nUID:noisy@chime.test\r\n" + String(repeating: "X;=bad\r\n", count: 150) + "END:VEVENT\r\n"
        let reading = try readText(text)
        #expect(reading.problems.count == ICalendarReader.maximumFaultsPerComponent + 1)
        #expect(reading.problems.last == ICalendarReader.Problem(line: 152, component: "VEVENT", componentLine: 1, uid: "noisy@chime.test",
                                                                 reason: "and 50 more lines up to here that could not be read", dropped: false))
    }

    @Test("an endless stream on a pipe stops with an error at the size limit")
    func endlessPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let stop = Atomic(false)
        // The writer keeps writing until told to stop: to the reader, an endless stream.
        let writer = Thread {
            let line = Array("X-ENDLESS:y\r\n".utf8)
            let chunk = Array((0..<4096).map { _ in line }.joined())
            while !stop.load(ordering: .relaxed) {
                guard chunk.withUnsafeBytes({ write(writeEnd, $0.baseAddress, $0.count) }) > 0 else { break }
            }
            close(writeEnd)
        }
        writer.start()
        defer {
            // Drained to its end, so the writer sees the flag and closes its end.
            stop.store(true, ordering: .relaxed)
            var sink = [UInt8](repeating: 0, count: 1 << 16)
            while sink.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress, $0.count) }) > 0 {}
            close(readEnd)
        }
        #expect(throws: ICalendarReadError(kind: .tooLarge, line: 0, reason: "the input is larger than 67108864 bytes")) {
            try ICalendarReader().read(fileDescriptor: readEnd)
        }
        #expect(throws: ICalendarReadError(kind: .tooLarge, line: 0, reason: "the input is larger than 1000 bytes")) {
            try ICalendarReader.readBounded(fileDescriptor: readEnd, limit: 1000)
        }
    }

    @Test("a pipe that ends within the limit is read to its end")
    func finitePipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let text = Array("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n".utf8)
        #expect(write(ends[1], text, text.count) == text.count)
        close(ends[1])
        defer { close(ends[0]) }
        #expect(try ICalendarReader().read(fileDescriptor: ends[0]).components == [ICalendarComponent(name: "VCALENDAR")])
    }

    @Test("a file is read whole, refused before reading when larger than the limit, and a missing one names its path")
    func files() throws {
        let folder = TemporaryFolder("icalendar-reader")
        let path = folder.appending("calendar.ics")
        let bytes = try readerFixture("rfc5545-content-lines")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try ICalendarReader().read(path: path) == ICalendarReader().read(bytes))
        #expect(try ICalendarReader.readFile(path: path, limit: bytes.count) == bytes)
        #expect(throws: ICalendarReadError(kind: .tooLarge, line: 0, reason: "\(path) holds \(bytes.count) bytes, more than \(bytes.count - 1)")) {
            try ICalendarReader.readFile(path: path, limit: bytes.count - 1)
        }
        let missing = folder.appending("missing.ics")
        #expect(throws: ICalendarReadError(kind: .unreadable(errno: ENOENT), line: 0, reason: "cannot open \(missing): No such file or directory")) {
            try ICalendarReader().read(path: missing)
        }
    }
}
