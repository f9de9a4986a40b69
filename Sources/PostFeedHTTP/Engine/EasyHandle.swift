internal import CCurl
import Foundation

/// Owns one curl easy handle and frees it in `deinit`. Handles are pooled by the engine
/// and reset between transfers; the multi handle keeps the connections, so a reset handle
/// still reuses them.
final class EasyHandle {
    let raw: UnsafeMutableRawPointer

    init?() {
        CurlGlobal.ensureInitialised()
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
    }

    deinit {
        curl_easy_cleanup(raw)
    }

    func reset() {
        curl_easy_reset(raw)
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
