import ArgumentParser
import Foundation
import PostFeedHTTP

/// `--proxy URL`: one proxy for every request, over the proxy variables of the
/// environment; `NO_PROXY` still applies; `--proxy ""` goes direct.
enum ProxyOption {
    /// Schemes libcurl speaks to a proxy with.
    static let schemes: Set<String> = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

    /// Refuses a value libcurl would not read as a proxy. Messages never show its credentials.
    static func validate(_ value: String) throws {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        let shown = HTTPProxySettings.displayed(trimmed)
        let withScheme = trimmed.contains("://") ? trimmed : "http://" + trimmed
        guard let url = URL(string: withScheme), let scheme = url.scheme?.lowercased(), schemes.contains(scheme),
            let host = url.host, !host.isEmpty
        else {
            throw ValidationError(
                "--proxy '\(shown)' is not a proxy URL; use e.g. http://127.0.0.1:3128 (also https://, socks5h://), or \"\" for none.")
        }
        if let port = url.port, !(1...65_535).contains(port) {
            throw ValidationError("--proxy '\(shown)' has port \(port), out of range; use 1…65535.")
        }
    }

    /// The client's proxy settings for `--proxy value`.
    static func settings(_ value: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> HTTPProxySettings
    {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return HTTPProxySettings(origin: "--proxy \"\"") }
        return .proxy(trimmed, noProxy: HTTPProxySettings.noProxy(in: environment), origin: "--proxy")
    }
}
