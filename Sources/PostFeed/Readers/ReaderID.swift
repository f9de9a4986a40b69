import Foundation
import PostFeedCache

/// Who a ``FeedSession`` reads for: the key of one reader's place in a ``ReaderPlaceStore``.
///
/// A name from a request (a user id, a path segment) is checked before it names anything:
/// 1…``maximumLength`` bytes of ASCII letters, digits, `-`, `_`, `.` and `@`, not starting
/// with a dot. So `../x`, `a/b`, `.`, `..`, an empty or a very long name are refused, and
/// a reader's folder (`State/readers/<name>/`) or Redis key never escapes its place. For
/// ids that do not fit (e-mail addresses with `+`, any Unicode), ``init(hashing:)`` names
/// the reader by the id's SHA-256.
///
/// ```swift
/// import PostFeed
///
/// let alice = try ReaderID("alice")
/// let bob = ReaderID(hashing: "bob+feeds@example.com")
/// print(alice, bob.rawValue.count)  // alice 66
/// ```
public struct ReaderID: Sendable, Hashable, CustomStringConvertible {
    /// The longest name ``init(_:)`` accepts, in bytes.
    public static let maximumLength = 128
    /// The folder under `State/` holding named readers' folders.
    static let folderName = "readers"

    /// The checked name; empty for ``default``.
    public let rawValue: String

    /// The one reader a client served before readers were named: the CLI's. Its place is
    /// the files directly under `State/`, as before.
    public static let `default` = ReaderID(unchecked: "")

    /// Whether this is ``default``.
    public var isDefault: Bool { rawValue.isEmpty }

    /// The name, or `default reader`.
    public var description: String { isDefault ? "default reader" : rawValue }

    private init(unchecked rawValue: String) { self.rawValue = rawValue }

    /// A reader named `name`.
    /// - Throws: ``ReaderIDError`` naming what is wrong with `name` (empty, too long, a
    ///   character outside `A-Z a-z 0-9 - _ . @`, a leading dot).
    public init(_ name: String) throws(ReaderIDError) {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty else { throw ReaderIDError("a reader id may not be empty; name the reader") }
        guard bytes.count <= Self.maximumLength else {
            throw ReaderIDError(
                "a reader id may be at most \(Self.maximumLength) bytes, this one is \(bytes.count); "
                    + "use ReaderID(hashing:) for long ids")
        }
        guard bytes.first != UInt8(ascii: ".") else {
            throw ReaderIDError("a reader id may not start with a dot (\"\(Self.shown(name))\"); use letters, digits, - _ . @")
        }
        for byte in bytes where !Self.allowed(byte) {
            throw ReaderIDError(
                "a reader id may hold only letters, digits, - _ . @ (\"\(Self.shown(name))\" does not); "
                    + "use ReaderID(hashing:) for other ids")
        }
        self.rawValue = name
    }

    /// A reader named by the SHA-256 of `id` (`h-` and 64 hex digits): any string, of any
    /// length, names a reader this way, and two ids name the same reader only when equal.
    public init(hashing id: String) {
        self.rawValue = "h-" + CacheLayout.name(forKey: "postfeed.reader:" + id)
    }

    private static func allowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "@"):
            return true
        default:
            return false
        }
    }

    /// At most 40 characters of `name`, controls escaped, for a message.
    private static func shown(_ name: String) -> String {
        let prefix = name.unicodeScalars.prefix(40).map { $0.properties.generalCategory == .control ? "?" : String($0) }.joined()
        return name.unicodeScalars.count > 40 ? prefix + "…" : prefix
    }
}

/// A reader id that was refused (``ReaderID/init(_:)``): one line, what is wrong and what
/// to do.
public struct ReaderIDError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the id.
    public let message: String
    public var description: String { message }
    init(_ message: String) { self.message = message }
}
