import CalendarModel
import Foundation
import FuzzSupport
import ICalendar

@_cdecl("fuzz_icalendar_main")
func main(_ argc: Int32, _ argv: FuzzInput.Arguments) -> Int32 { FuzzInput.run(argc, argv, check) }

/// iCalendar text: reading never crashes; every problem and warning names a
/// line inside the input; what was read, written, reads back as the same
/// components with nothing new to complain about, and writing that again
/// gives the same bytes. Each VCALENDAR read as Chime's items names only
/// lines inside the input, its items export as a VCALENDAR that reads with
/// no problems and exports again the same, and read again the same items.
private let check: FuzzInput.Check = { data, size in
    let bytes = FuzzInput.bytes(data, size)
    let reader = ICalendarReader()
    let lines = 1...FuzzInput.lineCount(bytes)
    do throws(ICalendarReadError) {
        let reading = try reader.read(bytes)
        for problem in reading.problems {
            FuzzInput.require(lines.contains(problem.line), "problem at line \(problem.line), outside the input: \(problem)")
        }
        for warning in reading.warnings {
            FuzzInput.require(lines.contains(warning.line), "warning at line \(warning.line), outside the input: \(warning)")
        }
        for calendar in reading.components where calendar.name == "VCALENDAR" { checkItems(calendar, lines: lines) }
        guard let written = try? ICalendarWriter.write(reading.components) else { return 0 }
        do throws(ICalendarReadError) {
            let again = try reader.read(written)
            FuzzInput.require(again.components == reading.components,
                              "written text reads back different:\n\(String(decoding: written, as: UTF8.self))")
            FuzzInput.require(again.problems.isEmpty, "written text has problems: \(again.problems)")
            let rewritten = try? ICalendarWriter.write(again.components)
            FuzzInput.require(rewritten == written, "writing again gives other bytes")
        } catch {
            FuzzInput.require(false, "written text is refused: \(error)")
        }
    } catch {
        FuzzInput.require(!error.reason.isEmpty, "a refusal without a reason")
        FuzzInput.require(error.line == 0 || lines.contains(error.line), "refusal at line \(error.line), outside the input: \(error)")
    }
    return 0
}

private let calendarIdentifier = ItemIdentifier("fedcba9876543210fedcba9876543210")!
/// 2026-12-02T00:00:00Z, the DTSTAMP of every export.
private let stamp = Date(timeIntervalSince1970: 1_796_169_600)

private func checkItems(_ calendar: ICalendarComponent, lines: ClosedRange<Int>) {
    let first = ICalendarItems.read(calendar: calendar, into: calendarIdentifier, zones: IANAZoneResolver())
    for problem in first.problems {
        FuzzInput.require(lines.contains(problem.line), "item problem at line \(problem.line), outside the input: \(problem)")
    }
    // A read takes DTSTAMP for a missing LAST-MODIFIED and the next export
    // writes it, so items are a fixed point from the second read on.
    var items = first
    var exports: [ICalendarComponent] = []
    for round in 1...3 {
        let exported = ICalendarItems.components(events: items.events, reminders: items.reminders, stamp: stamp)
        let again = ICalendarItems.read(calendar: exported, into: calendarIdentifier, zones: IANAZoneResolver())
        FuzzInput.require(again.problems.isEmpty, "exported items have problems: \(again.problems)")
        if round == 3 {
            FuzzInput.require(exported == exports[1], "exporting the items read back gives other components:\n\(exports[1])\n\(exported)")
            FuzzInput.require(again.events == items.events, "exported events read back different:\n\(items.events)\n\(again.events)")
            FuzzInput.require(again.reminders == items.reminders, "exported reminders read back different:\n\(items.reminders)\n\(again.reminders)")
        }
        exports.append(exported)
        items = again
    }
}
