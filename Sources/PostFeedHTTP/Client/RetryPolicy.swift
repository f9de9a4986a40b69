import Foundation

/// When and how long to wait before trying an idempotent request again.
///
/// Retries connection failures (refused, reset, truncated body, connect timeout, stall) and the
/// statuses 408, 429, 500, 502, 503, 504. Never other `4xx`, never non-idempotent methods,
/// never a name that did not resolve (``HTTPClientError/Code/cannotResolve``).
/// The delay is exponential backoff with full jitter, `random(0 ... min(maximumDelay,
/// baseDelay × 2^(attempt-1)))`, unless the response carries `Retry-After` (seconds or an
/// HTTP-date): that wait is honoured exactly when it is at most `maximumRetryAfter`;
/// a longer one ends the retries and returns the response, since retrying sooner than the
/// server asked only earns another refusal.
public struct RetryPolicy: Sendable {
    /// Attempts in total, the first included. `1` disables retries. Default 3.
    public var maximumAttempts: Int
    /// The ceiling of the first backoff, doubled for each later one. Default 200 ms.
    public var baseDelay: Duration
    /// Cap of one backoff delay. Default 5 s.
    public var maximumDelay: Duration
    /// The longest `Retry-After` that is honoured. Default 30 s.
    public var maximumRetryAfter: Duration
    /// Response statuses tried again. Default 408, 429, 500, 502, 503, 504.
    public var retryableStatuses: Set<Int>
    /// Returns a number in `0...1` for the jitter; injectable for tests.
    public var random: @Sendable () -> Double
    /// The wall-clock time a `Retry-After` HTTP-date is measured from; injectable for tests
    /// (the waits themselves go through the client's `clock`).
    public var now: @Sendable () -> Date

    /// Every parameter defaults to the value documented on its property. A
    /// `maximumAttempts` below 1 counts as 1.
    public init(
        maximumAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(200),
        maximumDelay: Duration = .seconds(5),
        maximumRetryAfter: Duration = .seconds(30),
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
        self.retryableStatuses = retryableStatuses
        self.random = random
        self.now = now
    }

    /// No retries.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// The backoff before attempt `attempt + 1`.
    public func backoff(afterAttempt attempt: Int) -> Duration {
        let exponent = min(max(attempt - 1, 0), 30)
        let ceiling = min(maximumDelay, baseDelay * (1 << exponent))
        return ceiling * min(max(random(), 0), 1)
    }

    /// The delay a `Retry-After` value asks for, measured from ``now``; `nil` when absent or unreadable.
    public func retryAfter(_ value: String?) -> Duration? {
        Self.retryAfter(value, now: now())
    }

    /// The delay a `Retry-After` value asks for, relative to `now`; `nil` when absent or unreadable.
    public static func retryAfter(_ value: String?, now: Date = Date()) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return .seconds(max(0, seconds)) }
        guard let date = HTTPDate.parse(value) else { return nil }
        let interval = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64((interval * 1000).rounded(.up)))
    }
}

/// RFC 9110 HTTP-date (IMF-fixdate, plus the obsolete RFC 850 and asctime forms).
public enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",
        "EEEE, dd-MMM-yy HH:mm:ss zzz",
        "EEE MMM d HH:mm:ss yyyy",
    ]

    /// The date `text` names, in any of the three forms; `nil` when it is none of them.
    /// Safe from any thread: each call makes its own formatter.
    public static func parse(_ text: String) -> Date? {
        // An HTTP-date is ASCII. Foundation's DateFormatter traps on some other text (a
        // combining mark after "GMT": found by Fuzz/fuzz-http-dates).
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        // The one form servers send today, read without a formatter: parsing runs on every
        // response (`Date`, `Last-Modified`), and three formatters per call cost ~100 µs.
        if let date = parseFixdate(text) { return date }
        for format in formats {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    private static let months: [Substring] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` exactly (RFC 9110 §5.6.7), else `nil`.
    static func parseFixdate(_ text: String) -> Date? {
        let words = text.split(separator: " ")
        guard words.count == 6, words[0].count == 4, words[0].last == ",", words[5] == "GMT",
            words[1].count == 2, let day = Int(words[1]), (1...31).contains(day),
            let monthIndex = months.firstIndex(of: words[2]),
            words[3].count == 4, let year = Int(words[3]), year >= 1,
            words[4].count == 8
        else { return nil }
        let clock = words[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil);
        // every number is bounded above (a 4-digit year), so nothing can overflow.
        let month = monthIndex + 1
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `date` as an IMF-fixdate in GMT, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`. Safe from any
    /// thread.
    public static func format(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
