import Foundation
import Testing

@testable import PostFeedHTTP

/// The per-host key and the scheme check, read from a URL's text.
@Suite struct OriginTests {
    private func origin(_ text: String) throws -> Origin {
        try Origin(#require(URL(string: text)))
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/api/posts?page=1", "http://127.0.0.1:8080", false),
        ("https://cdn.example/x.png", "https://cdn.example", true),
        ("HTTPS://cdn.example#top", "https://cdn.example", true),
        ("http://user:secret@host.example:81?q", "http://host.example:81", false),
        ("http://[::1]:8080/a", "http://[::1]:8080", false),
        ("http://[::1]/a", "http://[::1]", false),
    ])
    func keyIsSchemeHostAndPort(url: String, key: String, isHTTPS: Bool) throws {
        let origin = try origin(url)

        #expect(origin.key == key)
        #expect(origin.isHTTPS == isHTTPS)
    }

    @Test func urlsOfOneHostShareAKey() throws {
        #expect(try origin("http://h.example:1/a").key == origin("http://h.example:1/b?c#d").key)
        #expect(try origin("http://h.example:1/a").key != origin("http://h.example:2/a").key)
        #expect(try origin("http://h.example/a").key != origin("https://h.example/a").key)
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://h.example/x", "gopher://h.example", "mailto:someone@h.example"])
    func otherSchemesAreRefused(url: String) throws {
        let error = #expect(throws: HTTPClientError.self) { try origin(url) }
        #expect(error?.code == .unsupportedScheme)
        #expect(error?.url?.absoluteString == url)
    }

    @Test(arguments: ["http:///path", "http:path", "https://:443/x", "http://user@/x"])
    func aURLWithoutAHostIsInvalid(url: String) throws {
        let error = #expect(throws: HTTPClientError.self) { try origin(url) }
        #expect(error?.code == .invalidURL)
        #expect(error?.description.contains("no host") == true)
    }
}
