import Foundation

/// Which proxy requests go through: libcurl's proxy support (HTTP, HTTPS, SOCKS proxies,
/// credentials in the proxy URL), with the choice made here and not left to libcurl's own
/// reading of the environment.
///
/// - ``environment(_:)`` (the default of ``HTTPClient/Configuration/proxy``) reads the usual
///   variables, the lower-case name first: `http_proxy`/`HTTP_PROXY` for `http://` URLs,
///   `https_proxy`/`HTTPS_PROXY` for `https://`, `all_proxy`/`ALL_PROXY` for both when the
///   scheme's own is unset, and `no_proxy`/`NO_PROXY`. (libcurl alone would ignore
///   `HTTP_PROXY` in capitals.)
/// - ``proxy(_:noProxy:)`` is one proxy for every URL (the CLI's `--proxy`): it wins over the
///   proxy variables; `NO_PROXY` still applies. An empty URL means no proxy at all.
/// - ``direct`` never uses a proxy.
///
/// `NO_PROXY` is a comma-separated list of host names (a name also covers its subdomains;
/// a leading dot is allowed), IP addresses, or `*` for every host; libcurl matches it.
///
/// A proxy URL may carry credentials (`http://user:password@proxy:3128`), which libcurl sends
/// to the proxy; ``displayed(_:)`` is the form every message and log uses, without them.
///
/// ```swift
/// var configuration = HTTPClient.Configuration()
/// configuration.proxy = .proxy("http://127.0.0.1:3128")
/// ```
public struct HTTPProxySettings: Sendable, Hashable {
    /// The proxy for `http://` URLs; `nil` goes direct.
    public var http: String?
    /// The proxy for `https://` URLs (a `CONNECT` tunnel through an HTTP proxy); `nil` goes direct.
    public var https: String?
    /// Hosts reached directly whatever the proxies (the `NO_PROXY` list); `nil` for none.
    public var noProxy: String?
    /// Where the proxies came from, for messages: `--proxy`, `HTTPS_PROXY`…
    public var origin: String

    /// Proxies as given; empty strings count as none.
    public init(http: String? = nil, https: String? = nil, noProxy: String? = nil, origin: String = "configuration") {
        self.http = http.flatMap { $0.isEmpty ? nil : $0 }
        self.https = https.flatMap { $0.isEmpty ? nil : $0 }
        self.noProxy = noProxy.flatMap { $0.isEmpty ? nil : $0 }
        self.origin = origin
    }

    /// No proxy for any request, whatever the environment says.
    public static let direct = HTTPProxySettings(origin: "none")

    /// `url` for every request (`""`: none at all), hosts in `noProxy` excepted.
    public static func proxy(_ url: String, noProxy: String? = nil, origin: String = "configuration") -> HTTPProxySettings {
        HTTPProxySettings(http: url, https: url, noProxy: noProxy, origin: origin)
    }

    /// The proxies the environment names (see the type's documentation).
    public static func environment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> HTTPProxySettings {
        func value(_ name: String) -> (String, String)? {
            for candidate in [name.lowercased(), name.uppercased()] {
                if let value = environment[candidate]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                    return (value, candidate)
                }
            }
            return nil
        }
        let all = value("all_proxy")
        let http = value("http_proxy") ?? all
        let https = value("https_proxy") ?? all
        let names = [http?.1, https?.1].compactMap { $0 }
        return HTTPProxySettings(
            http: http?.0, https: https?.0, noProxy: value("no_proxy")?.0,
            origin: names.isEmpty ? "environment" : Array(Set(names)).sorted().joined(separator: ", "))
    }

    /// The only variable ``environment(_:)`` reads that applies also with an explicit proxy.
    public static func noProxy(in environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        for name in ["no_proxy", "NO_PROXY"] {
            if let value = environment[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return value }
        }
        return nil
    }

    /// Whether any request may go through a proxy.
    public var usesProxy: Bool { http != nil || https != nil }

    /// The proxy for a URL of that scheme, before `NO_PROXY` (which libcurl applies).
    func proxy(forHTTPS isHTTPS: Bool) -> String? {
        isHTTPS ? https : http
    }

    /// Whether `host` is on the `NO_PROXY` list: `*`, the host itself, or a domain it is in.
    public func bypasses(host: String?) -> Bool {
        guard let noProxy, let host = host?.lowercased(), !host.isEmpty else { return false }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        for entry in noProxy.split(separator: ",") {
            var name = entry.trimmingCharacters(in: .whitespaces).lowercased()
            if name == "*" { return true }
            while name.hasPrefix(".") { name.removeFirst() }
            guard !name.isEmpty else { continue }
            if bare == name || bare.hasSuffix("." + name) { return true }
        }
        return false
    }

    /// `proxy` as messages and logs show it: without `user:password@` (and with the
    /// `http://` libcurl assumes when it names no scheme).
    public static func displayed(_ proxy: String) -> String {
        let withScheme = proxy.contains("://") ? proxy : "http://" + proxy
        // A proxy URL is one host: whatever stands before its last '@' is credentials, even
        // with characters a URL does not allow there.
        return URLUserInfo.removed(fromTypedURL: withScheme)
    }

    /// One line for `--verbose`: which proxies, from where, and the exceptions.
    public var summary: String {
        guard usesProxy else { return "no proxy (\(origin))" }
        var parts: [String] = []
        if http == https, let http {
            parts.append("through the proxy \(Self.displayed(http))")
        } else {
            if let http { parts.append("http:// through the proxy \(Self.displayed(http))") }
            if let https { parts.append("https:// through the proxy \(Self.displayed(https))") }
        }
        let exceptions = noProxy.map { "; not for NO_PROXY hosts \($0)" } ?? ""
        return "requests go " + parts.joined(separator: ", ") + " (from \(origin))" + exceptions
    }
}
