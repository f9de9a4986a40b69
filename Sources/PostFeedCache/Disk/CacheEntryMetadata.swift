import Foundation

/// What the disk cache stores beside an entry's bytes, in the entry file itself.
///
/// The cache reads only ``key`` (checked on every read), ``expiresAt`` (``DiskCache/prune()``)
/// and ``storedAt`` (statistics); everything else is the caller's, e.g. validators for a
/// conditional request or an image's size in ``attributes``.
///
/// ```swift
/// let metadata = CacheEntryMetadata(
///     key: url.absoluteString, url: url.absoluteString, etag: "\"v1\"",
///     contentType: "image/jpeg", expiresAt: now.addingTimeInterval(3600), storedAt: now,
///     attributes: ["width": "640", "height": "480"])
/// ```
public struct CacheEntryMetadata: Codable, Sendable, Equatable {
    /// The entry's key, e.g. the normalized URL. The cache sets it to the `forKey` argument.
    public var key: String
    /// The URL the body came from.
    public var url: String?
    /// The `ETag` validator.
    public var etag: String?
    /// The `Last-Modified` validator.
    public var lastModified: String?
    /// The `Content-Type` of the body.
    public var contentType: String?
    /// When the body stops being fresh (from `Cache-Control`/`Expires`, computed by the
    /// caller). When `nil` at store time, the cache sets `storedAt + defaultTTL`.
    public var expiresAt: Date?
    /// When the body was fetched.
    public var storedAt: Date
    /// Free-form values, e.g. image width and height.
    public var attributes: [String: String]

    /// Creates metadata; see the properties for each field.
    public init(
        key: String,
        url: String? = nil,
        etag: String? = nil,
        lastModified: String? = nil,
        contentType: String? = nil,
        expiresAt: Date? = nil,
        storedAt: Date,
        attributes: [String: String] = [:]
    ) {
        self.key = key
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.expiresAt = expiresAt
        self.storedAt = storedAt
        self.attributes = attributes
    }

    private enum CodingKeys: String, CodingKey {
        case key, url, etag, lastModified, contentType, expiresAt, storedAt, attributes
    }

    /// Tolerates missing optional fields so that entries written by a build that knew
    /// fewer fields still read.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        etag = try container.decodeIfPresent(String.self, forKey: .etag)
        lastModified = try container.decodeIfPresent(String.self, forKey: .lastModified)
        contentType = try container.decodeIfPresent(String.self, forKey: .contentType)
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        storedAt = try container.decode(Date.self, forKey: .storedAt)
        attributes = try container.decodeIfPresent([String: String].self, forKey: .attributes) ?? [:]
    }
}
