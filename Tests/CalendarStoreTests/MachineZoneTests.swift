import CalendarModel
import CalendarStore
import TestSupport
import Testing

@Suite("The machine's time zone")
struct MachineZoneTests {
    @Test("one open store reads a floating time in the zone it is told: a zone change needs no reopening")
    func zoneChange() throws {
        let fixture = try StoreFixture()
        let store = try fixture.open()
        let nine = try StoreFixture.time("2026-12-01T09:00:00")
        #expect(try store.occurrence(at: .floating(nine)).instant == 1_796_086_800) // 2026-12-01T09:00:00+08:00
        store.machineTimeZone = .utc
        #expect(try store.occurrence(at: .floating(nine)).instant == 1_796_115_600) // 2026-12-01T09:00:00Z
    }
}
