import Foundation
import FuzzSupport
@testable import PostFeedCache

// A disk cache entry file (body, metadata JSON, 32-byte footer) through EntryCodec.decode.
// Most mutations fail the footer's checksums, so each input is decoded twice: as it is,
// and as body + metadata JSON (split where the first two bytes say) under a footer that
// is correct, with the name the metadata's key hashes to, to reach the metadata decoding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCacheEntry(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let input = fuzzInput(start, count)
    decode(Data(input))

    guard input.count >= 2 else { return 0 }
    let rest = Data(input.dropFirst(2))
    let split = (Int(input[0]) << 8 | Int(input[1])) % (rest.count + 1)
    let body = rest.prefix(split)
    let metadata = rest.dropFirst(split)
    let footer = EntryFooter(
        bodyLength: body.count, metadataLength: metadata.count,
        bodyChecksum: EntryCodec.checksum(Data(body)), metadataChecksum: EntryCodec.checksum(Data(metadata)))
    decode(Data(body) + Data(metadata) + footer.encoded())
    return 0
}

private func decode(_ file: Data) {
    do {
        let (entry, footer) = try EntryCodec.decode(file, expectedName: "0")
        precondition(entry.data.count == footer.bodyLength)
    } catch .keyMismatch(let key) {
        // Under the name its key hashes to, the metadata is accepted: what is left to fail
        // is the body's checksum.
        do {
            let (entry, _) = try EntryCodec.decode(file, expectedName: CacheLayout.name(forKey: key))
            precondition(entry.metadata.key == key)
        } catch .bodyChecksumMismatch {
        } catch {
            fatalError("an entry whose metadata named key \(key) fails under that key's name: \(error)")
        }
    } catch {
        _ = error.description
    }
}
