/// White space trimmed and collapsed without Foundation: `trimmingCharacters(in:)` goes
/// through `NSString` and was a quarter of the time of parsing a 5 MB feed.
enum WhiteSpace {
    /// Unicode white space (ASCII checked first, without a property lookup).
    @inline(__always)
    static func contains(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? scalar == " " || (0x09...0x0D).contains(scalar.value) : scalar.properties.isWhitespace
    }

    /// `text` without white space at either end.
    static func trimmed(_ text: some StringProtocol) -> String {
        let scalars = Substring(text).unicodeScalars
        guard let first = scalars.firstIndex(where: { !contains($0) }),
              let last = scalars.lastIndex(where: { !contains($0) })
        else { return "" }
        return String(Substring(scalars[first...last]))
    }

    /// `text` with each run of white space made one space, and none at either end.
    static func collapsed(_ text: some StringProtocol) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if contains(scalar) {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
        }
        return String(result)
    }
}
