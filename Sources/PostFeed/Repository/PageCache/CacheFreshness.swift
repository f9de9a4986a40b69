import Foundation
import PostFeedHTTP

/// How long a response may be used without asking the server again, from its
/// `Cache-Control` and `Expires` headers (RFC 9111 §4.2.1, as a private cache).
enum CacheFreshness: Equatable {
    /// `no-store`: keep no copy.
    case doNotStore
    /// Fresh until the date; at or after it, revalidate before use.
    case expires(Date)

    /// - `no-store` → ``doNotStore``; `no-cache` → expired at once (stored, always revalidated);
    /// - `max-age=N` → `now + N − Age`;
    /// - else `Expires` (corrected by `Date` for clock skew; an invalid one is in the past);
    /// - else expired at once: a response without freshness is revalidated before each use,
    ///   and still serves `304`s and offline reading.
    static func of(_ headers: HTTPHeaders, now: Date) -> CacheFreshness {
        let directives = cacheControlDirectives(headers.values(for: "Cache-Control"))
        if directives["no-store"] != nil { return .doNotStore }
        if directives["no-cache"] != nil { return .expires(now) }
        if let maxAge = directives["max-age"].flatMap({ Int($0) }), maxAge >= 0 {
            let age = headers["Age"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
            return .expires(now.addingTimeInterval(TimeInterval(max(0, maxAge - max(0, age)))))
        }
        if let expiresText = headers["Expires"] {
            guard let expires = HTTPDate.parse(expiresText) else { return .expires(now) }
            if let serverNow = headers["Date"].flatMap(HTTPDate.parse) {
                return .expires(now.addingTimeInterval(max(0, expires.timeIntervalSince(serverNow))))
            }
            return .expires(max(now, expires))
        }
        return .expires(now)
    }

    /// Directives by lowercased name, values unquoted (`""` for a directive without value).
    static func cacheControlDirectives(_ values: [String]) -> [String: String] {
        var directives: [String: String] = [:]
        for value in values {
            for part in value.split(separator: ",") {
                let pieces = part.split(separator: "=", maxSplits: 1)
                guard let rawName = pieces.first else { continue }
                let name = rawName.trimmingCharacters(in: .whitespaces).lowercased()
                guard !name.isEmpty, directives[name] == nil else { continue }
                let argument = pieces.count > 1 ? pieces[1].trimmingCharacters(in: .whitespaces) : ""
                directives[name] = argument.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return directives
    }
}

/// The IMF-fixdate of HTTP (`Sun, 06 Nov 1994 08:49:37 GMT`), parsed without a
/// `DateFormatter` so it is `Sendable` and locale-proof.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func parse(_ text: String) -> Date? {
        // "Sun, 06 Nov 1994 08:49:37 GMT" → ["06", "Nov", "1994", "08:49:37", "GMT"]
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        guard words.count >= 5 else { return nil }
        let fields = words.count == 6 ? Array(words.dropFirst()) : words
        guard fields.count == 5, fields[4].uppercased() == "GMT" || fields[4].uppercased() == "UTC",
            let day = Int(fields[0]), let month = months.firstIndex(of: fields[1].lowercased()),
            let year = Int(fields[2])
        else { return nil }
        let clock = fields[3].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT") ?? calendar.timeZone
        return calendar.date(
            from: DateComponents(year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2]))
    }
}
