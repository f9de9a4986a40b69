import Foundation

// MARK: - The bound on one page's body

extension BackendDescription {
    /// The default of ``maximumPageBodySize``: 8 MiB, some 10,000 posts of PostFeed's
    /// fixtures and a hundred times the largest page a well-behaved backend sends at page
    /// size 100; a server that ignores the page size and sends its whole list hits it
    /// before the run holds hundreds of megabytes.
    public static let defaultMaximumPageBodySize = 8 * 1024 * 1024

    /// The largest ``maximumPageBodySize`` a config file may set (1 GiB): anything larger
    /// is a mistake, not a page.
    public static let largestMaximumPageBodySize = 1 << 30

    /// A config file's `maximumPageBytes`: a whole number of bytes from 1 to 1 GiB, or
    /// `nil` when absent or null.
    static func parseMaximumPageBytes(_ root: ConfigObject) throws(BackendConfigurationError) -> Int? {
        guard let value = root.members["maximumPageBytes"], !value.isNull else { return nil }
        // Digits only: 1e300 or 1.5 is no byte count, and a number past Int's range must
        // not trap on the way in.
        guard case .number = value, let bytes = value.integerValue, (1...largestMaximumPageBodySize).contains(bytes) else {
            throw root.error(
                "maximumPageBytes",
                "must be a whole number of bytes from 1 to \(largestMaximumPageBodySize) (1 GiB), got \(Self.shortDescription(value)); "
                    + "the default is \(defaultMaximumPageBodySize) (8 MiB)")
        }
        return bytes
    }

    /// A config value as an error shows it: a number or string as written (at most 40
    /// characters), else its type.
    private static func shortDescription(_ value: JSONValue) -> String {
        let text: String = switch value {
        case .number(let literal): literal
        case .string(let string): "\"\(string)\""
        default: value.typeDescription
        }
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }
}
