import Foundation

/// The fixed-size end of every entry file. An entry is laid out as
///
/// ```
/// [ body            bodyLength bytes     ]
/// [ metadata JSON   metadataLength bytes ]   CacheEntryMetadata, sorted keys
/// [ footer          32 bytes             ]
///     0   4  magic "PFCE"
///     4   2  format version, UInt16 little-endian (2)
///     6   2  footer length, UInt16 little-endian (32)
///     8   8  body length, UInt64 little-endian
///     16  8  metadata length, UInt64 little-endian
///     24  4  CRC-32C of the body, little-endian
///     28  4  CRC-32C of the metadata JSON, little-endian
/// ```
///
/// Format 1 (88 bytes, SHA-256 checksums) is read as `unsupportedVersion`: such an
/// entry is a miss and is removed, and the next fetch stores it anew (see ``CRC32C``).
///
/// Why a trailer and not a header: a download streamed into a file becomes an entry by
/// appending metadata and footer and renaming it, without copying the body. Every footer
/// byte is checked: magic and version directly, both lengths against the file size, both
/// checksums against the bytes they cover. Two checksums let statistics and pruning read
/// and trust the metadata without hashing the body.
package struct EntryFooter: Equatable {
    static let size = 32
    static let currentVersion: UInt16 = 2
    static let magic: [UInt8] = Array("PFCE".utf8)

    var bodyLength: Int
    var metadataLength: Int
    var bodyChecksum: [UInt8]
    var metadataChecksum: [UInt8]

    func encoded() -> Data {
        var data = Data(Self.magic)
        data.appendLittleEndian(Self.currentVersion)
        data.appendLittleEndian(UInt16(Self.size))
        data.appendLittleEndian(UInt64(bodyLength))
        data.appendLittleEndian(UInt64(metadataLength))
        data.append(contentsOf: bodyChecksum)
        data.append(contentsOf: metadataChecksum)
        return data
    }

    /// Parses and checks a footer read from the end of a file of `fileSize` bytes.
    static func decode(_ data: Data, fileSize: Int) throws(EntryDefect) -> EntryFooter {
        let bytes = [UInt8](data)
        guard fileSize >= size, bytes.count == size else { throw .truncated(fileSize: fileSize) }
        guard Array(bytes[0..<4]) == magic else { throw .badMagic }
        guard let version = bytes.littleEndianInteger(UInt16.self, at: 4),
              version == currentVersion else {
            throw .unsupportedVersion(bytes.littleEndianInteger(UInt16.self, at: 4) ?? 0)
        }
        guard let footerLength = bytes.littleEndianInteger(UInt16.self, at: 6),
              Int(footerLength) == size,
              let rawBody = bytes.littleEndianInteger(UInt64.self, at: 8),
              let rawMetadata = bytes.littleEndianInteger(UInt64.self, at: 16),
              let bodyLength = Int(exactly: rawBody),
              let metadataLength = Int(exactly: rawMetadata),
              case let (sum, overflow) = bodyLength.addingReportingOverflow(metadataLength),
              !overflow, sum == fileSize - size
        else { throw .lengthMismatch(fileSize: fileSize) }
        return EntryFooter(
            bodyLength: bodyLength,
            metadataLength: metadataLength,
            bodyChecksum: Array(bytes[24..<28]),
            metadataChecksum: Array(bytes[28..<32])
        )
    }
}

/// Why an entry file cannot be trusted. Any defect makes the file a miss and gets it
/// removed.
package enum EntryDefect: Error, Equatable, CustomStringConvertible {
    case truncated(fileSize: Int)
    case badMagic
    case unsupportedVersion(UInt16)
    case lengthMismatch(fileSize: Int)
    case metadataChecksumMismatch
    case unreadableMetadata
    case keyMismatch(found: String)
    case bodyChecksumMismatch
    case unreadable(String)

    package var description: String {
        switch self {
        case .truncated(let size): "truncated: \(size) bytes is shorter than the \(EntryFooter.size)-byte footer"
        case .badMagic: "not a PostFeed cache entry (bad magic in footer)"
        case .unsupportedVersion(let version): "entry format version \(version), this build reads \(EntryFooter.currentVersion)"
        case .lengthMismatch(let size): "footer lengths do not add up to the file size (\(size) bytes): truncated or overwritten"
        case .metadataChecksumMismatch: "metadata checksum mismatch"
        case .unreadableMetadata: "metadata is not valid entry JSON"
        case .keyMismatch(let found): "entry belongs to another key (\(found)) than its file name says"
        case .bodyChecksumMismatch: "body checksum mismatch"
        case .unreadable(let reason): "unreadable: \(reason)"
        }
    }
}
