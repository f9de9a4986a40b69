import FoundationEssentials

extension ImageDecoder {
    /// Why bytes turned away as an image are not one, to follow "the body (35 bytes,
    /// image/gif)": what the decoder finds wrong with the header of bytes that start like
    /// a supported format (`is not a usable image: GIF image has no pixels (0×0)`), else
    /// `is not a PNG, JPEG, GIF or WebP image`. Reads the header only.
    public static func rejectionReason(for data: Data) -> String {
        let generic = "is not a PNG, JPEG, GIF or WebP image"
        guard ImageFormat(sniffing: data) != nil else { return generic }
        do {
            _ = try ImageDecoder().size(of: data)
            return generic
        } catch {
            return "is not a usable image: \(error.message)"
        }
    }
}
