import PostFeed
import Foundation
import PostFeedCache
import PostFeedHTTP
import PostFeedImaging

/// Rendered previews kept as derived disk-cache entries (`<root>/ThumbnailCache`), in the
/// disk cache's crash-safe entry format.
///
/// **Key.** A thumbnail's key names the original's cache key, the original's validator —
/// its `ETag`, else its `Last-Modified`, else the CRC-32C and length of its bytes — the
/// box in cells and the ``PreviewStyle``. A new original (a new `ETag` after
/// revalidation) therefore has new keys: its old thumbnails are never read again, and
/// ``removeOrphans()`` (run by `postfeed cache prune`) deletes them.
///
/// **Body.** The rendered output for the terminal; the metadata's attributes record the
/// original (`original`, `validator`) and the cells drawn (`cells`).
public struct ThumbnailCache: Sendable {
    /// Where the thumbnails are.
    public let disk: DiskCache
    /// The image cache the originals are in, for validators and for finding orphans;
    /// `nil` when the originals are not on disk (validators then come from the bytes).
    public let originals: DiskCache?

    /// Thumbnails in `disk`, made from images in `originals`.
    public init(disk: DiskCache, originals: DiskCache?) {
        self.disk = disk
        self.originals = originals
    }

    /// The validator of the original `image`: `etag:…`, `last-modified:…`, or `crc32c:…`
    /// of its bytes. Read from the image cache's entry metadata without its body; from
    /// the bytes in hand when the entry is not on disk.
    public func validator(for image: ImageResponse) -> String {
        if let summary = originals?.summary(forKey: image.cacheKey) {
            return Self.validator(of: summary)
        }
        return "crc32c:" + DiskCache.bodyChecksum(of: image.data)
    }

    /// The validator an image-cache entry has now.
    static func validator(of summary: DiskCache.EntrySummary) -> String {
        if let etag = summary.metadata.etag, !etag.isEmpty { return "etag:" + etag }
        if let lastModified = summary.metadata.lastModified, !lastModified.isEmpty { return "last-modified:" + lastModified }
        return "crc32c:" + summary.bodyChecksum
    }

    /// The key of the thumbnail of the original under `originalKey` with `validator`,
    /// drawn in `style` to fit `cells`.
    public static func key(originalKey: String, validator: String, cells: PixelSize, style: PreviewStyle) -> String {
        "thumbnail r\(renderVersion) \(style.keyComponent) \(cells.width)x\(cells.height) \(validator) \(originalKey)"
    }

    /// The stored preview under `key`, or `nil` (counted as a miss in `cache stats`).
    func preview(forKey key: String, style: PreviewStyle) -> ImagePreview? {
        guard let entry = disk.entry(forKey: key), let cells = Self.cells(entry.metadata.attributes["cells"]) else { return nil }
        return ImagePreview(
            text: String(decoding: entry.data, as: UTF8.self), cells: cells, imageProtocol: style.imageProtocol,
            source: .thumbnail)
    }

    /// Stores `preview` under `key`, made from `image` with `validator`, off the
    /// cooperative pool. A disk that refuses is not an error: the preview was drawn.
    func store(_ preview: ImagePreview, forKey key: String, image: ImageResponse, validator: String) async {
        let metadata = CacheEntryMetadata(
            key: key, url: URLUserInfo.removed(from: image.url.absoluteString), contentType: "text/plain; charset=utf-8", storedAt: Date(),
            attributes: [
                "original": image.cacheKey, "validator": validator, "render": Self.renderVersion,
                "cells": "\(preview.cells.width)x\(preview.cells.height)", "protocol": preview.imageProtocol.rawValue,
            ])
        let disk = disk
        let body = Data(preview.text.utf8)
        try? await disk.performWrite { try disk.store(body, metadata: metadata, forKey: key) }
    }

    /// Bumped when the same original, size and style would now be drawn differently (2:
    /// symbols decoded for the sub-cell grid's aspect; 3: kitty's payload one base64
    /// stream, not chafa's separately padded pieces; 4: symbols from chafa's standard set,
    /// not every symbol; 5: kitty written from the pixels, not by chafa: straight alpha
    /// (chafa's was premultiplied, drawn darker), RGB when opaque, area-averaged). Part of
    /// every key, so thumbnails of an older render are never read again, and
    /// ``isOrphan(_:)`` lets `cache prune` go.
    public static let renderVersion = "5"

    /// Whether the thumbnail with `metadata` can no longer be reached: its original is no
    /// longer in the image cache, or has another validator now (a new `ETag`), or it was
    /// drawn by an older ``renderVersion``.
    public func isOrphan(_ metadata: CacheEntryMetadata) -> Bool {
        guard metadata.attributes["render"] == Self.renderVersion else { return true }
        guard let originals, let original = metadata.attributes["original"],
              let validator = metadata.attributes["validator"] else { return true }
        guard let summary = originals.summary(forKey: original) else { return true }
        return Self.validator(of: summary) != validator
    }

    /// Removes every thumbnail ``isOrphan(_:)`` finds unreachable.
    @discardableResult
    public func removeOrphans() -> DiskCache.RemovalReport {
        disk.removeEntries(where: isOrphan)
    }

    private static func cells(_ text: String?) -> PixelSize? {
        guard let parts = text?.split(separator: "x"), parts.count == 2,
              let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        return PixelSize(width: width, height: height)
    }
}
