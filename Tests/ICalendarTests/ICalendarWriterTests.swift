@testable import ICalendar
import Testing

/// The physical lines of writer output, without their CR LF; a line end
/// other than CR LF is a recorded failure.
func physicalLines(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var current: [UInt8] = []
    var index = 0
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
            lines.append(current)
            current = []
            index += 2
        } else {
            if bytes[index] == UInt8(ascii: "\n") { Issue.record("a line feed without its carriage return at byte \(index)", sourceLocation: sourceLocation) }
            current.append(bytes[index])
            index += 1
        }
    }
    #expect(current.isEmpty, "the output ends with CR LF", sourceLocation: sourceLocation)
    return lines
}

/// A small seeded generator (Knuth's MMIX constants), so the random trees are the same on every run.
struct LinearCongruential {
    var state: UInt64

    mutating func below(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }

    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
}

@Suite struct ICalendarWriterTests {
    @Test("a calendar is written with CR LF line ends, quoted and RFC 6868-escaped parameters and values as given")
    func exactText() throws {
        let event = ICalendarComponent(name: "VEVENT", properties: [
            ICalendarProperty(name: "UID", value: "1@chime.test"),
            ICalendarProperty(name: "ATTENDEE", parameters: [ICalendarParameter("CN", "Wang, Wei"), ICalendarParameter("X-NOTE", "say \"hi\"\nthen ^"),
                                                             ICalendarParameter(name: "ROLE", values: ["CHAIR", "X-ODD:ONE"])],
                              value: "mailto:wei@example.com"),
            ICalendarProperty(name: "SUMMARY", value: "Stand-up\\; room 4\\, floor 2"),
        ])
        let calendar = ICalendarComponent(name: "VCALENDAR", properties: [ICalendarProperty(name: "VERSION", value: "2.0")], components: [event])
        let text = try ICalendarWriter.text([calendar])
        #expect(text == """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VEVENT\r
            UID:1@chime.test\r
            ATTENDEE;CN="Wang, Wei";X-NOTE=say ^'hi^'^nthen ^^;ROLE=CHAIR,"X-ODD:ONE":m\r
             ailto:wei@example.com\r
            SUMMARY:Stand-up\\; room 4\\, floor 2\r
            END:VEVENT\r
            END:VCALENDAR\r

            """)
        #expect(try ICalendarWriter.write(calendar) == Array(text.utf8))
        #expect(try ICalendarReader().read(Array(text.utf8)).components == [calendar])
    }

    @Test("a line of exactly 75 octets stays whole; a longer one folds into 75 and then 74 after the space")
    func foldAtSeventyFive() throws {
        func lines(_ value: String) throws -> [String] {
            let bytes = try ICalendarWriter.write(ICalendarComponent(name: "X", properties: [ICalendarProperty(name: "X", value: value)]))
            return physicalLines(bytes).dropFirst().dropLast().map { String(decoding: $0, as: UTF8.self) }
        }
        let a = { (count: Int) in String(repeating: "a", count: count) }
        #expect(try lines(a(73)) == ["X:" + a(73)])
        #expect(try lines(a(74)) == ["X:" + a(73), " a"])
        #expect(try lines(a(73 + 74)) == ["X:" + a(73), " " + a(74)])
        #expect(try lines(a(73 + 75)) == ["X:" + a(73), " " + a(74), " a"])
    }

    @Test("a fold never splits a CJK or emoji character straddling octet 75, and the text reads back whole")
    func foldOnCharacterBoundaries() throws {
        // 国 is three octets, 😀 four: with "X:" and 68 to 76 ASCII octets
        // before them, the 75th octet falls at every place in each.
        for padding in 68...76 {
            for character in ["国", "😀", "é"] {
                let value = String(repeating: "a", count: padding) + String(repeating: character, count: 40)
                let component = ICalendarComponent(name: "X", properties: [ICalendarProperty(name: "X", value: value)])
                let bytes = try ICalendarWriter.write(component)
                let lines = physicalLines(bytes)
                for (number, line) in lines.enumerated() {
                    #expect(line.count <= 75, "padding \(padding) \(character) line \(number)")
                    #expect(String(validating: line, as: UTF8.self) != nil, "padding \(padding) \(character) line \(number) is whole UTF-8")
                    if number > 1 && number < lines.count - 1 { #expect(line.first == UInt8(ascii: " ")) }
                }
                let characterStart = 2 + padding
                let octets = character.utf8.count
                let expectedFirst = characterStart + octets <= 75 ? 75 - (75 - characterStart) % octets : characterStart
                #expect(lines[1].count == min(expectedFirst, 75), "padding \(padding) \(character): the first line ends before the character it would split")
                #expect(try ICalendarReader().read(bytes).components == [component])
            }
        }
        // The boundary cases spelled out: 国 in octets 73-75 fits, in 75-77 it moves to the next line.
        let fits = try ICalendarWriter.write(ICalendarComponent(name: "X", properties: [ICalendarProperty(name: "X", value: String(repeating: "a", count: 70) + "国")]))
        #expect(physicalLines(fits).map(\.count) == [7, 75, 5])
        let moves = try ICalendarWriter.write(ICalendarComponent(name: "X", properties: [ICalendarProperty(name: "X", value: String(repeating: "a", count: 72) + "国")]))
        #expect(physicalLines(moves).map(\.count) == [7, 74, 4, 5])
        let emoji = try ICalendarWriter.write(ICalendarComponent(name: "X", properties: [ICalendarProperty(name: "X", value: String(repeating: "a", count: 71) + "😀")]))
        #expect(physicalLines(emoji).map(\.count) == [7, 73, 5, 5])
    }

    @Test("what would not read back the same is refused, naming the component and property")
    func refusals() {
        func refuses(_ component: ICalendarComponent, _ expected: ICalendarWriteError, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(throws: expected, sourceLocation: sourceLocation) { try ICalendarWriter.write(component) }
        }
        refuses(ICalendarComponent(name: "V EVENT"),
                ICalendarWriteError(component: "V EVENT", property: "", reason: "'V EVENT' is not a component name (letters, digits, '-', '_')"))
        refuses(ICalendarComponent(name: "VEVENT", properties: [ICalendarProperty(name: "X;Y", value: "1")]),
                ICalendarWriteError(component: "VEVENT", property: "X;Y", reason: "'X;Y' is not a property name (letters, digits, '-', '_')"))
        refuses(ICalendarComponent(name: "VEVENT", properties: [ICalendarProperty(name: "X", parameters: [ICalendarParameter("A=B", "1")], value: "1")]),
                ICalendarWriteError(component: "VEVENT", property: "X", reason: "'A=B' is not a parameter name (letters, digits, '-', '_')"))
        refuses(ICalendarComponent(name: "VEVENT", properties: [ICalendarProperty(name: "X", parameters: [ICalendarParameter(name: "P", values: [])], value: "1")]),
                ICalendarWriteError(component: "VEVENT", property: "X", reason: "the parameter P has no value"))
        refuses(ICalendarComponent(name: "VEVENT", properties: [ICalendarProperty(name: "SUMMARY", value: "two\nlines")]),
                ICalendarWriteError(component: "VEVENT", property: "SUMMARY",
                                    reason: "the value holds a line break, which a content line cannot (TEXT writes it as \\n)"))
        refuses(ICalendarComponent(name: "VTODO", properties: [ICalendarProperty(name: "UID", value: "a\u{0}b")]),
                ICalendarWriteError(component: "VTODO", property: "UID",
                                    reason: "the value holds the control character U+0000, which no content line may (TEXT writes it as U+FFFD)"))
        refuses(ICalendarComponent(name: "VEVENT", properties: [ICalendarProperty(name: "X", parameters: [ICalendarParameter("P", "a\u{7}")], value: "1")]),
                ICalendarWriteError(component: "VEVENT", property: "X",
                                    reason: "the parameter P holds the control character U+0007, which no content line may"))
        refuses(ICalendarComponent(name: "VEVENT", properties: [ICalendarProperty(name: "end", value: "VEVENT")]),
                ICalendarWriteError(component: "VEVENT", property: "END", reason: "a property named END would read back as a component"))
        var deep = ICalendarComponent(name: "X-17")
        for level in (1...16).reversed() { deep = ICalendarComponent(name: "X-\(level)", components: [deep]) }
        refuses(deep, ICalendarWriteError(component: "X-17", property: "", reason: "nests deeper than the 16 components a reader follows"))
    }

    @Test("contentLine is the writer's line, unfolded, and lenient where the writer refuses")
    func contentLineIsTheWritersLine() throws {
        let property = ICalendarProperty(name: "ATTENDEE", parameters: [ICalendarParameter("CN", "Li: team ^1")], value: "mailto:li@example.com")
        let written = physicalLines(try ICalendarWriter.write(ICalendarComponent(name: "X", properties: [property])))
        #expect(written[1] == Array(property.contentLine.utf8))
        #expect(ICalendarProperty(name: "SUMMARY", value: "two\nlines").contentLine == "SUMMARY:two\nlines")
    }

    @Test("unmodelled text splits lines as the reader does: a lone CR in a value ends no line, and reads as U+FFFD like any CONTROL character")
    func unmodelledCarriageReturn() throws {
        let property = ICalendarProperty(name: "X-NOTE", parameters: [ICalendarParameter("X-P", "a\rb\nc")], value: "one\rtwo")
        let text = ICalendarComponent.unmodelledText(properties: [property], components: [])
        #expect(text == "X-NOTE;X-P=a\rb^nc:one\rtwo\r\n")
        let mended = ICalendarProperty(name: "X-NOTE", parameters: [ICalendarParameter("X-P", "a\u{FFFD}b\nc")], value: "one\u{FFFD}two")
        #expect(try ICalendarComponent.readUnmodelled(text).properties == [mended])
    }

    // CONTROL characters are left out of the pieces: the writer refuses them
    // (pinned in `refusals`), as no reader could give them back.
    @Test("any component tree reads back equal from what the writer wrote (random trees, fixed seed)")
    func roundTrip() throws {
        var random = LinearCongruential(state: 20_261_201)
        let nameBytes = Array("ABCDEFXYZabcxyz0189-_")
        let valuePieces = ["a", "Z", "0", " ", "\t", ";", ":", ",", "\"", "^", "'", "\\", "n", "=", "^n", "国", "庆", "😀", "é", "e\u{301}",
                           "\u{FFFD}", "👩‍👩‍👧", String(repeating: "long ", count: 20)]
        func name() -> String {
            // Bounded: a name that BEGIN or END would take is drawn again, and at most a few times.
            for _ in 0..<100 {
                let drawn = String((0..<(1 + random.below(8))).map { _ in random.pick(nameBytes) }).uppercased()
                if drawn != "BEGIN" && drawn != "END" { return drawn }
            }
            return "X-NAME"
        }
        func text(lineBreaks: Bool) -> String {
            var text = ""
            for _ in 0..<random.below(40) { text += random.pick(valuePieces) }
            if lineBreaks, random.below(4) == 0 { text += "\n" + text }
            return text
        }
        func component(depth: Int) -> ICalendarComponent {
            let properties = (0..<random.below(7)).map { _ in
                ICalendarProperty(name: name(), parameters: (0..<random.below(4)).map { _ in
                    ICalendarParameter(name: name(), values: (0..<(1 + random.below(3))).map { _ in text(lineBreaks: true) })
                }, value: text(lineBreaks: false))
            }
            let children = depth < 4 ? (0..<random.below(4)).map { _ in component(depth: depth + 1) } : []
            return ICalendarComponent(name: name(), properties: properties, components: children)
        }
        for round in 0..<150 {
            let tree = (0..<(1 + random.below(3))).map { _ in component(depth: 1) }
            let bytes = try ICalendarWriter.write(tree)
            for line in physicalLines(bytes) {
                #expect(line.count <= 75, "round \(round)")
                #expect(String(validating: line, as: UTF8.self) != nil, "round \(round)")
            }
            let reading = try ICalendarReader().read(bytes)
            #expect(reading.components == tree, "round \(round)")
            #expect(reading.problems.isEmpty, "round \(round)")
            #expect(reading.warnings.isEmpty, "round \(round)")
        }
    }
}
