import Foundation

/// The date formats feeds use, read without Foundation's date parsers (a 5 MB feed holds
/// thousands of dates).
public enum FeedDate {
    /// An RFC 822 / RFC 2822 date, as RSS `pubDate` has it: `Sat, 07 Sep 2002 09:42:31 GMT`,
    /// with the variants real feeds send: no weekday, a full month or day name, a two-digit
    /// year (00–49 → 20xx, 50–99 → 19xx), no seconds, a named zone (`UT`, `GMT`, `UTC`,
    /// `Z`, `EST`/`EDT`, `CST`/`CDT`, `MST`/`MDT`, `PST`/`PDT`, a military letter counts as
    /// UTC as RFC 1123 advises), a numeric offset with or without a colon, no zone at all
    /// (UTC). Falls back to RFC 3339 (some feeds put ISO dates in `pubDate`).
    public static func parseRFC822(_ text: String) -> Date? {
        var scanner = DateScanner(text)
        if let date = scanner.rfc822() { return date }
        return parseRFC3339(text)
    }

    /// An RFC 3339 date, as Atom and JSON Feed have it: `2003-12-13T18:30:02Z`,
    /// `2003-12-13T18:30:02.25+01:00`; also a space or lowercase `t` between date and time,
    /// and a date alone (midnight UTC).
    public static func parseRFC3339(_ text: String) -> Date? {
        var scanner = DateScanner(text)
        return scanner.rfc3339()
    }

    /// Seconds from 1970-01-01T00:00:00Z to the given UTC time (proleptic Gregorian).
    static func timestamp(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int? {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
              day <= daysIn(month: month, year: year), (0...23).contains(hour), (0...59).contains(minute),
              (0...60).contains(second)
        else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return days * 86_400 + hour * 3_600 + minute * 60 + min(second, 59)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// A cursor over a date string's bytes.
private struct DateScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpaces() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ",") {
            index += 1
        }
    }

    private mutating func skip(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    /// Up to `maxDigits` digits (at least `minDigits`).
    private mutating func number(minDigits: Int = 1, maxDigits: Int) -> (value: Int, digits: Int)? {
        var value = 0
        var digits = 0
        while digits < maxDigits, let byte = current, (0x30...0x39).contains(byte) {
            value = value * 10 + Int(byte - 0x30)
            digits += 1
            index += 1
        }
        return digits >= minDigits ? (value, digits) : nil
    }

    private mutating func word() -> String {
        let start = index
        while let byte = current, (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    mutating func rfc822() -> Date? {
        skipSpaces()
        // An optional weekday ("Sat", "Saturday"), then a comma or space.
        if let byte = current, !(0x30...0x39).contains(byte) {
            _ = word()
            skipSpaces()
        }
        guard let day = number(maxDigits: 2) else { return nil }
        skipSpaces()
        _ = skip(UInt8(ascii: "-"))
        let monthName = word()
        guard monthName.count >= 3, let monthIndex = Self.months.firstIndex(of: String(monthName.prefix(3))) else { return nil }
        _ = skip(UInt8(ascii: "-"))
        skipSpaces()
        guard let (rawYear, yearDigits) = number(minDigits: 2, maxDigits: 4) else { return nil }
        let year = yearDigits == 2 ? (rawYear < 50 ? 2000 + rawYear : 1900 + rawYear) : rawYear
        skipSpaces()
        var hour = 0, minute = 0, second = 0
        if let (value, _) = number(maxDigits: 2) {
            hour = value
            guard skip(UInt8(ascii: ":")), let minutes = number(minDigits: 2, maxDigits: 2) else { return nil }
            minute = minutes.value
            if skip(UInt8(ascii: ":")) {
                guard let seconds = number(minDigits: 2, maxDigits: 2) else { return nil }
                second = seconds.value
                // Fractional seconds, which some feeds add.
                if skip(UInt8(ascii: ".")) { _ = number(maxDigits: 9) }
            }
        }
        skipSpaces()
        guard let offset = zoneOffset() else { return nil }
        skipSpaces()
        guard let base = FeedDate.timestamp(year: year, month: monthIndex + 1, day: day.value, hour: hour, minute: minute, second: second) else {
            return nil
        }
        return Date(timeIntervalSince1970: TimeInterval(base - offset))
    }

    /// Seconds east of UTC; `0` for no zone or one not known.
    private mutating func zoneOffset() -> Int? {
        guard let byte = current else { return 0 }
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
            index += 1
            guard let hours = number(minDigits: 2, maxDigits: 2) else { return nil }
            _ = skip(UInt8(ascii: ":"))
            let minutes = number(minDigits: 2, maxDigits: 2)?.value ?? 0
            guard hours.value <= 23, minutes <= 59 else { return nil }
            let offset = hours.value * 3_600 + minutes * 60
            return byte == UInt8(ascii: "-") ? -offset : offset
        }
        let name = word()
        switch name {
        case "", "ut", "utc", "gmt", "z": return 0
        case "est": return -5 * 3_600
        case "edt": return -4 * 3_600
        case "cst": return -6 * 3_600
        case "cdt": return -5 * 3_600
        case "mst": return -7 * 3_600
        case "mdt": return -6 * 3_600
        case "pst": return -8 * 3_600
        case "pdt": return -7 * 3_600
        case "bst": return 3_600
        case "cet": return 3_600
        case "cest": return 2 * 3_600
        default:
            // A military letter or a zone name not listed: UTC, as RFC 1123 advises for the letters.
            return name.count <= 5 ? 0 : nil
        }
    }

    mutating func rfc3339() -> Date? {
        skipSpaces()
        guard let year = number(minDigits: 4, maxDigits: 4), skip(UInt8(ascii: "-")),
              let month = number(minDigits: 2, maxDigits: 2), skip(UInt8(ascii: "-")),
              let day = number(minDigits: 2, maxDigits: 2)
        else { return nil }
        var hour = 0, minute = 0, second = 0
        var fraction = 0.0
        var offset = 0
        if let separator = current, separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t") || separator == 0x20 {
            index += 1
            guard let hours = number(minDigits: 2, maxDigits: 2), skip(UInt8(ascii: ":")),
                  let minutes = number(minDigits: 2, maxDigits: 2)
            else { return nil }
            hour = hours.value
            minute = minutes.value
            if skip(UInt8(ascii: ":")) {
                guard let seconds = number(minDigits: 2, maxDigits: 2) else { return nil }
                second = seconds.value
                if skip(UInt8(ascii: ".")) || skip(UInt8(ascii: ",")) {
                    guard let digits = number(maxDigits: 9) else { return nil }
                    fraction = Double(digits.value) / pow(10, Double(digits.digits))
                    while let byte = current, (0x30...0x39).contains(byte) { index += 1 }
                }
            }
            if let zone = current {
                if zone == UInt8(ascii: "Z") || zone == UInt8(ascii: "z") {
                    index += 1
                } else if zone == UInt8(ascii: "+") || zone == UInt8(ascii: "-") {
                    index += 1
                    guard let hours = number(minDigits: 2, maxDigits: 2) else { return nil }
                    _ = skip(UInt8(ascii: ":"))
                    let minutes = number(minDigits: 2, maxDigits: 2)?.value ?? 0
                    guard hours.value <= 23, minutes <= 59 else { return nil }
                    offset = (hours.value * 3_600 + minutes * 60) * (zone == UInt8(ascii: "-") ? -1 : 1)
                }
            }
        }
        skipSpaces()
        guard index == bytes.count,
              let base = FeedDate.timestamp(year: year.value, month: month.value, day: day.value, hour: hour, minute: minute, second: second)
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(base - offset) + fraction)
    }
}
