internal import CLibXML2

extension HTMLText {
    /// Decodes character references in plain text (a feed title, an author): named ones
    /// (`&amp;`, `&eacute;`, `&hellip;`, every HTML 4 name and the HTML5 names feeds use),
    /// decimal (`&#8217;`) and hexadecimal (`&#x2019;`) ones. As browsers do, `&#128;`–`&#159;`
    /// are read as Windows-1252 (`&#146;` is `’`), a reference to 0, a surrogate or past
    /// U+10FFFF is U+FFFD, and the legacy names `&amp`, `&lt`, `&gt`, `&quot`, `&nbsp`,
    /// `&copy`, `&reg` work without their semicolon. Anything else stays as written.
    ///
    /// ```swift
    /// HTMLText.decodeEntities("Rock &amp; Roll&#8217;s &#x2019;80s &hellip;")  // "Rock & Roll’s ’80s …"
    /// ```
    public static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let bytes = Array(text.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "&"), let (scalars, length) = reference(in: bytes, at: index) else {
                result.append(byte)
                index += 1
                continue
            }
            for scalar in scalars { result.append(contentsOf: String(scalar).utf8) }
            index += length
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// The scalars a reference at `start` (its `&`) stands for, and its length in bytes.
    private static func reference(in bytes: [UInt8], at start: Int) -> ([Unicode.Scalar], Int)? {
        var index = start + 1
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "#") {
            index += 1
            let hex = index < bytes.count && (bytes[index] | 0x20) == UInt8(ascii: "x")
            if hex { index += 1 }
            var value: UInt32 = 0
            var digits = 0
            while index < bytes.count, let digit = digitValue(bytes[index], hex: hex) {
                value = min(value &* (hex ? 16 : 10) &+ digit, 0x110000)
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ";") { index += 1 }
            return ([numericScalar(value)], index - start)
        }
        var end = index
        while end < bytes.count, end - index < 32, isNameByte(bytes[end]) { end += 1 }
        guard end > index else { return nil }
        let name = String(decoding: bytes[index..<end], as: UTF8.self)
        if end < bytes.count, bytes[end] == UInt8(ascii: ";"), let scalars = named(name) {
            return (scalars, end + 1 - start)
        }
        // Legacy names without a semicolon: the longest that matches, not followed by `=`
        // (which would make it part of a URL's query: `?a=1&copy=2`).
        for legacy in ["amp", "lt", "gt", "quot", "nbsp", "copy", "reg"] where name.hasPrefix(legacy) && name.count == legacy.count {
            if end < bytes.count, bytes[end] == UInt8(ascii: "=") { return nil }
            return named(legacy).map { ($0, 1 + legacy.utf8.count) }
        }
        return nil
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46 where hex: UInt32(byte - 0x41 + 10)
        case 0x61...0x66 where hex: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    private static let windows1252: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    private static func numericScalar(_ value: UInt32) -> Unicode.Scalar {
        let replacement: Unicode.Scalar = "\u{FFFD}"
        if (0x80...0x9F).contains(value) { return Unicode.Scalar(windows1252[Int(value - 0x80)]) ?? replacement }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return replacement }
        return scalar
    }

    /// HTML5 names feeds use that HTML 4 (libxml2's table) lacks.
    private static let html5Names: [String: [Unicode.Scalar]] = [
        "apos": ["'"], "hyphen": ["\u{2010}"], "dash": ["\u{2010}"], "nbhy": ["\u{2011}"], "hellip": ["\u{2026}"],
        "mldr": ["\u{2026}"], "lsquor": ["\u{201A}"], "rsquor": ["\u{2019}"], "ldquor": ["\u{201E}"], "rdquor": ["\u{201D}"],
        "bull": ["\u{2022}"], "bullet": ["\u{2022}"], "nbsp": ["\u{A0}"], "NewLine": ["\n"], "Tab": ["\t"], "colon": [":"],
        "comma": [","], "period": ["."], "excl": ["!"], "quest": ["?"], "num": ["#"], "dollar": ["$"], "percnt": ["%"],
        "lpar": ["("], "rpar": [")"], "ast": ["*"], "plus": ["+"], "sol": ["/"], "semi": [";"], "equals": ["="],
        "lsqb": ["["], "rsqb": ["]"], "lowbar": ["_"], "grave": ["`"], "lcub": ["{"], "rcub": ["}"], "verbar": ["|"],
        "commat": ["@"], "check": ["\u{2713}"], "cross": ["\u{2717}"], "star": ["\u{2606}"], "starf": ["\u{2605}"],
        "rarr": ["\u{2192}"], "larr": ["\u{2190}"], "half": ["\u{BD}"], "centerdot": ["\u{B7}"], "Hat": ["^"],
    ]

    private static func named(_ name: String) -> [Unicode.Scalar]? {
        if let scalars = html5Names[name] { return scalars }
        _ = libxml2Initialized
        let entity = name.withCString { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: name.utf8.count + 1) { htmlEntityLookup($0) }
        }
        guard let entity, let scalar = Unicode.Scalar(entity.pointee.value) else { return nil }
        return [scalar]
    }
}
