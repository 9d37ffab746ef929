import CalendarModel

/// Why a holiday data file was refused. A refused file gives nothing: no
/// year of it is used. The message names the file, the entry (a line for the
/// text formats, a date or `days[i]` for JSON) and the reason:
///
///     2021.json: 2021-09-22: a makeup workday on a Wednesday, which is a workday anyway
///     cn.txt:14: '02-30' is not a date: February has 28 days in 2021
public struct HolidayDataError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The file cannot be read, or its bytes are not UTF-8.
        case unreadable
        /// The syntax of JSON, ICS or the compact format is broken.
        case syntax
        /// A keyword, status or summary that the format does not have.
        case unknownKeyword
        /// Text in a date's place that is not a date, or a day that does not exist.
        case invalidDate
        /// A range whose end comes before its start.
        case invertedRange
        /// An entry without a holiday name.
        case missingName
        /// A date outside its notice year (the previous December is allowed).
        case outOfRange
        /// A makeup workday on Monday to Friday, which is worked anyway: a
        /// wrong date, most likely.
        case makeupOnWeekday
        /// A date given twice by one notice.
        case duplicateDate
        /// The year a file states disagrees with the one it must hold (its
        /// name, or the caller's), or a year appears twice.
        case yearMismatch
        /// The year has no days at all: its notice is not out yet. Such a
        /// year must fall back to the ordinary week *and say so*, never pass
        /// for a year of plain weeks.
        case noData
    }

    /// Where in the file.
    public enum Location: Hashable, Sendable {
        /// The file as a whole.
        case file
        /// A line, counted from 1 (for ICS, the physical line where a folded line starts).
        case line(Int)
        /// A JSON entry, named by its date.
        case date(CivilDate)
        /// A JSON entry whose date cannot be named: its index in `days`.
        case entry(Int)
    }

    /// The file as the caller named it (a path, a URL, `cn.txt`).
    public var file: String
    public var location: Location
    public var kind: Kind
    /// What was wrong, in words.
    public var reason: String
    /// The year concerned, when known (always set for `.noData` when the
    /// year is known).
    public var year: Int?

    public var description: String {
        switch location {
        case .file: "\(file): \(reason)"
        case .line(let line): "\(file):\(line): \(reason)"
        case .date(let date): "\(file): \(date): \(reason)"
        case .entry(let index): "\(file): days[\(index)]: \(reason)"
        }
    }
}
