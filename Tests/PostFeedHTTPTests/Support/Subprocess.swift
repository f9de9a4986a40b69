import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a short command and returns its exit status and combined output.
///
/// Not Foundation's `Process`: on Linux it learns that a child exited through a descriptor
/// the child inherits, so a daemon the child starts (nginx) would keep it waiting forever.
/// Here the child gets only stdin, stdout and stderr, and is reaped with `waitpid`.
enum Subprocess {
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SocketError("pipe", errno) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        // glibc's closefrom action is not visible from Swift: close what is open now.
        // (The pipe's own ends are among them: only the copies on 1 and 2 stay open.)
        for descriptor in openDescriptors() where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = (argv + [nil]).withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return EINVAL }
            return posix_spawn(&pid, executable, &actions, nil, base, environ)
        }
        close(ends[1])
        defer { close(ends[0]) }
        guard spawned == 0 else { throw SocketError("posix_spawn \(executable)", spawned) }

        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(ends[0], &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output += chunk[0..<count]
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, String(decoding: output, as: UTF8.self))
    }

    private static func openDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap { Int32($0) }
    }
}
