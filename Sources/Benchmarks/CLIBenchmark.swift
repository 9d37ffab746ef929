import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Issue #17's start-up figures: a cold `chime` process per command beside
/// its peer, `chime-bench-peer` (Foundation's hello world, `print(Date())`,
/// built in release mode by this package), run alternately pair by pair in
/// one run, so that a busy moment of the machine weighs on both. Per
/// command: the median over the pairs of chime's CPU time (user + system,
/// from wait4) divided by the peer's, the same for wall time, and each
/// side's largest resident set.
public struct CLIBenchmark {
    let pairs: Int

    public init(pairs: Int = 41) {
        self.pairs = max(1, pairs)
    }

    /// A command measured, and the ratio of CPU and of wall time to the peer it is held to.
    struct Case {
        let label: String
        let arguments: [String]
        let target: Double
    }

    static let cases = [
        Case(label: "workday", arguments: ["workday"], target: 2),
        Case(label: "next --count 1", arguments: ["next", "--count", "1"], target: 2),
        Case(label: "status", arguments: ["status"], target: 2),
        Case(label: "add reminder", arguments: ["add", "reminder", "Benchmark", "--due", "tomorrow 09:00"], target: 2.5),
    ]

    public func run(report: (String) -> Void) throws {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
        let chime = folder + "/chime", peer = folder + "/chime-bench-peer"
        for executable in [chime, peer] where !FileManager.default.isExecutableFile(atPath: executable) {
            throw BenchmarkError(description: "cli benchmark: no \(executable): build it beside chime-bench "
                          + "(swift build -c release --product chime; swift build -c release --product chime-bench-peer)")
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chime-cli-bench-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: scratch + "/run", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        // No daemon listens in this runtime folder: `add` finds none to tell, as on a machine without chimed.
        let environment = ["XDG_DATA_HOME": scratch + "/data", "HOME": scratch, "XDG_RUNTIME_DIR": scratch + "/run",
                           "PATH": "/usr/bin:/bin"]
        // The store as a person has it after a first use: created at its default location, migrated, one reminder.
        let first = try ChildProcess.measure(chime, ["add", "reminder", "First", "--due", "tomorrow 08:00"], environment: environment)
        guard first.status == 0 else { throw BenchmarkError(description: "chime add reminder: exit status \(first.status)") }

        report("cli benchmark — cold chime processes beside chime-bench-peer (Foundation's print(Date()), release), "
               + "\(pairs) pairs each, run alternately; medians of the per-pair ratios")
        report("command            CPU chime    peer   ratio  target     wall chime    peer   ratio     max RSS chime   peer")
        var missed: [String] = []
        for test in Self.cases {
            var cpu: [Double] = [], wall: [Double] = [], chimeCPU: [Double] = [], peerCPU: [Double] = []
            var chimeWall: [Double] = [], peerWall: [Double] = []
            var chimeResident = 0, peerResident = 0
            for pair in 0..<pairs {
                // Alternate which goes first, so that neither always runs on the caches the other warmed.
                var chimeRun: ChildProcess.Measurement?, peerRun: ChildProcess.Measurement?
                for side in pair % 2 == 0 ? [false, true] : [true, false] {
                    if side {
                        chimeRun = try ChildProcess.measure(chime, test.arguments, environment: environment)
                    } else {
                        peerRun = try ChildProcess.measure(peer, [], environment: environment)
                    }
                }
                guard let chimeRun, let peerRun else { continue }
                // `chime workday` answers 1 on a day off.
                guard chimeRun.status == 0 || (test.label == "workday" && chimeRun.status == 1), peerRun.status == 0 else {
                    throw BenchmarkError(description: "chime \(test.arguments.joined(separator: " ")): exit status \(chimeRun.status); peer: \(peerRun.status)")
                }
                cpu.append(chimeRun.cpuMilliseconds / max(peerRun.cpuMilliseconds, 0.001))
                wall.append(chimeRun.wallMilliseconds / max(peerRun.wallMilliseconds, 0.001))
                chimeCPU.append(chimeRun.cpuMilliseconds)
                peerCPU.append(peerRun.cpuMilliseconds)
                chimeWall.append(chimeRun.wallMilliseconds)
                peerWall.append(peerRun.wallMilliseconds)
                chimeResident = max(chimeResident, chimeRun.maximumResidentKilobytes)
                peerResident = max(peerResident, peerRun.maximumResidentKilobytes)
            }
            let cpuRatio = Self.median(cpu), wallRatio = Self.median(wall)
            if cpuRatio > test.target || wallRatio > test.target { missed.append(test.label) }
            report(test.label.padding(toLength: 18, withPad: " ", startingAt: 0) + String(format: " %6.1f ms %6.1f ms %6.2f×  ≤ %.1f×   %6.1f ms %6.1f ms %6.2f×     %6.1f MB %6.1f MB",
                          Self.median(chimeCPU), Self.median(peerCPU), cpuRatio, test.target,
                          Self.median(chimeWall), Self.median(peerWall), wallRatio,
                          Double(chimeResident) / 1024, Double(peerResident) / 1024))
        }
        report(missed.isEmpty ? "every command within its target (CPU and wall)"
               : "over target: \(missed.joined(separator: ", "))")
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
