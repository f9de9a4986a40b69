import Foundation

/// A program run as a child process and timed from outside: from just before `posix_spawn`
/// to its first line on standard output, and to its exit.
///
/// The blocking reads and `waitpid` run on a thread of their own, off Swift's cooperative
/// pool: on a 2-core machine a blocked pool thread would halve the in-process fixture
/// server's capacity during the very run being measured.
struct ChildProcess: Sendable {
    struct Outcome: Sendable {
        /// Until the first `\n` on standard output; `nil` when it printed nothing.
        var firstLine: Duration?
        /// Until standard output first held ``ChildProcess/marker``; `nil` when it never did.
        var markerSeen: Duration?
        /// Until `wait4` returned.
        var exit: Duration
        /// User + system CPU time the child used: steadier than wall time on a shared machine.
        var cpu: Duration
        var status: Int32
        var standardOutput: Data
        var standardError: String

        var succeeded: Bool { status == 0 }

        var firstLineText: String {
            String(decoding: standardOutput.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        }
    }

    var executable: String
    var arguments: [String]
    var environment: [String: String] = ProcessInfo.processInfo.environment
    /// Text whose first appearance on standard output is timed (``Outcome/markerSeen``).
    var marker: String? = nil

    /// The running executable (resolved through `/proc/self/exe`): `postfeed-bench`, which
    /// re-executes itself for its worker modes.
    static var currentExecutable: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return CommandLine.arguments[0] }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Runs the child to completion; throws when it cannot be started.
    func run() async throws -> Outcome {
        let spec = self
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                continuation.resume(with: Result { try spec.runBlocking() })
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }

    /// Runs the child and fails with its standard error when it exits non-zero.
    func runChecked(_ what: String) async throws -> Outcome {
        let outcome = try await run()
        guard outcome.succeeded else {
            throw BenchError("\(what) failed (exit status \(outcome.status)): \(outcome.standardError.suffix(2000))")
        }
        return outcome
    }

    private func runBlocking() throws -> Outcome {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw BenchError("pipe failed: \(String(cString: strerror(errno)))") }
        // Not inherited by other children (Glibc's pipe2 is not visible to Swift).
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let errorFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("postfeed-bench-child-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).err")
        defer { try? FileManager.default.removeItem(at: errorFile) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], STDOUT_FILENO)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errorFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }

        var pid: pid_t = 0
        let clock = ContinuousClock()
        let start = clock.now
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw BenchError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }

        var output = Data()
        var firstLine: Duration?
        var markerSeen: Duration?
        let markerBytes = marker.map { Data($0.utf8) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(pipeEnds[0], &buffer, buffer.count)
            if count > 0 {
                if firstLine == nil, buffer[0..<count].contains(UInt8(ascii: "\n")) { firstLine = start.duration(to: clock.now) }
                let searchFrom = max(0, output.count - (markerBytes?.count ?? 0))
                output.append(contentsOf: buffer[0..<count])
                if markerSeen == nil, let markerBytes, output.range(of: markerBytes, in: searchFrom..<output.count) != nil {
                    markerSeen = start.duration(to: clock.now)
                }
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(pipeEnds[0])
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let exit = start.duration(to: clock.now)
        func duration(_ time: timeval) -> Duration {
            .seconds(time.tv_sec) + .microseconds(time.tv_usec)
        }
        let cpu = duration(usage.ru_utime) + duration(usage.ru_stime)
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import.
        let exitCode: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        return Outcome(firstLine: firstLine, markerSeen: markerSeen, exit: exit, cpu: cpu, status: exitCode, standardOutput: output, standardError: errors)
    }
}
