internal import CCurl
import Foundation

/// Owns one curl easy handle and frees it in `deinit`. Handles are pooled by the engine;
/// the multi handle keeps the connections, so any pooled handle reuses them.
///
/// A handle keeps its options from one transfer to the next: when the next transfer would
/// set the same ones (``profile``), only the per-transfer options are set again, instead of
/// `curl_easy_reset` and some twenty `curl_easy_setopt` calls that free and copy strings.
final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    /// curl's message for the last failure (`CURLOPT_ERRORBUFFER`), owned by the handle.
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// What the options set now were derived from; `nil` after a reset or when the last
    /// transfer set options that must not carry over (a body, another method).
    var profile: TransferProfile?

    init?() {
        CurlGlobal.ensureInitialised()
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        curl_easy_cleanup(raw)
        errorBuffer.deallocate()
    }

    /// Back to curl's defaults (`curl_easy_reset`), with the error buffer attached again.
    func reset() {
        curl_easy_reset(raw)
        profile = nil
        set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
    }

    /// curl's message for the transfer that just failed, if it wrote one.
    var errorMessage: String? {
        errorBuffer.pointee == 0 ? nil : String(cString: errorBuffer)
    }

    // MARK: Options

    func set(_ option: CURLoption, _ value: Int) {
        _ = pf_easy_setopt_long(raw, option, value)
    }

    func set(_ option: CURLoption, offset value: Int64) {
        _ = pf_easy_setopt_off(raw, option, curl_off_t(value))
    }

    /// curl copies string options (since 7.17), so the Swift string need not outlive the call.
    func set(_ option: CURLoption, _ value: String) -> Bool {
        value.withCString { pf_easy_setopt_string(raw, option, $0) } == CURLE_OK
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) {
        _ = pf_easy_setopt_pointer(raw, option, value)
    }

    func set(_ option: CURLoption, list value: UnsafeMutablePointer<curl_slist>?) {
        _ = pf_easy_setopt_slist(raw, option, value)
    }

    func set(_ option: CURLoption, callback: pf_curl_data_callback) {
        _ = pf_easy_setopt_data_callback(raw, option, callback)
    }

    // MARK: Info

    func long(_ info: CURLINFO) -> Int {
        var value = 0
        _ = pf_easy_getinfo_long(raw, info, &value)
        return value
    }

    func offset(_ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        _ = pf_easy_getinfo_off(raw, info, &value)
        return Int64(value)
    }

    func string(_ info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard pf_easy_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// Microseconds from a `*_TIME_T` info as a `Duration`.
    func duration(_ info: CURLINFO) -> Duration {
        .microseconds(offset(info))
    }
}
