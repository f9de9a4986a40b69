internal import CCurl
import Foundation
import Synchronization

/// Settings a transfer runs with: the request's overrides merged over the client's.
struct TransferSettings: Sendable, Equatable {
    var timeouts: HTTPTimeouts
    var maximumBodySize: Int
    var maximumRedirects: Int
    var acceptEncoding: Bool
    var userAgent: String
    var preferHTTP2: Bool
    var trustedCertificatesFile: String?
    /// The proxy for this request's scheme (`nil`: direct), and the hosts reached directly.
    var proxy: String?
    var noProxy: String?
}

/// The scheme, host and port a request goes to, read from its URL once per request.
///
/// Read from the URL's text in one pass: Foundation's `scheme`, `host` and `port` each
/// parse and percent-decode again, and cost more than the rest of a request's set-up.
struct Origin: Sendable {
    /// `scheme://host[:port]` as written (scheme lowercased): the key of the per-host
    /// connection cap.
    let key: String
    let isHTTPS: Bool
    /// The host is an IPv4 or IPv6 address (`127.0.0.1`, `[::1]`): nothing to look up.
    let hostIsAddress: Bool

    /// Refuses URLs the engine must not fetch: a scheme other than http and https, no host.
    init(_ url: URL) throws(HTTPClientError) {
        var text = url.absoluteString
        let parsed = text.withUTF8 { Self.parse($0) }
        switch parsed {
        case .unsupportedScheme:
            throw HTTPClientError(.unsupportedScheme, url: url, detail: "scheme \(url.scheme ?? "none")")
        case .noHost:
            throw HTTPClientError(.invalidURL, url: url, detail: "no host")
        case .origin(let key, let isHTTPS, let hostIsAddress):
            self.key = key
            self.isHTTPS = isHTTPS
            self.hostIsAddress = hostIsAddress
        }
    }

    private enum Parsed {
        case origin(key: String, isHTTPS: Bool, hostIsAddress: Bool)
        case unsupportedScheme
        case noHost
    }

    /// `scheme ":" "//" [userinfo "@"] host [":" port]`, up to the path, query or fragment.
    private static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Parsed {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { return .unsupportedScheme }
        let scheme = UnsafeBufferPointer(rebasing: text[..<colon])
        let isHTTPS: Bool
        if equalIgnoringASCIICase(scheme, "https".utf8) {
            isHTTPS = true
        } else if equalIgnoringASCIICase(scheme, "http".utf8) {
            isHTTPS = false
        } else {
            return .unsupportedScheme
        }
        let slashes = colon + 1
        guard text.count >= slashes + 2, text[slashes] == UInt8(ascii: "/"), text[slashes + 1] == UInt8(ascii: "/")
        else { return .noHost }
        var start = slashes + 2
        var end = start
        while end < text.count, text[end] != UInt8(ascii: "/"), text[end] != UInt8(ascii: "?"), text[end] != UInt8(ascii: "#") {
            if text[end] == UInt8(ascii: "@") { start = end + 1 }  // past the userinfo
            end += 1
        }
        let authority = UnsafeBufferPointer(rebasing: text[start..<end])
        // The host is what precedes the port; "[::1]:8080" keeps its brackets.
        let hostEnd = authority.lastIndex(of: UInt8(ascii: ":")).flatMap { index in
            authority[index...].contains(UInt8(ascii: "]")) ? nil : index
        } ?? authority.endIndex
        guard hostEnd > authority.startIndex else { return .noHost }
        let host = authority[..<hostEnd]
        let hostIsAddress = host.first == UInt8(ascii: "[")
            || host.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: ".") }
        return .origin(
            key: (isHTTPS ? "https://" : "http://") + String(decoding: authority, as: UTF8.self), isHTTPS: isHTTPS,
            hostIsAddress: hostIsAddress)
    }
}

/// Where a transfer's body goes.
enum BodySink {
    case memory
    /// A file made by `destination`, whose descriptor the transfer owns until it finishes.
    case file(DownloadFile, destination: any DownloadDestination)
}

/// What a finished transfer hands back to the client.
struct TransferOutcome: Sendable {
    var status: Int
    var headers: HTTPHeaders
    var effectiveURL: URL
    var body: Data
    /// The download's file (file sink), closed; removed through `destination` by ``discardFile()``.
    var file: DownloadFile?
    var destination: (any DownloadDestination)?
    var byteCount: Int
    var metrics: HTTPMetrics

    /// Removes the downloaded file, if any (a retried attempt's).
    func discardFile() {
        if let file, let destination { destination.removeFile(file) }
    }
}

/// One request in flight. Everything but `cancelFlag` is touched only on the engine's
/// thread once submitted (the inbox's lock orders the hand-over), hence `@unchecked`.
final class Transfer: @unchecked Sendable {
    typealias Completion = UnsafeContinuation<Result<TransferOutcome, HTTPClientError>, Never>

    let id: UInt64
    let request: HTTPRequest
    let settings: TransferSettings
    let origin: Origin
    let sink: BodySink
    private let cancelFlag = Atomic<Bool>(false)

    // MARK: Engine-thread state
    var completion: Completion?
    var easy: EasyHandle?
    var headerList: UnsafeMutablePointer<curl_slist>?
    private(set) var status = 0
    /// The current response's header fields, as received.
    private(set) var headers = WireHeaderFields()
    /// The body so far, in memory from the client's buffer pool (memory sink only).
    private var body: PooledBody
    private(set) var byteCount = 0
    /// Header bytes received so far, across redirects (as curl counts them).
    private var headerBytes = 0
    /// More header bytes than any sane response sends (curl itself stops at 300 KB, calling
    /// it a broken connection): the transfer stops with ``HTTPClientError/Code/headersTooLarge``.
    static let maximumHeaderBytes = 256 << 10
    /// The final response's `Content-Length` (compressed size when encoded).
    private(set) var announcedLength: Int?
    /// Set when a callback aborted the transfer on purpose; explains the curl error.
    private(set) var abortReason: HTTPClientError?
    /// When the last header or body byte arrived; `nil` before the first. What the stall
    /// timeout is measured from (see ``StallWatch``).
    private(set) var lastByteAt: ContinuousClock.Instant?
    /// When the engine added the transfer to the multi handle.
    var startedAt: ContinuousClock.Instant?

    init(
        id: UInt64, request: HTTPRequest, origin: Origin, settings: TransferSettings, sink: BodySink,
        bodyBuffers: BodyBufferPool
    ) {
        self.id = id
        self.body = PooledBody(pool: bodyBuffers)
        self.request = request
        self.settings = settings
        self.sink = sink
        self.origin = origin
    }

    deinit {
        if let headerList { curl_slist_free_all(headerList) }
    }

    var isCancelled: Bool { cancelFlag.load(ordering: .acquiring) }

    func markCancelled() {
        cancelFlag.store(true, ordering: .releasing)
    }

    // MARK: Callbacks (engine thread, inside curl_multi_perform)

    /// One header line. A status line starts a new response (redirects, `100 Continue`),
    /// so the headers collected so far are dropped.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastByteAt = .now
        headerBytes += bytes.count
        guard headerBytes <= Self.maximumHeaderBytes else {
            abortReason = HTTPClientError(
                .headersTooLarge, url: request.url, detail: "over \(HTTPClientError.binarySize(Self.maximumHeaderBytes))")
            return false
        }
        switch HeaderLine(bytes) {
        case .status(let code):
            headers = WireHeaderFields()
            announcedLength = nil
            status = code
        case .field(let name, let value, let isContentLength):
            headers.append(name: UnsafeRawBufferPointer(rebasing: bytes[name]), value: UnsafeRawBufferPointer(rebasing: bytes[value]))
            guard isContentLength, let length = HeaderLine.integer(bytes, value) else { break }
            announcedLength = length
            // Refuse a declared body over the limit before a byte of it arrives. Redirect
            // responses' bodies are skipped by curl, so only judge a final (non-3xx) status;
            // a HEAD response has no body whatever its Content-Length says.
            if request.method != .head, !(300..<400).contains(status), length > settings.maximumBodySize {
                abortReason = bodyTooLarge()
                return false
            }
        case .other:
            break
        }
        return true
    }

    /// A chunk of the body. Returning fewer bytes than given makes curl abort.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        lastByteAt = .now
        if isCancelled {
            abortReason = HTTPClientError(.cancelled, url: request.url)
            return 0
        }
        guard byteCount + bytes.count <= settings.maximumBodySize else {
            abortReason = bodyTooLarge()
            return 0
        }
        switch sink {
        case .memory:
            body.append(bytes, expectedTotal: announcedLength)
        case .file(let file, _):
            let descriptor = file.descriptor
            var offset = 0
            while offset < bytes.count, let base = bytes.baseAddress {
                let written = write(descriptor, base + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    abortReason = HTTPClientError(
                        .fileSystem, url: request.url, detail: String(cString: strerror(errno)))
                    return 0
                }
                offset += written
            }
        }
        byteCount += bytes.count
        return bytes.count
    }

    private func bodyTooLarge() -> HTTPClientError {
        HTTPClientError(.bodyTooLarge, url: request.url, detail: HTTPClientError.binarySize(settings.maximumBodySize))
    }

    // MARK: Completion

    /// Resumes the caller exactly once; later calls do nothing.
    func finish(_ result: Result<TransferOutcome, HTTPClientError>) {
        if case .file(let file, let destination) = sink {
            close(file.descriptor)
            if case .failure = result { destination.removeFile(file) }
        }
        let completion = self.completion
        self.completion = nil
        completion?.resume(returning: result)
    }

    /// The finished transfer's result; call once (the body moves into it).
    func outcome(effectiveURL: URL, metrics: HTTPMetrics) -> TransferOutcome {
        var file: DownloadFile?
        var destination: (any DownloadDestination)?
        if case .file(let made, let madeBy) = sink { (file, destination) = (made, madeBy) }
        return TransferOutcome(
            status: status, headers: HTTPHeaders(wire: headers), effectiveURL: effectiveURL, body: body.takeData(), file: file,
            destination: destination, byteCount: byteCount, metrics: metrics)
    }
}

// MARK: - C callbacks

/// `CURLOPT_WRITEFUNCTION`: the context is the unretained `Transfer` (the engine keeps it
/// alive while it is in the multi handle), borrowed without retain and release: this runs
/// once per chunk read from the socket.
let transferWriteCallback: pf_curl_data_callback = { data, size, count, context in
    guard let context else { return 0 }
    return Unmanaged<Transfer>.fromOpaque(context)._withUnsafeGuaranteedRef {
        $0.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
    }
}

/// `CURLOPT_HEADERFUNCTION`: one complete header line per call.
let transferHeaderCallback: pf_curl_data_callback = { data, size, count, context in
    guard let context else { return 0 }
    let length = size * count
    return Unmanaged<Transfer>.fromOpaque(context)._withUnsafeGuaranteedRef {
        $0.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
    }
}
