import SuiteSupport
import Foundation
import PostFeedRedis
import Glibc

/// A real `redis-server` on a free loopback port with a temporary folder, no persistence;
/// started and stopped by the tests. `redis-cli` runs commands on it from outside.
final class RedisTestServer: @unchecked Sendable {
    let port: Int
    let folder: URL
    private var process: ChildProcess?

    /// Starts a server (on `port` when given, e.g. a restart on the same address).
    init(port: Int? = nil, folder: URL? = nil) throws {
        self.port = try port ?? TestPorts.reserve()
        self.folder = folder ?? FeedTestSupport.temporaryDirectory("redis")
        try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        try start()
    }

    deinit { stop() }

    var url: String { "redis://127.0.0.1:\(port)" }

    /// Starts (or restarts) the server and waits until it answers PING.
    func start() throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-server")
        process.arguments = [
            "--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", folder.path,
            "--daemonize", "no", "--logfile", folder.appendingPathComponent("redis.log").path,
        ]
        try process.run()
        self.process = process
        for _ in 0..<200 {
            if (try? cli("PING")) == "PONG" { return }
            usleep(25_000)
        }
        throw RedisTestError(message: "redis-server on port \(port) did not answer PING; see \(folder.path)/redis.log")
    }

    /// Stops the server (SIGKILL: nothing to save, and a child of the test process may
    /// inherit a blocked SIGTERM) and waits for it.
    func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// Runs `redis-cli -p PORT args…` and returns its output without the final newline.
    @discardableResult
    func cli(_ arguments: String..., input: Data? = nil) throws -> String {
        String(decoding: try cliData(arguments, input: input), as: UTF8.self)
    }

    /// `redis-cli --raw`, the output's bytes with the trailing newline removed.
    func cliData(_ arguments: [String], input: Data? = nil) throws -> Data {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        process.arguments = ["-p", "\(port)", "--raw"] + (input == nil ? [] : ["-x"]) + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data.last == 0x0A ? data.dropLast() : data
    }

    /// Starts `redis-cli args…` without waiting for it (e.g. `DEBUG SLEEP 1`).
    func cliInBackground(_ arguments: String...) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/redis-cli")
        process.arguments = ["-p", "\(port)"] + arguments
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

}

struct RedisTestError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
