import AlarmScheduler
import CalendarModel
import CalendarStore
import DaemonControl
import Foundation
import Geofencing
import SeededRandom
#if canImport(Glibc)
import Glibc
#endif

/// Issue #7's geofence figures: (a) one fix against 10,000 geofences with
/// the spatial index, beside a scan of every geofence in the same run;
/// (b) a 100,000-line stream of mixed position lines read and applied;
/// (c) the same number of gpsd reports piped through `chime location
/// --stdin` into a running `chimed` watching 10,000 reminders' geofences,
/// its transitions counted against the pure monitor's over the same fixes.
///
/// The geofences are what a city's worth of reminders looks like, which is
/// the hard case for an index: 95% in a 40 × 40 km area around Berlin,
/// radii 50–500 m (2% of 2–20 km), and 5% anywhere on Earth.
public struct LocationBenchmark {
    let fences: Int
    let fixes: Int
    let scanFixes: Int
    let lines: Int
    let repetitions: Int

    public init(scale: Double = 1, repetitions: Int = 5) {
        fences = max(100, Int(10_000 * scale))
        fixes = max(1000, Int(20_000 * scale))
        scanFixes = max(100, Int(1_000 * scale))
        lines = max(1000, Int(100_000 * scale))
        self.repetitions = repetitions
    }

    /// 2027-01-15T08:30:00Z, where every track starts.
    static let start = 1_800_001_800.0

    func geofences() throws -> [Geofence] {
        var random = SplitMix64(seed: 7)
        return try (0..<fences).map { n in
            let centre: GeoPoint
            if Self.unit(&random) < 0.95 {
                centre = try GeoPoint(latitude: 52.35 + 0.36 * Self.unit(&random), longitude: 13.10 + 0.60 * Self.unit(&random))
            } else {
                centre = try GeoPoint(latitude: asin(2 * Self.unit(&random) - 1) * 180 / .pi, longitude: 360 * Self.unit(&random) - 180)
            }
            let radius = Self.unit(&random) < 0.02 ? 2000 * pow(10, Self.unit(&random)) : 50 * pow(10, Self.unit(&random))
            let digits = String(n, radix: 16)
            let identifier = ItemIdentifier(String(repeating: "0", count: 32 - digits.count) + digits)!
            return try Geofence(identifier: identifier, centre: centre, radius: radius,
                                proximity: n % 2 == 0 ? .enter : .leave, dwellSeconds: n % 10 == 0 ? 60 : 0)
        }
    }

    /// A walk (or a ride: up to 15 m/s) across the city, one fix a second,
    /// with an accuracy of 3–60 m.
    func track(count: Int, seed: UInt64) throws -> [Fix] {
        var random = SplitMix64(seed: seed)
        var latitude = 52.52, longitude = 13.40, heading = 0.0
        var result: [Fix] = []
        result.reserveCapacity(count)
        for step in 0..<count {
            heading += (Self.unit(&random) - 0.5) * 0.6
            let metres = 15 * Self.unit(&random)
            latitude = min(52.70, max(52.36, latitude + metres * cos(heading) / 111_195))
            longitude = min(13.69, max(13.11, longitude + metres * sin(heading) / 67_700))
            result.append(try Fix(latitude: latitude, longitude: longitude, accuracy: 3 + 57 * Self.unit(&random),
                                  time: Self.start + Double(step)))
        }
        return result
    }

    static func unit(_ random: inout SplitMix64) -> Double { Double(random.next() >> 11) / Double(UInt64(1) << 53) }

    static func microseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
    }

    func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

    public func run(report: (String) -> Void) throws {
        let geofences = try geofences()
        report("location benchmark — \(fences) geofences (95% in a 40 × 40 km city, radii 50 m–20 km), medians of \(repetitions) runs")
        let clock = ContinuousClock()

        // The first fix places every unknown geofence; the figures are for
        // the steady state after it.
        var warm = GeofenceMonitor(geofences: geofences)
        let first = try track(count: 1, seed: 1)
        _ = warm.process(first[0], now: first[0].time)
        var warmScan = GeofenceMonitor(geofences: geofences, usesIndex: false)
        _ = warmScan.process(first[0], now: first[0].time)

        let walk = Array(try track(count: fixes + 1, seed: 1).dropFirst())
        var indexed: [Double] = [], perFix: [Double] = [], transitions = 0
        for _ in 0..<repetitions {
            var monitor = warm
            monitor.add(geofences[0])  // the copy happens here, not in the timed loop
            perFix.removeAll(keepingCapacity: true)
            transitions = 0
            let total = clock.measure {
                for fix in walk {
                    let began = clock.now
                    transitions += monitor.process(fix, now: fix.time).count
                    perFix.append(Self.microseconds(clock.now - began))
                }
            }
            indexed.append(Self.microseconds(total) / Double(walk.count))
        }
        perFix.sort()
        var scanned: [Double] = []
        let scanWalk = Array(walk.prefix(scanFixes))
        for _ in 0..<repetitions {
            var monitor = warmScan
            monitor.add(geofences[0])
            let total = clock.measure {
                for fix in scanWalk { _ = monitor.process(fix, now: fix.time) }
            }
            scanned.append(Self.microseconds(total) / Double(scanWalk.count))
        }
        report(String(format: "one fix, spatial index           %8.2f µs    target ≤ 100 µs  (%d fixes a run; per fix: median %.2f µs, p99 %.2f µs, max %.1f µs; %d firings)",
                      median(indexed), walk.count, perFix[perFix.count / 2], perFix[perFix.count * 99 / 100], perFix.last ?? 0, transitions))
        report(String(format: "one fix, scanning every geofence %8.2f µs                     (%d fixes a run; %.0fx the index)",
                      median(scanned), scanWalk.count, median(scanned) / max(median(indexed), 1e-9)))

        let stream = try positionLines()
        var rates: [Double] = [], parseRates: [Double] = []
        var counts = (fixes: 0, skipped: 0, refused: 0, firings: 0)
        for _ in 0..<repetitions {
            var monitor = warm
            monitor.add(geofences[0])
            counts = (0, 0, 0, 0)
            let total = clock.measure {
                for (number, line) in stream.lines.enumerated() {
                    let received = stream.received[number]
                    do {
                        switch try PositionLine.parse(line, receivedAt: received) {
                        case .fix(let fix):
                            counts.fixes += 1
                            counts.firings += monitor.process(fix, now: received).count
                        case .skipped:
                            counts.skipped += 1
                        }
                    } catch {
                        counts.refused += 1
                    }
                }
            }
            rates.append(Double(stream.lines.count) / (Self.microseconds(total) / 1e6))
            let parsing = clock.measure {
                for (number, line) in stream.lines.enumerated() { _ = try? PositionLine.parse(line, receivedAt: stream.received[number]) }
            }
            parseRates.append(Double(stream.lines.count) / (Self.microseconds(parsing) / 1e6))
        }
        report(String(format: "position lines read and applied  %8.0f /s    target ≥ 10,000/s  (%d lines: %d fixes, %d skipped, %d refused; %d firings; reading alone %.0f /s)",
                      median(rates), stream.lines.count, counts.fixes, counts.skipped, counts.refused, counts.firings, median(parseRates)))
        try runThroughDaemon(geofences: geofences, report: report)
    }

    /// The stream: a walk at 100 fixes a second, written 40% as plain
    /// lines, 20% as geo: URIs, 30% as gpsd TPV reports and 10% as the SKY
    /// reports gpsd sends between them, with one garbled line in a thousand.
    func positionLines() throws -> (lines: [String], received: [Double]) {
        let walk = try track(count: lines, seed: 2)
        var random = SplitMix64(seed: 3)
        var lines: [String] = [], received: [Double] = []
        lines.reserveCapacity(walk.count)
        for (step, fix) in walk.enumerated() {
            let time = Self.start + Double(step) / 100
            let choice = Self.unit(&random)
            let latitude = String(format: "%.7f", fix.position.latitude), longitude = String(format: "%.7f", fix.position.longitude)
            let accuracy = String(format: "%.1f", fix.accuracy ?? 0)
            if choice < 0.001 {
                lines.append("\(latitude) \(longitude) metres")
            } else if choice < 0.4 {
                lines.append("\(latitude) \(longitude) \(accuracy)")
            } else if choice < 0.6 {
                lines.append("geo:\(latitude),\(longitude);u=\(accuracy)")
            } else if choice < 0.9 {
                let seconds = time - Self.start
                let stamp = String(format: "2027-01-15T%02d:%02d:%06.3fZ", 8 + Int(1800 + seconds) / 3600,
                                   Int(1800 + seconds) % 3600 / 60, (1800 + seconds).truncatingRemainder(dividingBy: 60))
                lines.append(#"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"\#(stamp)","ept":0.005,"lat":\#(latitude),"lon":\#(longitude),"alt":41.2,"epx":\#(accuracy),"epy":\#(accuracy),"epv":12.1,"track":211.3,"speed":1.4,"climb":0.0,"eps":3.2}"#)
            } else {
                lines.append(#"{"class":"SKY","device":"/dev/ttyACM0","xdop":0.8,"ydop":1.1,"hdop":1.2,"satellites":[{"PRN":5,"el":31,"az":86,"ss":40,"used":true},{"PRN":13,"el":44,"az":301,"ss":35,"used":true},{"PRN":21,"el":12,"az":150,"ss":0,"used":false}]}"#)
            }
            received.append(time)
        }
        return (lines, received)
    }
}

extension LocationBenchmark {
    /// Part (c), on the release `chime` and `chimed` beside this benchmark.
    ///
    /// The fixes are gpsd TPV reports with their own times, spread over the
    /// 200 s before the run so that none is stale (older than 300 s) when it
    /// arrives; the reference is a monitor over the same geofences (made
    /// from the stored alarms the way the daemon makes them) fed the same
    /// parsed fixes. The time is from spawning `chime location --stdin` on
    /// the file to its exit, which waits for the daemon's reply to the last
    /// batch: every fix has been applied by then.
    func runThroughDaemon(geofences: [Geofence], report: (String) -> Void) throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let chimed = folder.appendingPathComponent("chimed").path, chime = folder.appendingPathComponent("chime").path
        guard FileManager.default.isExecutableFile(atPath: chimed), FileManager.default.isExecutableFile(atPath: chime) else {
            report("through chimed: not run: build chime and chimed beside chime-bench (swift build -c release)")
            return
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chime-location-bench-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let runtime = scratch + "/run", path = scratch + "/data/chime.db"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])

        // One reminder per geofence, its alarm under the geofence's identifier.
        let store = try CalendarStore(path: path, machineTimeZone: .utc)
        let calendar = try store.defaultCalendarForNewReminders().identifier
        for (index, fence) in geofences.enumerated() {
            let place = try StructuredLocation(title: "Place \(index)", latitude: fence.centre.latitude, longitude: fence.centre.longitude,
                                               radius: fence.radius)
            try store.save(Reminder(calendarIdentifier: calendar, title: "Reminder \(index)",
                                    alarms: [Alarm(identifier: fence.identifier, trigger: .proximity(place, fence.proximity))]), commit: false)
        }
        try store.commit()

        // What a re-read costs, in this process: the query, and the geofences made from it.
        let clock = ContinuousClock()
        var reads: [Double] = []
        var alarms: [CalendarStore.LocationAlarm] = []
        for _ in 0..<repetitions {
            reads.append(Self.microseconds(clock.measure { alarms = (try? store.locationAlarms()) ?? [] }) / 1000)
        }
        let reference = try alarms.compactMap { try Geofence(alarm: $0.alarm) }

        // The stream, and the reference run over it.
        let now = Date().timeIntervalSince1970.rounded(.down)
        let walk = try track(count: lines, seed: 4)
        let step = min(0.002, 200 / Double(lines))
        var text = ""
        text.reserveCapacity(lines * 200)
        for (index, fix) in walk.enumerated() {
            let time = now - 200 + Double(index) * step
            let whole = Int64(time.rounded(.down))
            let stamp = TimeZoneRules.utc.localTime(at: whole).description
                + String(format: ".%03dZ", Int(((time - Double(whole)) * 1000).rounded(.down)))
            text += #"{"class":"TPV","device":"/dev/ttyACM0","mode":3,"time":"\#(stamp)","lat":\#(String(format: "%.7f", fix.position.latitude)),"lon":\#(String(format: "%.7f", fix.position.longitude)),"eph":\#(String(format: "%.1f", fix.accuracy ?? 0))}"#
            text += "\n"
        }
        var monitor = GeofenceMonitor(geofences: reference)
        var expected = 0
        for line in text.split(separator: "\n") {
            if case .fix(let fix) = try PositionLine.parse(line, receivedAt: now) { expected += monitor.process(fix, now: fix.time).count }
        }
        let input = scratch + "/stream.txt"
        try text.write(toFile: input, atomically: false, encoding: .utf8)

        let daemon = try DaemonBenchmark.Daemon(executable: chimed, store: path, runtime: runtime)
        defer { daemon.stop() }
        guard daemon.wait(for: "chimed: started", seconds: 60).first != nil else {
            throw ChildProcessError(description: "chimed did not start: \(daemon.lines.mutex.withLock { $0.map(\.line) })")
        }
        let environment = ["XDG_RUNTIME_DIR": runtime, "TZ": "UTC"]
        let began = Date()
        let result = try ChildProcess.run(chime, ["location", "--stdin", "--json", "--db", path], environment: environment, standardInput: input)
        let seconds = Date().timeIntervalSince(began)
        /// The counts of `chime location --json` read here.
        struct Summary: Decodable { var taken, ignored, transitions: Int }
        guard result.status == 0, let summary = try? JSONDecoder().decode(Summary.self, from: Data(result.output)) else {
            throw ChildProcessError(description: "chime location --stdin exited \(result.status): \(String(decoding: result.output, as: UTF8.self))")
        }
        let transitions = summary.transitions
        let fired = daemon.wait(for: "chimed: fired", count: transitions, seconds: 10).count

        // A change to one reminder: the daemon reads every location alarm again.
        let client = DaemonClient(environment: environment)
        var updates: [Double] = []
        var moved = try store.reminder(identifier: try require(alarms.first).item)
        for round in 0..<repetitions {
            let place = try StructuredLocation(title: "Moved", latitude: 52.4 + 0.01 * Double(round), longitude: 13.3, radius: 120)
            moved.alarms = [Alarm(identifier: moved.alarms[0].identifier, trigger: .proximity(place, .enter))]
            try store.save(moved)
            let start = Date()
            _ = try client.send(.changed, timeout: 60)
            updates.append(Date().timeIntervalSince(start) * 1000)
        }

        report("through chimed — \(geofences.count) reminders with a location alarm, \(walk.count) gpsd reports piped into chime location --stdin")
        report(String(format: "fixes absorbed by chimed         %8.0f /s    target ≥ 10,000/s  (%d fixes in %.2f s: %@ taken, %@ ignored)",
                      Double(walk.count) / seconds, walk.count, seconds, "\(summary.taken)", "\(summary.ignored)"))
        report("transitions                      \(transitions) through chimed, \(expected) from the pure monitor"
               + " on the same fixes, \(fired) shown: \(transitions == expected && fired == expected ? "none lost" : "MISMATCH")")
        report(String(format: "geofences read again             %8.1f ms    (%d location alarms: the query alone, median of %d; a change seen by chimed: median %.1f ms)",
                      median(reads), alarms.count, repetitions, median(updates)))
    }
}

private func require<T>(_ value: T?) throws -> T {
    guard let value else { throw ChildProcessError(description: "no location alarm to move") }
    return value
}
