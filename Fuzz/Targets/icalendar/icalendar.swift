import FuzzSupport
import ICalendar

@_cdecl("fuzz_icalendar_main")
func main(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, check)
}

/// iCalendar text: reading never crashes; every problem and warning names a
/// line inside the input; what was read, written, reads back as the same
/// components with nothing new to complain about, and writing that again
/// gives the same bytes.
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
