import Foundation
import PostFeed
import Testing

/// Issue 29, items 10 and 11: the backend identity list state is saved under.
@Suite("Backend identity")
struct BackendIdentityTests {
    static func identity(_ baseURL: String, preset: String = "postfeed") throws -> String {
        let url = try #require(URL(string: baseURL))
        return try BackendDescription.preset(preset, baseURL: url).identity
    }

    @Test(
        "spellings of one backend are one identity (RFC 3986 §6: scheme and host case, default port, empty path)",
        arguments: [
            ("HTTP://127.0.0.1:6969", "http://127.0.0.1:6969"),
            ("http://LOCALHOST:6969/", "http://localhost:6969"),
            ("Https://Example.COM:443", "https://example.com"),
            ("http://example.com:80/", "http://example.com"),
            ("https://example.com/", "https://example.com"),
            ("http://Example.com:80/API", "http://example.com/API"),
        ])
    func spellingsOfOneBackend(typed: String, canonical: String) throws {
        let typedIdentity = try Self.identity(typed)
        let canonicalIdentity = try Self.identity(canonical)
        #expect(typedIdentity == canonicalIdentity)
    }

    @Test("what tells backends apart still does: another port, path, or a path's case")
    func differentBackendsStayApart() throws {
        let base = try Self.identity("http://example.com")
        let otherPort = try Self.identity("http://example.com:8080")
        let otherScheme = try Self.identity("https://example.com")
        let otherPath = try Self.identity("http://example.com/v2")
        let otherPathCase = try Self.identity("http://example.com/API")
        let pathLower = try Self.identity("http://example.com/api")
        #expect(Set([base, otherPort, otherScheme, otherPath]).count == 4)
        #expect(otherPathCase != pathLower, "paths are case-sensitive")
    }

    @Test("an identity names what it identifies as before, for a URL written canonically")
    func canonicalIdentityUnchanged() throws {
        // State files written before keep their place when the base URL is already canonical.
        #expect(try Self.identity("http://127.0.0.1:6969") == "postfeed http://127.0.0.1:6969/api/posts")
    }

    @Test("two accounts on one backend are two identities; neither holds the user info")
    func accountsAreApart() throws {
        // Given one backend reached as two accounts, and without one
        let me = try Self.identity("http://me:secret@example.com/api")
        let other = try Self.identity("http://other:pw@example.com/api")
        let anonymous = try Self.identity("http://example.com/api")

        // Then each is its own place, and no identity holds a name or password
        #expect(Set([me, other, anonymous]).count == 3, "\(me) / \(other) / \(anonymous)")
        for identity in [me, other] {
            #expect(!identity.contains("secret") && !identity.contains("me:") && !identity.contains("other") && !identity.contains("pw"), "\(identity)")
            #expect(!identity.contains("@"), "\(identity)")
        }
        // And one account is one identity however its host is spelled
        let meAgain = try Self.identity("HTTP://me:secret@EXAMPLE.com:80/api")
        #expect(meAgain == me)
    }

    @Test("a backend with a fixed identity keeps accounts apart too")
    func fixedIdentityAccounts() throws {
        var me = try BackendDescription.preset("postfeed", baseURL: try #require(URL(string: "http://me:secret@example.com")))
        var other = try BackendDescription.preset("postfeed", baseURL: try #require(URL(string: "http://other:pw@example.com")))
        me.fixedIdentity = "my-api production"
        other.fixedIdentity = "my-api production"
        #expect(me.identity != other.identity)
        #expect(me.identity.hasPrefix("my-api production"))
        #expect(!me.identity.contains("secret"))
    }
}
