import Foundation
import PostFeedHTTP
import Testing

@Suite("URL user info is kept out of messages")
struct URLUserInfoTests {
    @Test(
        "every URL in a text loses its user info; other text is unchanged",
        arguments: [
            ("http://me:pw@host/x", "http://host/x"),
            ("cannot connect to https://me@host:8080/api?k=1 (curl: x)", "cannot connect to https://host:8080/api?k=1 (curl: x)"),
            ("two: http://a:b@h1/ and ftp://c:d@h2", "two: http://h1/ and ftp://h2"),
            ("mail me@example.com, see http://host/a@b", "mail me@example.com, see http://host/a@b"),
            ("http://user:p%40ss@host", "http://host"),
            ("no url here", "no url here"),
            ("", ""),
        ])
    func removesUserInfo(text: String, expected: String) {
        #expect(URLUserInfo.removed(from: text) == expected)
    }

    @Test("an error's description never shows the credentials of its URL")
    func errorDescription() throws {
        let url = try #require(URL(string: "http://me:secret@127.0.0.1:1/api"))
        let error = HTTPClientError(.cannotConnect, url: url)
        #expect(!error.description.contains("secret"))
        #expect(error.description.contains("http://127.0.0.1:1/api"))
    }
}
