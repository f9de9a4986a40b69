import SuiteSupport
import Foundation
import Synchronization

/// Runs the built `postfeed` binary as a child process, the way a user would: no terminal,
/// stdin from a file (or nothing), stdout and stderr captured to files so a chatty run can
/// never fill a pipe and hang.
enum PostfeedProcess {
    /// How long one run may take before it is killed (and the test fails on its status).
    /// Generous: the machine is shared with other builds.
    static let timeout: Duration = .seconds(60)

    /// The binary: beside the running test executable (SwiftPM builds every product of the
    /// package into one folder), else `.build/debug/postfeed` of this package.
    /// Runs `postfeed` through `/bin/sh -c script`, for what the harness's own runs cannot
    /// set up (a closed descriptor, a working directory where no file can be made): in
    /// `script`, `"$0"` is the binary, `"$1"` the base URL and `"$2"` the cache folder.
    /// Standard output goes to /dev/null unless the script redirects it.
    static func runThroughShell(
        _ script: String, baseURL: URL, cacheRoot: URL
    ) async throws -> (status: Int32, standardError: String) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, try executable().path, baseURL.absoluteString, cacheRoot.path]
        // A file, not a pipe read to its end: waiting on a pipe would hold a thread the
        // fixture server this child talks to needs.
        let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent("postfeed-shell-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorURL.path, contents: nil) else {
            throw EndToEndError("cannot create \(errorURL.path) for the child's errors")
        }
        defer { try? FileManager.default.removeItem(at: errorURL) }
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        await process.exited()
        let message = String(decoding: (try? Data(contentsOf: errorURL)) ?? Data(), as: UTF8.self)
        return (process.terminationStatus, message)
    }

    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let running = Bundle.main.executableURL {
            candidates.append(running.deletingLastPathComponent().appendingPathComponent("postfeed"))
        }
        if let first = CommandLine.arguments.first, first.hasPrefix("/") {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent("postfeed"))
        }
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("postfeed"))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/postfeed"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw EndToEndError(
                "the postfeed binary was not found; looked at \(candidates.map(\.path).joined(separator: ", ")); "
                    + "run `swift build --build-tests` (the EndToEndTests target depends on it)")
        }
        return found
    }

    /// The package root: four levels above this file (Tests/EndToEndTests/Support/…).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs `postfeed <arguments>` to completion (or until ``timeout``, then kills it).
    /// - Parameters:
    ///   - workingDirectory: the child's working directory (a sandbox, so `./Cache` of the
    ///     repository is never picked up).
    ///   - standardInput: bytes piped in; `nil` gives the child `/dev/null`.
    ///   - outputFile: where the child's stdout goes instead of being captured (`/dev/full`).
    ///   - environment: variables added to the child's environment.
    static func run(
        _ arguments: [String], in workingDirectory: URL, standardInput: Data? = nil, outputFile: String? = nil,
        environment: [String: String] = [:]
    ) async throws -> PostfeedResult {
        let child = try start(
            arguments, in: workingDirectory, standardInput: standardInput, outputFile: outputFile, environment: environment)
        return await child.waitForExit()
    }

    /// Starts `postfeed <arguments>` and returns at once; for `serve`, which runs until
    /// it gets a signal.
    static func start(
        _ arguments: [String], in workingDirectory: URL, standardInput: Data? = nil, outputFile: String? = nil,
        inputPipe: Pipe? = nil, environment extra: [String: String] = [:]
    ) throws -> RunningPostfeed {
        let id = UUID().uuidString
        let outputURL = workingDirectory.appendingPathComponent(".stdout-\(id)")
        let errorURL = workingDirectory.appendingPathComponent(".stderr-\(id)")
        for url in [outputURL, errorURL] {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw EndToEndError("cannot create \(url.path) for the child's output")
            }
        }
        let process = ChildProcess()
        process.executableURL = try executable()
        process.arguments = arguments
        process.currentDirectoryURL = workingDirectory
        process.environment = environment(sandbox: workingDirectory).merging(extra) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: outputFile.map(URL.init(fileURLWithPath:)) ?? outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        if let inputPipe {
            // Keys typed later, while the child runs (a `browse` kept open).
            process.standardInput = inputPipe
        } else if let standardInput {
            let inputURL = workingDirectory.appendingPathComponent(".stdin-\(id)")
            try standardInput.write(to: inputURL)
            process.standardInput = try FileHandle(forReadingFrom: inputURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        try process.run()
        return RunningPostfeed(process: process, arguments: arguments, outputURL: outputURL, errorURL: errorURL)
    }

    /// The test's environment, minus what would point postfeed at a real cache, with the
    /// home and XDG cache folders inside the sandbox so nothing leaks out of it.
    private static func environment(sandbox: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "POSTFEED_CACHE_DIR")
        environment["HOME"] = sandbox.path
        environment["XDG_CACHE_HOME"] = sandbox.appendingPathComponent(".xdg-cache").path
        environment["TERM"] = "dumb"
        // Piped output follows COLUMNS and LINES: a test that wants a width sets them.
        environment.removeValue(forKey: "COLUMNS")
        environment.removeValue(forKey: "LINES")
        // The machine's proxy settings are not the test's: a test that wants one sets it.
        for name in ["http_proxy", "https_proxy", "all_proxy", "no_proxy"] {
            environment.removeValue(forKey: name)
            environment.removeValue(forKey: name.uppercased())
        }
        return environment
    }
}

/// A `postfeed` child process that has been started.
final class RunningPostfeed: @unchecked Sendable {
    // `Process` is not Sendable; this object only reads it (isRunning, status) and sends
    // signals after `run()`, which Foundation allows from any thread.
    private let process: ChildProcess
    let arguments: [String]
    private let outputURL: URL
    private let errorURL: URL
    private let killedForTimeout = Mutex(false)

    fileprivate init(process: ChildProcess, arguments: [String], outputURL: URL, errorURL: URL) {
        self.process = process
        self.arguments = arguments
        self.outputURL = outputURL
        self.errorURL = errorURL
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// Whether the child has not exited yet.
    var isRunning: Bool { process.isRunning }

    /// What the child has written to stdout so far.
    var standardOutputSoFar: String {
        (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    }

    /// Sends `signal` (e.g. `SIGTERM`) to the child.
    func send(_ signal: Int32) {
        if process.isRunning { kill(process.processIdentifier, signal) }
    }

    /// Waits until stdout holds a line satisfying `predicate`; `nil` when the child exits
    /// first or `timeout` passes.
    func waitForOutputLine(timeout: Duration = PostfeedProcess.timeout, where predicate: (String) -> Bool) async -> String? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            let lines = standardOutputSoFar.split(separator: "\n").map(String.init)
            if let line = lines.first(where: predicate) { return line }
            if !process.isRunning { return standardOutputSoFar.split(separator: "\n").map(String.init).first(where: predicate) }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Waits for the child to exit; kills it (SIGTERM, then SIGKILL) after
    /// ``PostfeedProcess/timeout``.
    func waitForExit() async -> PostfeedResult {
        let clock = ContinuousClock()
        let deadline = clock.now + PostfeedProcess.timeout
        var terminatedAt: ContinuousClock.Instant?
        while process.isRunning {
            if terminatedAt == nil, clock.now >= deadline {
                killedForTimeout.withLock { $0 = true }
                kill(process.processIdentifier, SIGTERM)
                terminatedAt = clock.now
            } else if let terminatedAt, clock.now >= terminatedAt + .seconds(5) {
                kill(process.processIdentifier, SIGKILL)
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        let output = (try? Data(contentsOf: outputURL)) ?? Data()
        let error = (try? Data(contentsOf: errorURL)) ?? Data()
        try? FileManager.default.removeItem(at: outputURL)
        try? FileManager.default.removeItem(at: errorURL)
        return PostfeedResult(
            arguments: arguments,
            status: process.terminationStatus,
            exitedNormally: process.terminationReason == .exit,
            timedOut: killedForTimeout.withLock { $0 },
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: error, as: UTF8.self))
    }
}

/// How one `postfeed` run ended and what it printed.
struct PostfeedResult: Sendable, CustomStringConvertible {
    var arguments: [String]
    /// The exit status, or the signal number when it did not exit normally.
    var status: Int32
    var exitedNormally: Bool
    var timedOut: Bool
    var standardOutput: String
    var standardError: String

    /// Exited by itself with status 0.
    var succeeded: Bool { exitedNormally && status == 0 && !timedOut }
    /// Exited by itself with a non-zero status (not killed, not timed out).
    var failed: Bool { exitedNormally && status != 0 && !timedOut }

    var outputLines: [String] { standardOutput.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    var errorLines: [String] { standardError.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }

    /// The `Error: …` line ArgumentParser prints for a failed command.
    var errorMessage: String? { errorLines.first { $0.hasPrefix("Error: ") } }

    /// Everything a failing expectation should show.
    var description: String {
        let how = timedOut ? "killed after \(PostfeedProcess.timeout)" : exitedNormally ? "exit \(status)" : "signal \(status)"
        return "postfeed \(arguments.joined(separator: " ")) → \(how)\n--- stdout ---\n\(standardOutput)--- stderr ---\n\(standardError)"
    }
}

/// A failure in the tests' own set-up (binary missing, unexpected output shape).
struct EndToEndError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
