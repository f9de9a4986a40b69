/// The image formats PostFeed decodes, recognized from their first bytes.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp, gif

    /// The format the bytes start like, or nil.
    public init?<Bytes: Collection<UInt8>>(sniffing bytes: Bytes) {
        let head = Array(bytes.prefix(12))
        func starts(_ signature: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + signature.count && Array(head[offset..<offset + signature.count]) == signature
        }
        if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) {
            self = .webp
        } else if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) {
            self = .gif
        } else {
            return nil
        }
    }
}
