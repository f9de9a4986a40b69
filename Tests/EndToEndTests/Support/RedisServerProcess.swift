import SuiteSupport
import Foundation
import Glibc

/// A real `redis-server` on a free loopback port, no persistence, for the shared-cache
/// runs of the `postfeed` binary; `redis-cli` talks to it from outside. (PostFeedTests has
/// its own, `RedisTestServer`: test targets do not share sources.)
final class RedisServerProcess: @unchecked Sendable {
    let port: Int
    let folder: URL
    private let process: ChildProcess

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-e2e-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try TestPorts.reserve()
        process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        process.arguments = [
            "--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder.path,
            "--logfile", folder.appendingPathComponent("redis.log").path,
        ]
        try process.run()
        for _ in 0..<200 {
            if (try? cli("PING")) == "PONG" { return }
            usleep(25_000)
        }
        stop()
        throw EndToEndError("redis-server on port \(port) did not answer PING; see \(folder.path)/redis.log")
    }

    deinit { stop() }

    /// The `--shared-cache` address.
    var url: String { "redis://127.0.0.1:\(port)" }

    /// Stops the server without closing its port (`SIGSTOP`): connections are accepted by
    /// the kernel and never answered, as from a server that hangs.
    func pause() {
        kill(process.processIdentifier, SIGSTOP)
    }

    /// Kills the server (nothing to save) and removes its folder.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// `redis-cli -p PORT --raw args…`, its output without the final newline.
    @discardableResult
    func cli(_ arguments: String...) throws -> String {
        let cli = ChildProcess()
        cli.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        cli.arguments = ["-p", "\(port)", "--raw"] + arguments
        let output = Pipe()
        cli.standardOutput = output
        cli.standardError = FileHandle.nullDevice
        cli.standardInput = FileHandle.nullDevice
        try cli.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        cli.waitUntilExit()
        return String(decoding: data.last == 0x0A ? data.dropLast() : data, as: UTF8.self)
    }

}
