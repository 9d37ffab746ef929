import SystemCalls
#if canImport(Glibc)
import Glibc
#endif

/// Spawning a program, or its pipe, failed.
struct ChildProcessError: Error, CustomStringConvertible {
    var description: String
}

/// Runs a program as a shell would, with posix_spawn and waitpid, and
/// collects its standard output. Foundation's `Process` is not used for
/// timing: on this toolchain its `waitUntilExit` alone adds about 50 ms.
enum ChildProcess {
    /// `standardInput` names a file to read standard input from.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String],
                    standardInput: String? = nil) throws -> (status: Int32, output: [UInt8]) {
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw ChildProcessError(description: "pipe: errno \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        if let standardInput { posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0) }
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addclose(&actions, pipe[1])
        let spawned = Result { try spawn(executable, arguments, environment: environment, actions: &actions) }
        close(pipe[1])
        defer { close(pipe[0]) }
        let pid = try spawned.get()
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = SystemError.retryingEINTR { read(pipe[0], &buffer, buffer.count) }
            guard count > 0 else { break }
            output += buffer[0..<count]
        }
        var status: Int32 = 0
        _ = SystemError.retryingEINTR { waitpid(pid, &status, 0) }
        return (status, output)
    }

    /// What one run of a program cost, as wait4 reports it.
    struct Measurement {
        /// The exit status (the signal's number plus 128 if one ended it).
        var status: Int32
        /// User plus system time.
        var cpuMilliseconds: Double
        /// Spawn to reaped.
        var wallMilliseconds: Double
        var maximumResidentKilobytes: Int
    }

    /// Runs a program with its output thrown away (to /dev/null, as a
    /// terminal's would cost the same on both sides of a comparison) and
    /// measures it. With fork, not posix_spawn: glibc's posix_spawn clones
    /// with CLONE_VM, and the kernel then records this process's resident
    /// set as the child's largest when the child execs, which hides any
    /// child smaller than the benchmark; a forked copy holds only the pages
    /// this process wrote.
    static func measure(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> Measurement {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard null >= 0 else { throw ChildProcessError(description: "/dev/null: errno \(errno)") }
        defer { close(null) }
        return try withCArrays(executable, arguments, environment) { argv, envp in
            let clock = ContinuousClock()
            let start = clock.now
            let pid = fork()
            if pid == 0 {
                // The child of a process that may have threads: only async-signal-safe calls until exec.
                dup2(null, 0)
                dup2(null, 1)
                dup2(null, 2)
                execve(argv[0]!, argv, envp)
                _exit(127)
            }
            guard pid > 0 else { throw ChildProcessError(description: "fork: errno \(errno)") }
            var status: Int32 = 0
            var usage = rusage()
            _ = SystemError.retryingEINTR { wait4(pid, &status, 0, &usage) }
            let elapsed = start.duration(to: clock.now)
            func milliseconds(_ time: timeval) -> Double { Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000 }
            let exited = status & 0x7f == 0
            return Measurement(status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
                               cpuMilliseconds: milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime),
                               wallMilliseconds: Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15,
                               maximumResidentKilobytes: usage.ru_maxrss)
        }
    }

    private static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                              actions: inout posix_spawn_file_actions_t) throws -> pid_t {
        try withCArrays(executable, arguments, environment) { argv, envp in
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
            guard spawned == 0 else { throw ChildProcessError(description: "posix_spawn \(executable): error \(spawned)") }
            return pid
        }
    }

    /// The program's argv and envp as C takes them, made before `body` runs
    /// (a forked child must not allocate) and freed after it.
    private static func withCArrays<T>(_ executable: String, _ arguments: [String], _ environment: [String: String],
                                       _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>,
                                                UnsafePointer<UnsafeMutablePointer<CChar>?>) throws -> T) rethrows -> T {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        return try argv.withUnsafeBufferPointer { argvBuffer in
            try envp.withUnsafeBufferPointer { envpBuffer in try body(argvBuffer.baseAddress!, envpBuffer.baseAddress!) }
        }
    }
}
