import CalendarModel
import Testing

@Suite struct ItemTimeTests {
    static func wall(_ text: String) -> LocalDateTime { LocalDateTime(parsing: text)! }

    @Test("adding days keeps the wall-clock time and the zone; zero days keeps a fold's second pass, a move names the first")
    func addingDays() {
        // 2026-11-01T01:30 happens twice in New York; .later is the second pass, -05:00.
        let second = ItemTime.zoned(Self.wall("2026-11-01T01:30:00"), zone: "America/New_York", fold: .later)
        #expect(second.adding(days: 0) == second)
        #expect(second.adding(days: 7) == .zoned(Self.wall("2026-11-08T01:30:00"), zone: "America/New_York", fold: .earlier))
        #expect(ItemTime.date(CivilDate(parsing: "2026-12-31")!).adding(days: 1) == .date(CivilDate(parsing: "2027-01-01")!))
        #expect(ItemTime.floating(Self.wall("2027-03-01T09:00:00")).adding(days: -1) == .floating(Self.wall("2027-02-28T09:00:00")))
    }
}
