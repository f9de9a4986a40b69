import Foundation
import PostFeedModels
import Testing

/// `Post.parseDate` reads the common `YYYY-MM-DDTHH:MM:SSZ` form itself (issue 16's cold
/// `page 1`); it must give exactly what Foundation's ISO-8601 parser gives.
@Suite("ISO-8601 dates without Foundation's parser")
struct ISO8601UTCTests {
    @Test(
        "the fast form gives Foundation's date",
        arguments: [
            "2025-05-30T10:00:00Z", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2000-02-29T12:34:56Z",
            "2024-02-29T00:00:00Z", "1900-03-01T00:00:00Z", "0001-01-01T00:00:00Z", "1582-10-15T00:00:00Z", "1583-01-01T00:00:00Z", "9999-12-31T23:59:59Z",
            "2038-01-19T03:14:08Z", "2025-12-31T23:59:59Z",
        ])
    func sameAsFoundation(text: String) throws {
        let foundation = try Date(text, strategy: .iso8601)
        #expect(Post.parseDate(text) == foundation, "\(text)")
    }

    @Test(
        "other forms still parse through Foundation",
        arguments: ["2025-05-30T10:00:00.250Z", "2025-05-30T12:00:00+02:00"])
    func otherForms(text: String) throws {
        let parsed = try #require(Post.parseDate(text), "\(text)")
        #expect(parsed == Post.parseDate("2025-05-30T10:00:00Z") || parsed.timeIntervalSince1970.rounded(.down) == 1_748_599_200)
    }

    @Test(
        "impossible dates are not made up",
        arguments: ["2025-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2025-13-01T00:00:00Z", "2025-04-31T00:00:00Z",
                    "2025-05-30T24:00:00Z", "2025-05-30T10:60:00Z", "2025-05-3OT10:00:00Z", "yesterday", ""])
    func impossible(text: String) {
        let foundation = try? Date(text, strategy: .iso8601)
        #expect(Post.parseDate(text) == foundation, "\(text)")
    }
}
