import Foundation
import PostFeedServer
import Testing

/// Options are typed: one spelling everywhere, choices named in errors, and negative
/// numbers told what is wrong instead of "Unknown option '-1'".
@Suite("typed options")
struct TypedOptionsTests {
    @Test(
        "negative numbers get a clear usage error",
        arguments: [
            (["page", "-1"], "page -1 does not exist; pages start at 1"),
            (["list", "--pages", "-1"], "--pages -1 must be at least 1"),
            (["page", "--count", "-2"], "--count -2 must be at least 1"),
            (["list", "--page-size", "-5"], "--page-size -5 is out of range"),
            (["browse", "--rows", "-3"], "--rows -3 is out of range"),
            (["serve", "--port", "-1"], "--port -1 is out of range"),
            (["page", "two"], "'two' is not a page number"),
        ])
    func negativeNumbers(arguments: [String], message: String) async throws {
        let sandbox = try Sandbox()
        let run = try await sandbox.run(arguments)
        #expect(run.exitedNormally && run.status == 64, "\(run)")
        #expect(run.errorMessage?.contains(message) == true, "\(run)")
        #expect(!run.standardError.contains("Unknown option '-"), "\(run)")
    }

    @Test("serve takes the same preset names as --api (and --flavor as another name for it)")
    func servePresets() async throws {
        let sandbox = try Sandbox()
        for flag in ["--api", "--flavor"] {
            let server = try PostfeedProcess.start(["serve", "--port", "0", flag, "dummyjson"], in: sandbox.directory)
            let line = await server.waitForOutputLine { $0.contains("serving") }
            server.send(SIGTERM)
            _ = await server.waitForExit()
            #expect(line?.contains("(dummyjson)") == true, "\(flag): \(String(describing: line))")
        }
        let unknown = try await sandbox.run(["serve", "--api", "dummyJSONX"])
        #expect(unknown.status == 64, "\(unknown)")
        #expect(unknown.errorMessage?.contains("json-server-v1") == true, "the choices are named: \(unknown)")
    }

    @Test("choices are listed for shell completion from the cases")
    func completionLists() async throws {
        let sandbox = try Sandbox()
        let script = try await sandbox.run(["--generate-completion-script", "bash"])
        #expect(script.succeeded, "\(script)")
        for name in ["'json-server-v1'", "'postfeed-cursor'", "'backend'$'\\n''popularity'", "'infinite'$'\\n''paged'"] {
            #expect(script.standardOutput.contains(name), "completion lacks \(name)")
        }
    }
}
