import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `getrusage` and `wait4`, in seconds and KiB.
enum ResourceUsage {
    static func selfCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return cpuSeconds(usage)
    }

    /// The peak resident set of this process's own memory (`VmHWM`), in KiB.
    ///
    /// Not `ru_maxrss`: glibc's `posix_spawn` runs the child on the parent's memory until
    /// `exec`, and Linux carries that high-water mark into the child's `ru_maxrss`, so every
    /// child would report at least its parent's size.
    static func selfPeakRSSKiB() -> Int {
        peakRSSKiB(statusFile: "/proc/self/status") ?? 0
    }

    /// `VmHWM` of a running process, or `nil` once it has exited.
    static func peakRSSKiB(pid: pid_t) -> Int? {
        peakRSSKiB(statusFile: "/proc/\(pid)/status")
    }

    private static func peakRSSKiB(statusFile: String) -> Int? {
        guard let status = try? String(contentsOfFile: statusFile, encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first
    }

    static func cpuSeconds(_ usage: rusage) -> Double {
        Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}

/// A child started with `posix_spawn`, its stdout captured, reaped with `wait4` so its
/// own CPU time and peak RSS are known.
struct SpawnedProcess {
    var status: Int32
    var output: Data
    var usage: rusage
    /// The child's own `VmHWM`, sampled every 5 ms while it ran (see
    /// ``ResourceUsage/selfPeakRSSKiB()`` for why not `ru_maxrss`).
    var peakRSSKiB: Int

    static func run(_ path: String, _ arguments: [String]) throws -> SpawnedProcess {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw SpawnError("pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        // Only the copy on 1 stays open in the child: a daemon it starts (nginx) must not
        // hold the pipe, or reading it would never end.
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])

        let argv = ([path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = (argv + [nil]).withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return EINVAL }
            return posix_spawn(&pid, path, &actions, nil, base, environ)
        }
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw SpawnError("cannot start \(path): \(String(cString: strerror(spawned)))")
        }
        let sampler = PeakRSSSampler(pid: pid)
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(pipeEnds[0], &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: chunk[0..<count])
        }
        close(pipeEnds[0])
        var status: Int32 = 0
        var usage = rusage()
        let peak = sampler.stop()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        return SpawnedProcess(status: status, output: output, usage: usage, peakRSSKiB: peak)
    }

    /// The exit code, or 128 + signal.
    var exitCode: Int32 {
        (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}

struct SpawnError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Polls a child's `VmHWM` on a thread of its own until stopped.
final class PeakRSSSampler: Sendable {
    private let state = Mutex<(peak: Int, stopped: Bool)>((0, false))
    private let done = DispatchSemaphore(value: 0)

    init(pid: pid_t) {
        let thread = Thread { [self] in
            while !state.withLock({ $0.stopped }) {
                if let value = ResourceUsage.peakRSSKiB(pid: pid) {
                    state.withLock { $0.peak = max($0.peak, value) }
                }
                usleep(5000)
            }
            done.signal()
        }
        thread.start()
    }

    /// Stops sampling (call before reaping the child) and returns the highest value seen.
    func stop() -> Int {
        state.withLock { $0.stopped = true }
        done.wait()
        return state.withLock { $0.peak }
    }
}
