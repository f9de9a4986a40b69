import Foundation
import SuiteSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An nginx on loopback in front of a fixture server, for the proxy tests: a caching
/// reverse proxy (`proxy_cache`) on ``cachingPort`` and a plain forward proxy for
/// `http://` URLs (absolute-form requests) on ``forwardPort``. Everything it writes is kept
/// in a temporary folder, removed by ``stop()``.
final class ProxyNginx: Sendable {
    let cachingPort: Int
    let forwardPort: Int
    let folder: URL

    /// Renders the configuration and starts nginx (daemonized: it listens once this returns).
    /// Ports are picked free by binding port 0; if another process takes one first, nginx
    /// fails to bind and new ports are tried.
    static func start(origin: URL) throws -> ProxyNginx {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("postfeed-proxy-nginx-\(UUID().uuidString)", isDirectory: true)
        var lastError = ""
        for attempt in 1...5 {
            let prefix = folder.appendingPathComponent("try-\(attempt)", isDirectory: true)
            try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
            let caching = try TestPorts.reserve(), forward = try TestPorts.reserve()
            let configuration = prefix.appendingPathComponent("nginx.conf")
            try render(prefix: prefix, origin: origin, cachingPort: caching, forwardPort: forward)
                .write(to: configuration, atomically: true, encoding: .utf8)
            let (status, output) = try run(
                "/usr/sbin/nginx", ["-p", prefix.path, "-e", prefix.appendingPathComponent("error.log").path, "-c", configuration.path])
            if status == 0, waitForPidFile(in: prefix) {
                return ProxyNginx(cachingPort: caching, forwardPort: forward, folder: prefix)
            }
            lastError = output + ((try? String(contentsOf: prefix.appendingPathComponent("error.log"), encoding: .utf8)) ?? "")
        }
        try? FileManager.default.removeItem(at: folder)
        throw EndToEndError("nginx did not start: \(lastError)")
    }

    private init(cachingPort: Int, forwardPort: Int, folder: URL) {
        self.cachingPort = cachingPort
        self.forwardPort = forwardPort
        self.folder = folder
    }

    /// `http://127.0.0.1:<cachingPort>`: the fixture server's API, cached by nginx.
    var cachingURL: String { "http://127.0.0.1:\(cachingPort)" }
    /// `http://127.0.0.1:<forwardPort>`: a value for `--proxy`.
    var forwardProxyURL: String { "http://127.0.0.1:\(forwardPort)" }

    /// Stops nginx (TERM to the pid in its pid file, then waits for it to exit) and removes its folder.
    func stop() {
        if let text = try? String(contentsOf: folder.appendingPathComponent("nginx.pid"), encoding: .utf8),
            let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 0
        {
            kill(pid, SIGTERM)
            // nginx removes its pid file as it exits (its process may linger as a zombie).
            let pidFile = folder.appendingPathComponent("nginx.pid").path
            for _ in 0..<200 where FileManager.default.fileExists(atPath: pidFile) { usleep(25_000) }
            if FileManager.default.fileExists(atPath: pidFile) {
                Issue.record("nginx \(pid) did not exit within 5 s of SIGTERM: killed")
                kill(pid, SIGKILL)
            }
        }
        try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
    }

    /// The access log lines of the forward proxy: `METHOD URI STATUS`.
    func forwardedRequests() -> [String] { lines("forward.log") }

    /// The access log lines of the caching proxy: `METHOD URI STATUS CACHE-STATUS`.
    func cachingRequests() -> [String] { lines("caching.log") }

    private func lines(_ name: String) -> [String] {
        let text = (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    private static func render(prefix: URL, origin: URL, cachingPort: Int, forwardPort: Int) -> String {
        let p = prefix.path
        let upstream = origin.absoluteString.hasSuffix("/") ? String(origin.absoluteString.dropLast()) : origin.absoluteString
        // As root, nginx hands its temporary folders to `nobody`, which fails where that
        // user is not mapped (a user namespace): stay the invoking user, as a non-root run does.
        let user = getuid() == 0 ? "user root root;" : ""
        return """
            \(user)
            master_process off;
            pid \(p)/nginx.pid;
            error_log \(p)/error.log warn;
            events { worker_connections 256; }
            http {
                log_format caching '$request_method $request_uri $status $upstream_cache_status';
                log_format forward '$request_method $request_uri $status';
                client_body_temp_path \(p)/client_body;
                proxy_temp_path \(p)/proxy;
                fastcgi_temp_path \(p)/fastcgi;
                uwsgi_temp_path \(p)/uwsgi;
                scgi_temp_path \(p)/scgi;
                proxy_cache_path \(p)/cache levels=1:2 keys_zone=postfeed:1m max_size=64m inactive=10m use_temp_path=off;

                # A caching reverse proxy: the fixture server's responses are kept as their
                # Cache-Control allows, and served to every client from the cache.
                server {
                    listen 127.0.0.1:\(cachingPort);
                    access_log \(p)/caching.log caching;
                    location / {
                        proxy_pass \(upstream);
                        proxy_cache postfeed;
                        proxy_cache_valid 200 10m;
                        add_header X-Cache-Status $upstream_cache_status always;
                    }
                }

                # A forward proxy for http:// URLs: the absolute-form request goes to the
                # host it names (a 127.0.0.1 literal, so no resolver is needed).
                server {
                    listen 127.0.0.1:\(forwardPort);
                    access_log \(p)/forward.log forward;
                    location / {
                        proxy_pass http://$http_host$request_uri;
                    }
                }
            }

            """
    }

    private static func waitForPidFile(in prefix: URL) -> Bool {
        let file = prefix.appendingPathComponent("nginx.pid").path
        for _ in 0..<100 {
            if let text = try? String(contentsOfFile: file, encoding: .utf8), !text.isEmpty { return true }
            usleep(50_000)
        }
        return false
    }

    /// Runs `executable` to its exit with /dev/null for stdin, stdout and stderr (nginx logs
    /// to its error log) and no other descriptor: not Foundation's `Process`, which on
    /// Linux learns of the exit through a descriptor the daemon nginx forks would inherit,
    /// and would wait forever. Returns the exit status.
    private static func run(_ executable: String, _ arguments: [String]) throws -> (Int32, String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in names.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        for descriptor: Int32 in 0...2 {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        // With no signal blocked: nginx with `master_process off` never unblocks the test
        // runner's mask, and ignored the SIGTERM of stop() (every run left 4 nginx behind).
        let spawned = withCleanSignalSpawnAttributes { attributes in
            (argv + [nil]).withUnsafeBufferPointer { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return EINVAL }
                return posix_spawn(&pid, executable, &actions, &attributes, base, environ)
            }
        }
        guard spawned == 0 else { throw EndToEndError("cannot start \(executable): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return (exitStatus, "")
    }

}
