internal import CCurl
import Foundation
import Logging

/// Turns a finished easy handle into a result: metrics on success, a typed error that
/// keeps curl's code and message otherwise.
enum CurlOutcomeMapper {
    static func result(of transfer: Transfer, easy: EasyHandle, code: CURLcode)
        -> Result<TransferOutcome, HTTPClientError>
    {
        let url = transfer.request.url
        if code == CURLE_OK {
            let metrics = metrics(of: easy, transfer: transfer)
            // Without a redirect the URL that answered is the one requested: no need to
            // parse curl's copy of it.
            let effective = metrics.redirectCount == 0
                ? url : easy.string(CURLINFO_EFFECTIVE_URL).flatMap(URL.init(string:)) ?? url
            return .success(transfer.outcome(effectiveURL: effective, metrics: metrics))
        }
        // A callback stopped the transfer on purpose: its reason beats curl's generic code.
        if let reason = transfer.abortReason { return .failure(reason) }

        let curlCode = Int(code.rawValue)
        var message = easy.errorMessage ?? String(cString: curl_easy_strerror(code))
        // curl quotes a proxy URL it cannot read as it was given, credentials included
        // ("Unsupported proxy syntax in 'http://me:pa ss@host:1'"): never keep them.
        if let proxy = transfer.settings.proxy, !proxy.isEmpty, message.contains(proxy) {
            message = message.replacingOccurrences(of: proxy, with: HTTPProxySettings.displayed(proxy))
        }
        message = URLUserInfo.removed(from: message)
        func error(_ kind: HTTPClientError.Code, timeout: HTTPClientError.Timeout? = nil, detail: String? = nil)
            -> Result<TransferOutcome, HTTPClientError>
        {
            .failure(HTTPClientError(kind, url: url, curlCode: curlCode, curlMessage: message, timeout: timeout, detail: detail))
        }
        if let proxy = transfer.settings.proxy, isProxyFailure(code, easy: easy, transfer: transfer) {
            return .failure(HTTPClientError(
                .proxy, url: url, curlCode: curlCode, curlMessage: message, detail: HTTPProxySettings.displayed(proxy)))
        }
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            // A reused connection has no connect time either; the request having gone out
            // (pre-transfer time set) tells a connection in hand from one still connecting.
            if easy.offset(CURLINFO_CONNECT_TIME_T) == 0 && easy.offset(CURLINFO_PRETRANSFER_TIME_T) == 0
                && transfer.status == 0
            {
                return error(.timedOut, timeout: .connect)
            }
            // Stalls are failed by the engine (StallWatch), never by curl.
            return error(.timedOut, timeout: .total)
        case CURLE_COULDNT_RESOLVE_HOST:
            // The name curl failed on: after a redirect, the target's, not the request's.
            let failed = easy.string(CURLINFO_EFFECTIVE_URL).flatMap { URL(string: $0)?.host } ?? url.host
            return error(.cannotResolve, detail: failed)
        case CURLE_COULDNT_RESOLVE_PROXY:
            // Only with a proxy set, which `isProxyFailure` reports above; kept apart from
            // `.cannotConnect` all the same, so it is never retried.
            return error(.cannotResolve, detail: transfer.settings.proxy.map(HTTPProxySettings.displayed) ?? "of the proxy")
        case CURLE_COULDNT_CONNECT:
            return error(.cannotConnect)
        case CURLE_TOO_MANY_REDIRECTS:
            return error(.tooManyRedirects, detail: "limit \(transfer.settings.maximumRedirects)")
        case CURLE_UNSUPPORTED_PROTOCOL:
            let target = easy.string(CURLINFO_REDIRECT_URL) ?? easy.string(CURLINFO_EFFECTIVE_URL)
            return error(.unsupportedScheme, detail: target.map { "refused \($0)" })
        case CURLE_URL_MALFORMAT:
            return error(.invalidURL)
        case CURLE_FILESIZE_EXCEEDED:
            return .failure(HTTPClientError(
                .bodyTooLarge, url: url, curlCode: curlCode, curlMessage: message,
                detail: HTTPClientError.binarySize(transfer.settings.maximumBodySize)))
        case CURLE_PARTIAL_FILE:
            return error(.truncatedBody)
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            // Data already received means the body was cut short, not that nothing came.
            return error(transfer.status != 0 ? .truncatedBody : .connectionLost)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
            CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH:
            return error(.tls)
        case CURLE_ABORTED_BY_CALLBACK:
            return error(.cancelled)
        default:
            return error(.curl)
        }
    }

    /// Whether a failed transfer failed at its proxy: the proxy's name did not resolve, it
    /// refused the connection (curl connects to nothing else when a proxy is in use), its
    /// handshake failed, or it answered a tunnel's `CONNECT` with an error.
    private static func isProxyFailure(_ code: CURLcode, easy: EasyHandle, transfer: Transfer) -> Bool {
        switch code {
        case CURLE_COULDNT_RESOLVE_PROXY, CURLE_PROXY:
            return true
        case CURLE_COULDNT_CONNECT:
            let settings = HTTPProxySettings(noProxy: transfer.settings.noProxy)
            return !settings.bypasses(host: transfer.request.url.host)
        default:
            let connect = easy.long(CURLINFO_HTTP_CONNECTCODE)
            return connect != 0 && !(200..<300).contains(connect)
        }
    }

    static func metrics(of easy: EasyHandle, transfer: Transfer) -> HTTPMetrics {
        let version: String
        switch easy.long(CURLINFO_HTTP_VERSION) {
        case Int(CURL_HTTP_VERSION_1_0): version = "1.0"
        case Int(CURL_HTTP_VERSION_2_0): version = "2"
        case Int(CURL_HTTP_VERSION_3): version = "3"
        default: version = "1.1"
        }
        return HTTPMetrics(
            nameLookup: easy.duration(CURLINFO_NAMELOOKUP_TIME_T),
            connect: easy.duration(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: easy.duration(CURLINFO_APPCONNECT_TIME_T),
            timeToFirstByte: easy.duration(CURLINFO_STARTTRANSFER_TIME_T),
            total: easy.duration(CURLINFO_TOTAL_TIME_T),
            bytesReceived: transfer.byteCount,
            httpVersion: version,
            reusedConnection: easy.long(CURLINFO_NUM_CONNECTS) == 0,
            redirectCount: easy.long(CURLINFO_REDIRECT_COUNT))
    }

    static func logMetadata(_ metrics: HTTPMetrics) -> Logger.Metadata {
        [
            "dns": "\(metrics.nameLookup)", "connect": "\(metrics.connect)", "tls": "\(metrics.tlsHandshake)",
            "ttfb": "\(metrics.timeToFirstByte)", "total": "\(metrics.total)", "bytes": "\(metrics.bytesReceived)",
            "http": "\(metrics.httpVersion)", "reused": "\(metrics.reusedConnection)",
        ]
    }
}
