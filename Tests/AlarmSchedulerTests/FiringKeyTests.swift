@testable import AlarmScheduler
import CalendarModel
import Testing

@Suite("A firing's key")
struct FiringKeyTests {
    static let alarm = ItemIdentifier("0123456789abcdef0123456789abcdef")!

    @Test("each kind of key is written as the log and the socket hold it, and read back as itself",
          arguments: [
              // 2026-12-01T08:50:00 on the wall clock, in local seconds.
              ("0123456789abcdef0123456789abcdef@1796115000", FiringKey(alarm: alarm, occurrence: .scheduled(1_796_115_000))),
              ("0123456789abcdef0123456789abcdef@-86400", FiringKey(alarm: alarm, occurrence: .scheduled(-86_400))),
              ("0123456789abcdef0123456789abcdef@once", FiringKey(alarm: alarm, occurrence: .once)),
              // Left at 2026-12-01T09:32:00Z.
              ("0123456789abcdef0123456789abcdef@leave@1796117520", FiringKey(alarm: alarm, occurrence: .crossing(.leave, 1_796_117_520))),
              ("0123456789abcdef0123456789abcdef@enter@1796117520", FiringKey(alarm: alarm, occurrence: .crossing(.enter, 1_796_117_520))),
              // Snoozed until 2026-12-01T09:00:00Z.
              ("0123456789abcdef0123456789abcdef@1796115000~1796115600",
               FiringKey(alarm: alarm, occurrence: .scheduled(1_796_115_000), snoozedUntil: 1_796_115_600)),
              ("0123456789abcdef0123456789abcdef@leave@1796117520~1796118120",
               FiringKey(alarm: alarm, occurrence: .crossing(.leave, 1_796_117_520), snoozedUntil: 1_796_118_120)),
          ])
    func roundTrip(text: String, key: FiringKey) throws {
        #expect(key.description == text)
        #expect(FiringKey(text) == key)
        #expect(FiringKey(text)?.description == text)
    }

    @Test("a snoozed key's root is the key it was snoozed from; a crossing's instant is its fix's second")
    func rootAndCrossing() {
        let key = FiringKey(alarm: Self.alarm, occurrence: .crossing(.leave, 1_796_117_520))
        #expect(key.snoozed(until: 1_796_118_120).root == key)
        #expect(key.root == key)
        #expect(key.crossingInstant == 1_796_117_520 && key.isCrossing)
        #expect(FiringKey(alarm: Self.alarm, occurrence: .once).crossingInstant == nil)
    }

    @Test("text that is not a key is refused, also what would read back differently",
          arguments: ["", "@1", "0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef@",
                      "0123456789abcdef0123456789abcdef@+5", "0123456789abcdef0123456789abcdef@007",
                      "0123456789abcdef0123456789abcdef@twice", "0123456789abcdef0123456789abcdef@stay@5",
                      "0123456789abcdef0123456789abcdef@leave@", "0123456789abcdef0123456789abcdef@leave@5@6",
                      "0123456789abcdef0123456789abcdef@5~", "0123456789abcdef0123456789abcdef@5~6~7",
                      "0123456789ABCDEF0123456789ABCDEF@5", "holiday-data-cn@2026", "nonesuch@1"])
    func rejects(text: String) {
        #expect(FiringKey(text) == nil)
    }
}
