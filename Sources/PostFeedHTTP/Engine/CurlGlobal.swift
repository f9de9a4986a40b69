internal import CCurl

/// `curl_global_init` must run once per process, before any other curl call, and is not
/// thread-safe itself: a `static let` gives exactly-once initialisation.
enum CurlGlobal {
    private static let initialised: Bool = curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK

    /// Runs `curl_global_init` if it has not run yet; returns whether it succeeded.
    @discardableResult
    static func ensureInitialised() -> Bool { initialised }

    /// The libcurl version string, e.g. `libcurl/7.88.1 OpenSSL/3.0.15 zlib/1.2.13 brotli/1.0.9`.
    static var version: String {
        ensureInitialised()
        return curl_version().map { String(cString: $0) } ?? "libcurl"
    }
}
