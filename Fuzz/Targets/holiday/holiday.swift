import CalendarModel
import FuzzSupport
import HolidayCalendars

@_cdecl("fuzz_holiday_main")
func main(_ argc: Int32, _ argv: FuzzInput.Arguments) -> Int32 { FuzzInput.run(argc, argv, check) }

/// Holiday files in the three formats, chosen by the input's first
/// character as a reader would guess it (`{` JSON, `B` iCalendar, else the
/// compact format): never a crash; a refusal names the file and a line
/// inside the input; the compact format written from what was read (when
/// its names are single words) reads back with the same regions, years and
/// entries.
private let check: FuzzInput.Check = { data, size in
    let bytes = FuzzInput.bytes(data, size)
    let format: HolidayFileFormat = switch bytes.first {
    case UInt8(ascii: "{"): .holidayCNJSON
    case UInt8(ascii: "B"): .holidayCNICS
    default: .compact
    }
    do throws(HolidayDataError) {
        let years = try HolidayData.parse(bytes, format: format, file: "input", year: format == .holidayCNICS ? 2026 : nil)
        // Names that are not one token (JSON's and ICS's may hold spaces) are
        // refused by the writer, as they would not read back.
        let written: String
        do throws(CompactHolidayFormat.Unwritable) {
            written = try CompactHolidayFormat.write(years)
        } catch {
            FuzzInput.require(years.contains { $0.entries.contains { !CompactHolidayFormat.canWrite(name: $0.name) } }
                                  || years.contains { !$0.notices.isEmpty },
                              "the writer refused a year it can write: \(error)")
            return 0
        }
        do throws(HolidayDataError) {
            let again = try CompactHolidayFormat.parse(written, file: "written")
            // The compact text holds the dates and names; where they came from (source, hash, notices) is the reader's.
            FuzzInput.require(again.map(\.region) == years.map(\.region) && again.map(\.year) == years.map(\.year)
                                  && again.map(\.entries) == years.map(\.entries),
                              "the compact text written from \(format) reads back different:\n\(written)")
        } catch {
            FuzzInput.require(false, "the compact text written from \(format) is refused: \(error)\n\(written)")
        }
    } catch {
        FuzzInput.require(error.file == "input" && !error.reason.isEmpty, "a refusal without the file or a reason: \(error)")
        if case .line(let line) = error.location {
            FuzzInput.require((1...FuzzInput.lineCount(bytes)).contains(line), "line \(line) is outside the input: \(error)")
        }
    }
    return 0
}
