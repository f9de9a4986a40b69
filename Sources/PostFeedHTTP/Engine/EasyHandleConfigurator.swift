internal import CCurl
import Foundation

/// Sets the options of one transfer on a pooled easy handle.
enum EasyHandleConfigurator {
    /// Only these protocols, on the first request and on every redirect.
    static let allowedProtocols = "http,https"

    /// Returns an error when the request cannot be expressed (bad URL or header).
    ///
    /// A handle whose options were set for the same ``TransferProfile`` keeps them: only
    /// the URL, the callbacks' context and the header list change from one such transfer to
    /// the next. Anything else starts from `curl_easy_reset`.
    static func configure(_ easy: EasyHandle, for transfer: Transfer) -> HTTPClientError? {
        let request = transfer.request
        let profile = TransferProfile(transfer)
        if profile == nil || easy.profile != profile {
            easy.reset()
            if let failure = setSharedOptions(easy, for: transfer) { return failure }
            easy.profile = profile
        }
        easy.errorBuffer.pointee = 0
        guard easy.set(CURLOPT_URL, request.url.absoluteString) else {
            return HTTPClientError(.invalidURL, url: request.url)
        }
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        easy.set(CURLOPT_WRITEDATA, pointer: context)
        easy.set(CURLOPT_HEADERDATA, pointer: context)
        return setHeaders(easy, for: transfer)
    }

    /// Detaches a finished transfer's pointers (its callbacks' context and header list) so
    /// a pooled handle points at nothing that is freed.
    static func detach(_ easy: EasyHandle) {
        easy.set(CURLOPT_WRITEDATA, pointer: nil)
        easy.set(CURLOPT_HEADERDATA, pointer: nil)
        easy.set(CURLOPT_HTTPHEADER, list: nil)
    }

    /// Every option that depends on the client's settings and the request's method and
    /// body, not on the request's URL or headers.
    private static func setSharedOptions(_ easy: EasyHandle, for transfer: Transfer) -> HTTPClientError? {
        let request = transfer.request
        let settings = transfer.settings
        easy.set(CURLOPT_NOSIGNAL, 1)
        easy.set(CURLOPT_WRITEFUNCTION, callback: transferWriteCallback)
        easy.set(CURLOPT_HEADERFUNCTION, callback: transferHeaderCallback)

        // Scheme allow-list, also for redirects: a 302 to file:///etc/passwd must fail.
        _ = easy.set(CURLOPT_PROTOCOLS_STR, allowedProtocols)
        _ = easy.set(CURLOPT_REDIR_PROTOCOLS_STR, allowedProtocols)
        easy.set(CURLOPT_FOLLOWLOCATION, settings.maximumRedirects > 0 ? 1 : 0)
        easy.set(CURLOPT_MAXREDIRS, settings.maximumRedirects)

        easy.set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(settings.timeouts.connect))
        easy.set(CURLOPT_TIMEOUT_MS, milliseconds(settings.timeouts.total))
        // No CURLOPT_LOW_SPEED_*: curl judges whole seconds of average speed and fired up to
        // 6 s late; the engine keeps the stall timeout itself (StallWatch).
        // A HEAD response announces a body it does not send: curl would still refuse a
        // Content-Length over the limit.
        if request.method != .head {
            easy.set(CURLOPT_MAXFILESIZE_LARGE, offset: Int64(settings.maximumBodySize))
        }
        easy.set(CURLOPT_TCP_KEEPALIVE, 1)
        easy.set(CURLOPT_HTTP_VERSION, Int(settings.preferHTTP2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1))
        if settings.preferHTTP2, transfer.origin.isHTTPS {
            // A burst of requests to a host not yet connected waits for the first connection's
            // ALPN answer and then shares it as HTTP/2 streams, instead of opening one TLS
            // connection each. (Not for http://, which never multiplexes: it would only delay.)
            easy.set(CURLOPT_PIPEWAIT, 1)
        }
        if let file = settings.trustedCertificatesFile, !easy.set(CURLOPT_CAINFO, file) {
            return HTTPClientError(.tls, url: request.url, detail: "cannot use the certificate file \(file)")
        }
        if settings.acceptEncoding {
            // "" = every encoding this libcurl was built with (gzip, deflate, br, zstd).
            _ = easy.set(CURLOPT_ACCEPT_ENCODING, "")
        }
        _ = easy.set(CURLOPT_USERAGENT, settings.userAgent)
        // Always set, so libcurl never reads the proxy variables itself: the choice is
        // HTTPProxySettings' (an explicit proxy wins over the environment; "" is none).
        _ = easy.set(CURLOPT_PROXY, settings.proxy ?? "")
        _ = easy.set(CURLOPT_NOPROXY, settings.noProxy ?? "")

        switch request.method {
        case .get:
            easy.set(CURLOPT_HTTPGET, 1)
        case .head:
            easy.set(CURLOPT_NOBODY, 1)
        default:
            _ = easy.set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }
        if let body = request.body {
            easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
            // COPYPOSTFIELDS: curl keeps its own copy, so `body` need not outlive this call.
            let copied = body.withUnsafeBytes { bytes -> Bool in
                pf_easy_setopt_pointer(easy.raw, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress)) == CURLE_OK
            }
            if !copied { return HTTPClientError(.curl, url: request.url, detail: "cannot attach the request body") }
        }
        return nil
    }

    /// The request's own header fields, as a list the transfer frees when it ends.
    private static func setHeaders(_ easy: EasyHandle, for transfer: Transfer) -> HTTPClientError? {
        let request = transfer.request
        var list: UnsafeMutablePointer<curl_slist>?
        for field in request.headers {
            guard !field.name.contains(where: { $0 == ":" || $0.isNewline }),
                !field.value.contains(where: \.isNewline)
            else {
                if let list { curl_slist_free_all(list) }
                return HTTPClientError(.invalidURL, url: request.url, detail: "header \(field.name) is malformed")
            }
            guard let appended = curl_slist_append(list, "\(field.name): \(field.value)") else { continue }
            list = appended
        }
        // Disable curl's automatic `Expect: 100-continue` for bodies.
        if request.body != nil, request.headers["Expect"] == nil, let appended = curl_slist_append(list, "Expect:") {
            list = appended
        }
        transfer.headerList = list
        easy.set(CURLOPT_HTTPHEADER, list: list)
        return nil
    }

    /// `duration` in whole milliseconds, at least 1 and at most a year: curl takes a `long`,
    /// and a caller's `Duration` may hold any number of seconds.
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        let year: Int64 = 365 * 86_400
        guard seconds < year else { return Int(year * 1000) }
        return max(1, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }
}

/// What a handle's shared options were set from. Two GET transfers without a body and with
/// equal settings set exactly the same shared options; other methods and bodies set options
/// (`CURLOPT_NOBODY`, `CURLOPT_CUSTOMREQUEST`, `CURLOPT_COPYPOSTFIELDS`…) that are not worth
/// undoing one by one, so they have no profile and always start from a reset.
struct TransferProfile: Equatable {
    var settings: TransferSettings
    var isHTTPS: Bool

    init?(_ transfer: Transfer) {
        guard transfer.request.method == .get, transfer.request.body == nil else { return nil }
        settings = transfer.settings
        isHTTPS = transfer.origin.isHTTPS
    }
}
