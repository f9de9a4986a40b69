import Hummingbird

/// Absolute URLs for links, built from the request's `Host` so that they work from wherever
/// the client reached the server.
struct RequestURL {
    /// `http://<Host>`; the bound address when the request had no `Host`.
    let origin: String

    init(request: Request, fallbackAuthority: String) {
        let authority = request.head.authority ?? fallbackAuthority
        self.origin = "http://" + authority
    }

    /// `origin + path + ?query`, with the query built from ordered name/value pairs.
    func url(path: String, query: [(String, String)]) -> String {
        guard !query.isEmpty else { return origin + path }
        let encoded = query.map { "\(Self.percentEncode($0.0))=\(Self.percentEncode($0.1))" }
        return origin + path + "?" + encoded.joined(separator: "&")
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func percentEncode(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return output
    }
}
