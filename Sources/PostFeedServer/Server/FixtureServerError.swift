import Foundation

/// Why the fixture server could not start or serve its data.
///
/// A struct over a private code, so cases can be added without breaking users; every message
/// names the file or setting involved and what to do about it.
public struct FixtureServerError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case missingFile
        case unreadableData
        case invalidConfiguration
        case stoppedBeforeStarting
        case portInUse
    }

    private let code: Code
    /// A one-line explanation that names what failed and what to do.
    public let message: String

    private init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The same as ``message``.
    public var description: String { message }

    /// The port asked for was taken (by another server, or one still closing).
    public var isPortInUse: Bool { code == .portInUse }

    /// A file or directory the server needs does not exist.
    public static func missingFile(_ url: URL, hint: String) -> FixtureServerError {
        FixtureServerError(.missingFile, "\(url.path) does not exist: \(hint)")
    }

    /// A data file exists but cannot be read or parsed.
    public static func unreadableData(_ url: URL, reason: String) -> FixtureServerError {
        FixtureServerError(.unreadableData, "cannot read \(url.path): \(reason)")
    }

    /// The configuration cannot work (e.g. fault shares summing past 1, a port out of range).
    public static func invalidConfiguration(_ reason: String) -> FixtureServerError {
        FixtureServerError(.invalidConfiguration, "invalid fixture server configuration: \(reason)")
    }

    /// The server stopped before it was listening (e.g. the port is taken). `reason` is the
    /// underlying error's text; a socket error in it (`errno: 98`) becomes plain advice.
    public static func stoppedBeforeStarting(host: String, port: Int, reason: String) -> FixtureServerError {
        FixtureServerError(
            reason.contains("errno: \(EADDRINUSE)") ? .portInUse : .stoppedBeforeStarting,
            "fixture server could not listen on \(host):\(port): \(listenAdvice(host: host, port: port, reason: reason))")
    }

    private static func listenAdvice(host: String, port: Int, reason: String) -> String {
        let errno = reason.range(of: #"errno: (\d+)"#, options: .regularExpression)
            .flatMap { Int32(reason[$0].dropFirst("errno: ".count)) }
        switch errno {
        case EADDRINUSE: return "port \(port) is already in use; pick another port, or 0 for a free one"
        case EADDRNOTAVAIL:
            return "\(host) is not an address of this machine; use 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)"
        case EACCES: return "permission denied (ports below 1024 need privileges); pick a port above 1023, or 0"
        default: return "\(reason); pick another port or use 0"
        }
    }
}
