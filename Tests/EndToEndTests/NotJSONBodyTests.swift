import Foundation
import PostFeedServer
import Testing

/// What `postfeed` says about bodies a crafted backend sends: a page or post that is not
/// JSON names its cause and place on one line; a lone surrogate escape costs one
/// character, not the page.
@Suite("postfeed against bodies that are not JSON")
struct NotJSONBodyTests {
    static let advice = "; check that the base URL and the backend describe this API (--base-url, --api or --backend)"

    /// `postfeed list --base-url <server> --api json-server --no-images` against a server
    /// answering every request with `body`.
    private func listError(body: Data, contentType: String?) async throws -> (String?, base: String) {
        let sandbox = try Sandbox()
        return try await CannedHTTPServer.withRunning(body: body, contentType: contentType) { server in
            let run = try await sandbox.run(["list", "--base-url", server.baseURL, "--api", "json-server", "--no-images"])
            #expect(run.failed, "\(run)")
            #expect(run.errorLines.count == 1, "one line: \(run)")
            return (run.errorMessage, server.baseURL)
        }
    }

    @Test("list: a 200 with an HTML login page is named as one, quoted, with its Content-Type")
    func htmlLoginPage() async throws {
        let (message, base) = try await listError(
            body: Data("<!DOCTYPE html><html><body>Please log in</body></html>".utf8), contentType: "text/html")
        #expect(
            message == "Error: page 1 of \(base)/posts?_page=1&_limit=20: the body is not JSON: it is an HTML page "
                + #"(Content-Type text/html) starting "<!DOCTYPE html><html><body>Please log in</body></html>""# + Self.advice)
    }

    @Test("list: a trailing comma is placed by line and column")
    func trailingComma() async throws {
        let (message, base) = try await listError(
            body: Data(#"[{"id":1,"title":"a"},{"id":2,"title":"b",}]"#.utf8), contentType: "application/json; charset=utf-8")
        #expect(
            message == "Error: page 1 of \(base)/posts?_page=1&_limit=20: the body is not JSON: "
                + "unexpected '}', expected a key in quotes at line 1, column 43" + Self.advice)
    }

    @Test("list: Latin-1 JSON is not UTF-8 at its first accented byte, and its declared charset is named")
    func latin1() async throws {
        let body = Data(#"[{"id": 1, "title": "Caf"#.utf8) + Data([0xE9]) + Data(#" creme"}]"#.utf8)
        let (message, _) = try await listError(body: body, contentType: "application/json; charset=iso-8859-1")
        #expect(
            message?.contains(": the body is not JSON: not UTF-8 at byte 25 (0xe9); its Content-Type declares charset iso-8859-1;") == true,
            "\(message ?? "no message")")
    }

    @Test("show: a single post that is an HTML page says so too")
    func showHTML() async throws {
        let sandbox = try Sandbox()
        try await CannedHTTPServer.withRunning(body: Data("<html><body>Sign in</body></html>".utf8), contentType: "text/html") { server in
            let run = try await sandbox.run(["show", "1", "--base-url", server.baseURL, "--api", "json-server", "--images", "none"])
            #expect(run.failed, "\(run)")
            #expect(
                run.errorMessage == "Error: post 1 at \(server.baseURL)/posts/1: the body is not JSON: it is an HTML page "
                    + #"(Content-Type text/html) starting "<html><body>Sign in</body></html>""#,
                "\(run)")
        }
    }

    @Test("list: a lone surrogate escape in a title becomes U+FFFD; the page and its other posts are shown")
    func loneSurrogate() async throws {
        let sandbox = try Sandbox()
        let body = Data(#"[{"id": 4, "title": "lone \ud800 surrogate"}, {"id": 5, "title": "fine"}]"#.utf8)
        try await CannedHTTPServer.withRunning(
            body: body, contentType: "application/json", headers: [("X-Total-Count", "2")]
        ) { server in
            let run = try await sandbox.run(["list", "--base-url", server.baseURL, "--api", "json-server", "--no-images"])
            #expect(run.succeeded, "\(run)")
            #expect(run.standardOutput.contains("1. lone \u{FFFD} surrogate"), "\(run)")
            #expect(run.standardOutput.contains("2. fine"), "\(run)")
        }
    }
}
