import Foundation
import SuiteSupport
import Testing

/// An nginx on a free loopback port, rendered from `Tests/Support/nginx/` into a temporary
/// folder and started by that folder's `nginx-test-server.sh`.
///
/// Suites get one through the ``NginxTrait`` (`@Suite(.nginx)`), which starts it once
/// around the whole suite and stops it afterwards:
/// ```swift
/// @Suite(.nginx) struct MyTests {
///     @Test func hello() async throws {
///         let nginx = try #require(NginxServer.current)
///         … nginx.url("/files/hello.txt") …
///     }
/// }
/// ```
final class NginxServer: Sendable {
    /// The server of the enclosing `.nginx` suite.
    @TaskLocal static var current: NginxServer?

    let port: Int
    /// HTTPS with HTTP/2 (ALPN) on this port, serving `/files/`; its self-signed
    /// certificate is ``certificateFile``.
    let tlsPort: Int
    /// Pid file, logs and nginx's temp folders.
    let prefix: URL
    /// Document root; the generated files are under `files/`.
    let root: URL
    private let folder: URL

    static let supportDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // PostFeedHTTPTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Support/nginx", isDirectory: true)
    static let script = supportDirectory.appendingPathComponent("nginx-test-server.sh")
    /// The optional module behind `/stall`.
    static let hasEchoModule = FileManager.default.fileExists(
        atPath: "/usr/lib/nginx/modules/ngx_http_echo_module.so")

    /// Generates the files and starts nginx. A free port is picked by binding port 0 and
    /// releasing it; if another process takes it first, nginx fails to bind and the next
    /// port is tried.
    static func start() throws -> NginxServer {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("postfeed-nginx-\(UUID().uuidString)", isDirectory: true)
        let root = folder.appendingPathComponent("root", isDirectory: true)
        try TestFiles.generate(into: root)
        var lastError = ""
        for attempt in 1...5 {
            let port = try TestPorts.reserve()
            let tlsPort = try TestPorts.reserve()
            let prefix = folder.appendingPathComponent("nginx-\(attempt)", isDirectory: true)
            let (status, output) = try run(["start", prefix.path, root.path, String(port), String(tlsPort)])
            if status == 0 {
                return NginxServer(port: port, tlsPort: tlsPort, prefix: prefix, root: root, folder: folder)
            }
            lastError = output
        }
        try? FileManager.default.removeItem(at: folder)
        throw NginxError(message: "nginx did not start: \(lastError)")
    }

    private init(port: Int, tlsPort: Int, prefix: URL, root: URL, folder: URL) {
        self.port = port
        self.tlsPort = tlsPort
        self.prefix = prefix
        self.root = root
        self.folder = folder
    }

    /// Stops nginx and deletes the temporary folder.
    func stop() {
        _ = try? Self.run(["stop", prefix.path])
        try? FileManager.default.removeItem(at: folder)
    }

    /// `http://127.0.0.1:PORT` + `path` (which may carry a query).
    func url(_ path: String) -> URL {
        // Only test-controlled literals reach here; a bad one is a bug in the test.
        guard let url = URL(string: "http://127.0.0.1:\(port)\(path)") else {
            preconditionFailure("bad test path \(path)")
        }
        return url
    }

    /// `https://127.0.0.1:TLS_PORT` + `path`: nginx over TLS, offering HTTP/2.
    func tlsURL(_ path: String) -> URL {
        guard let url = URL(string: "https://127.0.0.1:\(tlsPort)\(path)") else {
            preconditionFailure("bad test path \(path)")
        }
        return url
    }

    /// The PEM certificate the TLS port presents (self-signed, for 127.0.0.1 and localhost).
    var certificateFile: URL { prefix.appendingPathComponent("tls.crt") }

    /// A path that no other test uses, so its access-log lines can be counted.
    func uniquePath(_ path: String) -> String {
        "\(path)?test=\(UUID().uuidString)"
    }

    // MARK: Logs

    /// One line of the access log: `$connection $request_method $request_uri $status $body_bytes_sent`,
    /// and in `tls.log` also `$server_protocol`.
    struct LogLine: Sendable, Equatable {
        var connection: Int
        var method: String
        var uri: String
        var status: Int
        var bytesSent: Int
        /// `HTTP/2.0`, `HTTP/1.1`…; only in `tls.log`.
        var protocolName: String? = nil
    }

    /// Lines of `access.log` (or `connections.log`, `tls.log`) whose URI contains `fragment`.
    /// nginx writes a line once it has finished a request, which can be a moment after the
    /// client saw the response, so this polls until `count` lines are there (or 5 s pass)
    /// and then returns what it found.
    func logLines(
        containing fragment: String, atLeast count: Int = 1, log: String = "access.log",
        waitingUpTo limit: Duration = .seconds(5)
    ) async -> [LogLine] {
        var lines: [LogLine] = []
        let tries = max(1, Int(limit.components.seconds) * 20)
        for _ in 0..<tries {
            lines = readLog(log).filter { $0.uri.contains(fragment) }
            if lines.count >= count { break }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return lines
    }

    private func readLog(_ name: String) -> [LogLine] {
        guard let text = try? String(contentsOf: prefix.appendingPathComponent(name), encoding: .utf8) else {
            return []
        }
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            guard parts.count == 5 || parts.count == 6, let connection = Int(parts[0]), let status = Int(parts[3]),
                let bytes = Int(parts[4])
            else { return nil }
            return LogLine(
                connection: connection, method: String(parts[1]), uri: String(parts[2]), status: status,
                bytesSent: bytes, protocolName: parts.count == 6 ? String(parts[5]) : nil)
        }
    }

    // MARK: Script

    private static func run(_ arguments: [String]) throws -> (Int32, String) {
        try Subprocess.run("/bin/sh", [script.path] + arguments)
    }
}

struct NginxError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Starts one ``NginxServer`` around a suite (nested suites included) and stops it after.
struct NginxTrait: SuiteTrait, TestScoping {
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let server = try NginxServer.start()
        defer { server.stop() }
        try await NginxServer.$current.withValue(server) {
            try await function()
        }
    }
}

extension Trait where Self == NginxTrait {
    /// Runs the suite against a fresh nginx; read it with `NginxServer.current`.
    static var nginx: Self { NginxTrait() }
}
