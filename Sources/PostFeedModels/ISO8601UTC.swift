import Foundation

/// The common form of ISO-8601 dates, `2025-05-30T10:00:00Z`, read without Foundation's
/// date parser: a cold `page 1` decodes twenty of them, and the first use of
/// `Date.ISO8601FormatStyle` builds a calendar and looks up the time zone (a few
/// milliseconds on the path to the first screen, issue 16). Anything else (fractional
/// seconds, an offset, an out-of-range field) is left to ``Post/parseDate(_:)``'s parser.
enum ISO8601UTC {
    /// `text` as `YYYY-MM-DDTHH:MM:SSZ` (year 1583–9999, valid day of month, 00–23, 00–59,
    /// 00–59), or `nil` when it is not exactly that. Earlier years are Foundation's: its
    /// calendar is Julian before the Gregorian reform.
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8(parse(bytes:))
    }

    private static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        // 0123456789012345678 9
        // YYYY-MM-DDTHH:MM:SS Z
        guard bytes.count == 20, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
              bytes[16] == 0x3A, bytes[19] == 0x5A
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let digit = Int(bytes[index]) - 0x30
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              year >= 1583, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the date in the proleptic Gregorian calendar (Howard
    /// Hinnant's `days_from_civil`); the year is 1583…9999, so nothing overflows.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
