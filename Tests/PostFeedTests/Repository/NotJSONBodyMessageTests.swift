import Foundation
import PostFeedHTTP
import Testing

@testable import PostFeed

/// A page body that is not JSON is described by its cause and place, on one line: the
/// parser's own error with line, column and byte; an HTML or XML page quoted briefly; a
/// body that is not UTF-8 (UTF-16, Latin-1, still gzip-compressed).
@Suite("Messages for bodies that are not JSON")
struct NotJSONBodyMessageTests {
    /// The library's words for ``Recovery/checkBackend``; the CLI's, naming its flags, are
    /// checked end to end (NotJSONBodyTests).
    static let advice = "; check that the base URL and the backend describe this API"

    private func message(_ body: Data, contentType: String? = nil) throws -> String? {
        let decoder = PageDecoder(
            backend: try BackendDescription.preset("json-server", baseURL: URL(string: "http://h")!), pageSize: 10)
        let headers: HTTPHeaders = contentType.map { ["Content-Type": $0] } ?? [:]
        let error = #expect(throws: RepositoryError.self) {
            try decoder.decode(body: body, headers: headers, url: URL(string: "http://h/p")!, key: .number(1))
        }
        #expect(error?.code == .decoding)
        #expect(error?.recovery == .checkBackend)
        return error?.description
    }

    private func cause(_ body: Data, contentType: String? = nil) throws -> String? {
        guard let message = try message(body, contentType: contentType) else { return nil }
        let prefix = "page 1 of http://h/p: "
        #expect(message.hasPrefix(prefix), "\(message)")
        #expect(message.hasSuffix(Self.advice), "\(message)")
        return String(message.dropFirst(prefix.count).dropLast(Self.advice.count))
    }

    @Test("a syntax error names the parser's cause, line and column; the byte too past the first line")
    func syntax() throws {
        let trailingComma = Data(#"[{"id":1,"title":"a"},{"id":2,"title":"b",}]"#.utf8)
        #expect(
            try message(trailingComma)
                == "page 1 of http://h/p: the body is not JSON: unexpected '}', expected a key in quotes at line 1, column 43"
                + Self.advice)
        let pretty = Data("[\n  {\"id\": 1, \"title\": \"a\"},\n  {\"id\": 2, \"title\": \"b\",}\n]".utf8)
        #expect(try cause(pretty) == "the body is not JSON: unexpected '}', expected a key in quotes at line 3, column 26 (byte 55)")
        // A Content-Type that does not say JSON is named: it tells what came instead
        #expect(
            try cause(Data("Please log in".utf8), contentType: "text/plain; charset=utf-8")
                == "the body is not JSON: unexpected 'P', expected a value at line 1, column 1 (Content-Type text/plain; charset=utf-8)")
        #expect(
            try cause(Data("[1,]".utf8), contentType: "application/json")
                == "the body is not JSON: unexpected ']', expected a value at line 1, column 4")
        // An empty body keeps its own words
        #expect(try cause(Data()) == "the body is empty, expected JSON")
    }

    @Test("an HTML or XML page is named as such and quoted briefly, with its Content-Type")
    func markup() throws {
        let login = Data("<!DOCTYPE html><html><body>Please log in</body></html>".utf8)
        #expect(
            try cause(login, contentType: "text/html")
                == #"the body is not JSON: it is an HTML page (Content-Type text/html) starting "<!DOCTYPE html><html><body>Please log in</body></html>""#)
        #expect(try cause(Data("<html>".utf8)) == #"the body is not JSON: it is an HTML page starting "<html>""#)
        #expect(
            try cause(Data(#"<?xml version="1.0"?><error>denied</error>"#.utf8), contentType: "application/xml")
                == #"the body is not JSON: it is an XML document (Content-Type application/xml) starting "<?xml version="1.0"?><error>denied</error>""#)
        #expect(try cause(Data("<p>hi".utf8)) == #"the body is not JSON: it is an HTML or XML page starting "<p>hi""#)
        // After a byte order mark and blank lines; the Content-Type alone does not make a page HTML
        #expect(
            try cause(Data([0xEF, 0xBB, 0xBF] + Array("\r\n\t <HTML>".utf8)))
                == #"the body is not JSON: it is an HTML page starting "<HTML>""#)
    }

    @Test("a long page with control characters is quoted cleaned and cut short, on one line")
    func longHostilePage() throws {
        let page = "\n  <html>\n<head>\u{1B}[31m<title>Sign\tin</title>\u{7}\u{9B}\u{202E}</head>" + String(repeating: "x", count: 5000)
        let said = try #require(try cause(Data(page.utf8), contentType: "text/html; charset=utf-8"))
        #expect(said.hasPrefix(#"the body is not JSON: it is an HTML page (Content-Type text/html; charset=utf-8) starting "<html> <head>[31m<title>Sign in</title></head>xxx"#), "\(said)")
        #expect(said.hasSuffix("x…\""), "\(said)")
        #expect(said.count < 200, "\(said.count) characters")
        let controls = said.unicodeScalars.filter { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }
        #expect(controls.isEmpty, "\(said.debugDescription)")
    }

    @Test("a body that is not UTF-8 says where, and the charset it declares")
    func notUTF8() throws {
        // json.dumps([{'id': 1, 'title': 'Café crème', 'body': 'naïve'}], ensure_ascii=False) in Latin-1
        var latin1 = Data(#"[{"id": 1, "title": "Caf"#.utf8)
        latin1.append(0xE9)
        latin1.append(contentsOf: Array(#" cr"#.utf8) + [0xE8])
        latin1.append(contentsOf: Array(#"me", "body": "na"#.utf8) + [0xEF])
        latin1.append(contentsOf: Array(#"ve"}]"#.utf8))
        #expect(
            try cause(latin1, contentType: "application/json; charset=iso-8859-1")
                == "the body is not JSON: not UTF-8 at byte 25 (0xe9); its Content-Type declares charset iso-8859-1")
        #expect(try cause(Data([0xFF, 0x5B, 0x5D])) == "the body is not JSON: not UTF-8 at byte 1 (0xff)")
        // A syntax error before the first bad byte is the one named
        #expect(
            try cause(Data("[1 2 ".utf8) + Data([0xE9]))
                == "the body is not JSON: unexpected '2', expected ',' or ']' in an array at line 1, column 4")

        let utf16 = Data([0xFF, 0xFE, 0x5B, 0x00, 0x31, 0x00, 0x5D, 0x00])  // [1] in UTF-16LE
        #expect(
            try cause(utf16, contentType: "application/json; charset=utf-16")
                == "the body is not JSON: it is UTF-16 (it starts with the byte order mark ff fe), not UTF-8; "
                + "its Content-Type declares charset utf-16")
        #expect(try cause(Data([0xFE, 0xFF, 0x00, 0x5B])) == "the body is not JSON: it is UTF-16 (it starts with the byte order mark fe ff), not UTF-8")

        // Compressed twice: once undone by libcurl, the body is still gzip
        let gzip = Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xFF])
        #expect(
            try cause(gzip)
                == "the body is not JSON: it is still gzip-compressed (it starts with 1f 8b): compressed twice, or sent without "
                + "Content-Encoding: gzip")
    }
}
