import CalendarModel
import CommandLineInterface
import Foundation
import Testing

/// A title is text, never terminal control: listings and errors show its
/// control characters escaped, one line per item, while JSON keeps the
/// exact text.
@Suite("chime's text output escapes control characters")
struct TerminalOutputTests {
    /// A newline and a forged daemon line, an escape sequence, a carriage
    /// return, a C1 CSI, a right-to-left override and a line separator.
    static let hostile = "Tea\nchimed: fired 2026-12-01T09:00:00Z FORGED\u{1B}[31m\r\u{9B}2J\u{202E}gnp.exe\u{2028}end"
    static let shown = #"Tea\nchimed: fired 2026-12-01T09:00:00Z FORGED\x1b[31m\r\u009b2J\u202egnp.exe\u2028end"#

    /// No line carries a character a terminal would act on.
    static func isInert(_ line: String) -> Bool {
        !line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
            || [0x2028, 0x2029, 0x202E].contains($0.value) }
    }

    @Test("list, agenda and show print a hostile title escaped on the item's own line; --json keeps it exactly")
    func listsAndShows() throws {
        let scratch = Scratch()
        let id = scratch.add("reminder", Self.hostile, "--due", "2026-12-01T09:00", "--notes", "line one\nline two")
        let list = scratch.ok("list", "reminders").output
        #expect(list == ["Tue 12-01 09:00        \(Self.shown)  [\(id)]"])
        let agenda = scratch.ok("agenda").output
        #expect(agenda.contains("Tue 12-01 09:00        \(Self.shown)  [\(id)]"), "\(agenda)")
        let show = scratch.ok("show", id).output
        #expect(show.allSatisfy(Self.isInert), "\(show)")
        #expect(show.contains { $0.hasSuffix(Self.shown) }, "\(show)")
        // The notes' own line breaks are theirs: a line each, under the row.
        #expect(show.contains { $0.hasSuffix("Notes:    line one") } && show.contains { $0 == "          line two" }, "\(show)")
        for line in list + agenda { #expect(Self.isInert(line)) }

        let json = scratch.ok("show", id, "--json")
        #expect(try json.json()["title"] as? String == Self.hostile)
        #expect(try json.json()["notes"] as? String == "line one\nline two")
        // The document itself carries no raw C1, override or separator either: JSON's \u escapes stand for them.
        #expect(json.text.split(separator: "\n").allSatisfy { Self.isInert(String($0)) })
    }

    @Test("an error that quotes an argument escapes it")
    func errorsEscapeArguments() {
        let scratch = Scratch()
        let run = scratch.run("show", "\u{1B}]0;owned\u{7}")
        #expect(run.status == 65 || run.status == 66)
        #expect(run.errors.count == 1 && run.errors.allSatisfy(Self.isInert), "\(run.errors)")
        #expect(run.errors.first?.contains(#"\x1b]0;owned\x07"#) == true, "\(run.errors)")
    }
}
