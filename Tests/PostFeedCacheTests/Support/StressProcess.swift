import SuiteSupport
import Foundation

/// Runs the `cache-stress` executable built next to this test bundle.
enum StressProcess {
    /// The binary: beside the running test executable (SwiftPM puts every product of the
    /// package in one build folder), else in `.build/debug` of this package.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let running = Bundle.main.executableURL {
            candidates.append(running.deletingLastPathComponent().appendingPathComponent("cache-stress"))
            // An `.xctest` bundle directory (macOS): step out of Contents/MacOS.
            candidates.append(running.deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("cache-stress"))
        }
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/cache-stress"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw StressProcessError(message: "cache-stress not found; looked at \(candidates.map(\.path)); run `swift build --product cache-stress`")
        }
        return found
    }

    /// Starts `cache-stress <arguments>` with stdout captured.
    static func start(_ arguments: [String]) throws -> (ChildProcess, Pipe) {
        let process = ChildProcess()
        process.executableURL = try executable()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return (process, output)
    }

    /// Runs to completion and decodes the JSON summary it printed last.
    static func runForSummary<Summary: Decodable & Sendable>(_ arguments: [String], as type: Summary.Type) async throws -> Summary {
        let (process, output) = try start(arguments)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        await waitForExit(process)
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw StressProcessError(message: "cache-stress \(arguments) ended with status \(process.terminationStatus)")
        }
        let lastLine = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        do {
            return try JSONDecoder().decode(Summary.self, from: Data(lastLine.utf8))
        } catch {
            throw StressProcessError(message: "cache-stress printed no valid summary (\(error)): \(lastLine)")
        }
    }

    static func waitForExit(_ process: ChildProcess) async {
        while process.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
        process.waitUntilExit()
    }
}

struct StressProcessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
