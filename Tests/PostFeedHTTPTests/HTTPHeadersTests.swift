import PostFeedHTTP
import Testing

@Suite struct HTTPHeadersTests {
    @Test func namesMatchWhateverTheCaseOfTheirLetters() {
        let headers: HTTPHeaders = ["Content-Type": "image/png", "ETag": "\"v1\""]

        #expect(headers["content-type"] == "image/png")
        #expect(headers["CONTENT-TYPE"] == "image/png")
        #expect(headers["etag"] == "\"v1\"")
        #expect(headers["Content-Typ"] == nil)
        #expect(headers["Content-Types"] == nil)
    }

    @Test func onlyLettersFoldTheirCase() {
        // '@' and '`', '[' and '{' differ by the same bit as 'A' and 'a', but are not letters.
        let headers: HTTPHeaders = ["X-@": "at", "X-[": "bracket", "X-Café": "accent"]

        #expect(headers["x-@"] == "at")
        #expect(headers["X-`"] == nil)
        #expect(headers["X-{"] == nil)
        #expect(headers["x-café"] == "accent")
        #expect(headers["X-CAFÉ"] == nil)  // only ASCII letters fold
    }

    @Test func settingReplacesEveryFieldOfThatName() {
        var headers = HTTPHeaders()
        headers.add(name: "Link", value: "<a>")
        headers.add(name: "link", value: "<b>")
        #expect(headers.values(for: "LINK") == ["<a>", "<b>"])

        headers["LINK"] = "<c>"

        #expect(headers.values(for: "link") == ["<c>"])
        headers["Link"] = nil
        #expect(headers.isEmpty)
    }
}
