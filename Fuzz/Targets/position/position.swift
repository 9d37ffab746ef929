import FuzzSupport
import Geofencing

@_cdecl("fuzz_position_main")
func main(_ argc: Int32, _ argv: FuzzInput.Arguments) -> Int32 { FuzzInput.run(argc, argv, check) }

/// Position lines (plain pairs, geo: URIs, gpsd JSON): never a crash; a fix
/// is on the globe with a finite, non-negative accuracy and a finite time;
/// a refusal says why in words and names no line (the line reader adds it).
private let check: FuzzInput.Check = { data, size in
    let text = FuzzInput.text(data, size)
    do throws(PositionLineError) {
        if case .fix(let fix) = try PositionLine.parse(text, receivedAt: 1_764_633_600) {
            let point = fix.position
            FuzzInput.require((-90...90).contains(point.latitude) && (-180...180).contains(point.longitude), "a fix off the globe: \(fix)")
            FuzzInput.require(fix.accuracy.map { $0.isFinite && $0 >= 0 } ?? true, "an accuracy that is not one: \(fix)")
            FuzzInput.require(fix.time.isFinite, "a time that is not one: \(fix)")
        }
    } catch {
        FuzzInput.require(!error.message.isEmpty && error.line == nil, "a refusal without words or with a line: \(error)")
    }
    return 0
}
