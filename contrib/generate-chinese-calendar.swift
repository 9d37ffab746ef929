// Writes Sources/CalendarModel/ChineseCalendar+Table.swift: the months of
// the Chinese calendar's years 1900 through 2100, as Foundation's Chinese
// calendar (ICU's, computed for China's time) gives them.
//
// Only needed to regenerate, never to build or test (the tests check the
// table against Foundation day by day, and against the `lunardate` package):
//
//   swiftc -O contrib/generate-chinese-calendar.swift -o .build/generate-chinese-calendar
//   .build/generate-chinese-calendar > Sources/CalendarModel/ChineseCalendar+Table.swift
//
// The same toolchain writes the same bytes.
import Foundation

var chinese = Calendar(identifier: .chinese)
chinese.timeZone = TimeZone(identifier: "Asia/Shanghai")!
var gregorian = Calendar(identifier: .gregorian)
gregorian.timeZone = chinese.timeZone

let firstYear = 1900, lastYear = 2100

struct Month { var number: Int; var isLeap: Bool; var start: Date }

/// Each year's months in order, from the new year (month 1, day 1) that
/// falls in Gregorian `year`.
var entries: [UInt32] = []
var day = gregorian.date(from: DateComponents(year: firstYear, month: 1, day: 1))!
let end = gregorian.date(from: DateComponents(year: lastYear + 1, month: 3, day: 1))!
var months: [Month] = []
while day < end {
    // A month begins where the month changes. (Not where the day is 1: on
    // the first day of a month whose new moon falls just before midnight,
    // 2057-09-28 and 2097-08-07, ICU gives the new month with day 0.)
    let parts = chinese.dateComponents([.month, .isLeapMonth], from: day)
    if months.last.map({ $0.number != parts.month! || $0.isLeap != parts.isLeapMonth! }) ?? (chinese.component(.day, from: day) == 1) {
        months.append(Month(number: parts.month!, isLeap: parts.isLeapMonth!, start: day))
    }
    day = gregorian.date(byAdding: .day, value: 1, to: day)!
}
for year in firstYear...lastYear {
    guard let first = months.firstIndex(where: { $0.number == 1 && !$0.isLeap && gregorian.component(.year, from: $0.start) == year }) else {
        fatalError("no new year in \(year)")
    }
    var index = first + 1
    while !(months[index].number == 1 && !months[index].isLeap) { index += 1 }
    let year_months = Array(months[first...index])
    let january1 = gregorian.date(from: DateComponents(year: year, month: 1, day: 1))!
    let offset = gregorian.dateComponents([.day], from: january1, to: year_months[0].start).day!
    var lengths: UInt32 = 0
    var leap: UInt32 = 0
    for (i, month) in year_months.dropLast().enumerated() {
        let length = gregorian.dateComponents([.day], from: month.start, to: year_months[i + 1].start).day!
        precondition(length == 29 || length == 30, "month of \(length) days in \(year)")
        if length == 30 { lengths |= 1 << UInt32(i) }
        if month.isLeap { leap = UInt32(month.number) }
    }
    precondition(year_months.count - 1 == (leap == 0 ? 12 : 13))
    precondition(offset >= 0 && offset < 64)
    entries.append(UInt32(offset) << 17 | leap << 13 | lengths)
}

print("""
// Written by contrib/generate-chinese-calendar.swift from Foundation's Chinese
// calendar; do not edit. See `ChineseCalendar` for what the numbers hold.

extension ChineseCalendar {
    /// The first and the last year the table holds.
    public static let firstYear = \(firstYear)
    public static let lastYear = \(lastYear)

    /// One number a year, \(firstYear) through \(lastYear): bits 17 and up, the
    /// days from January 1 to the new year; bits 13–16, the leap month (0:
    /// none); bit i (0–12), whether the year's (i+1)th month has 30 days.
    static let years: [UInt32] = [
""")
for start in stride(from: 0, to: entries.count, by: 8) {
    let line = entries[start..<min(start + 8, entries.count)].map { "0x" + String($0, radix: 16, uppercase: true).leftPadded(6) }
    print("        " + line.joined(separator: ", ") + ",")
}
print("""
    ]
}
""")

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
