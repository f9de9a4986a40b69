import ArgumentParser
import Foundation
import Logging
import PostFeed
import PostFeedPreview
import PostFeedServer

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the fixture backend on a port until Ctrl-C.",
        discussion: """
            Serves Fixtures/ with PostFeed's API (GET /api/posts?page=N&limit=M, ?cursor=C,
            /api/posts/{id}, /images/{name}), or a real backend's convention over the peer
            datasets with --api (the same names as the client's --api). Every convention also
            serves the recorded feeds of Fixtures/feeds/site: /feeds/rss/ (?paged=N, 404 past
            the end), /feeds/atom (rel="next") and /feeds/json (next_url), for
            'postfeed list --base-url http://127.0.0.1:6969/feeds/rss/'. Fault flags make it
            misbehave for demos.

            Examples:
              postfeed serve                           http://127.0.0.1:6969
              postfeed serve --port 8080 --api dummyjson
              postfeed serve --latency-ms 200 --error-share 0.1
            """)

    @Option(parsing: .unconditional, help: "Port to listen on (0 picks a free one).")
    var port: Int = 6969

    @Option(help: "Address to bind.")
    var host: String = "127.0.0.1"

    @Option(
        name: [.customLong("api"), .customLong("flavor")],
        help: ArgumentHelp("Backend convention to serve: \(BackendPreset.names.joined(separator: ", ")).", valueName: "preset"),
        completion: .list(BackendPreset.names), transform: { try BackendPreset.parse($0, option: "--api") })
    var api: BackendPreset = .postfeed

    @Option(name: .customLong("fixtures"), help: ArgumentHelp("The Fixtures/ directory to serve.", valueName: "dir"))
    var fixturesDirectory: String?

    @Option(name: .customLong("latency-ms"), parsing: .unconditional, help: "Added latency per response, in milliseconds.")
    var latencyMilliseconds: Int = 0

    @Option(name: .customLong("error-share"), parsing: .unconditional, help: "Share of requests (0…1) answered 500 or 503.")
    var errorShare: Double = 0

    @Option(name: .customLong("rate-limit-share"), parsing: .unconditional, help: "Share of requests (0…1) answered 429 with Retry-After.")
    var rateLimitShare: Double = 0

    @Option(name: .customLong("truncate-share"), parsing: .unconditional, help: "Share of responses (0…1) cut short.")
    var truncateShare: Double = 0

    @Option(name: .customLong("reset-share"), parsing: .unconditional, help: "Share of connections (0…1) reset.")
    var resetShare: Double = 0

    @Option(name: .customLong("stall-share"), parsing: .unconditional, help: "Share of responses (0…1) that stall mid-body.")
    var stallShare: Double = 0

    @Flag(name: .customLong("test-routes"), help: "Also serve the /test/… routes the client's tests use.")
    var testRoutes = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is out of range; use 0…65535.") }
        guard latencyMilliseconds >= 0 else {
            throw ValidationError("--latency-ms \(latencyMilliseconds) is negative; give 0 or more milliseconds.")
        }
        if let fixturesDirectory {
            try Self.validateFixtures(fixturesDirectory)
        }
        for (name, share) in [("error", errorShare), ("rate-limit", rateLimitShare), ("truncate", truncateShare),
                              ("reset", resetShare), ("stall", stallShare)] where !(0...1).contains(share) {
            throw ValidationError("--\(name)-share \(share) is out of range; use 0…1.")
        }
    }

    /// `--fixtures` names a folder with `posts.json` (said in the option's words, not the
    /// library's `FixtureServerConfiguration.fixturesDirectory`).
    static func validateFixtures(_ path: String) throws {
        guard !path.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("--fixtures is empty; give a folder with posts.json, or leave the option out to serve the built-in fixtures.")
        }
        let shown = path.terminalLine
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("--fixtures \(shown) is not a folder; give a folder with posts.json and images/ (scripts/make_fixtures.py makes one).")
        }
        guard FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("posts.json")) else {
            throw ValidationError("--fixtures \(shown) has no posts.json; give a folder with posts.json and images/ (scripts/make_fixtures.py makes one).")
        }
    }

    func run() async throws {
        var configuration = FixtureServerConfiguration(
            host: host, port: port,
            fixturesDirectory: FixtureLocator.fixturesDirectory(override: fixturesDirectory.map { URL(fileURLWithPath: $0) }),
            flavor: api.fixtureFlavor,
            enablesTestRoutes: testRoutes,
            logLevel: .info)
        configuration.faults.latency = .milliseconds(latencyMilliseconds)
        configuration.faults.serverErrorShare = errorShare / 2
        configuration.faults.unavailableShare = errorShare / 2
        configuration.faults.rateLimitShare = rateLimitShare
        configuration.faults.truncationShare = truncateShare
        configuration.faults.resetShare = resetShare
        configuration.faults.stallShare = stallShare
        let problems = configuration.faults.problems
        guard problems.isEmpty else { throw ValidationError(problems.joined(separator: "; ")) }
        let ready = configuration
        do {
            try await RunningFixtureServer.serve(ready) { server in
                // Written straight to the file descriptor: `print` is block-buffered when stdout
                // is a pipe, and a script waiting for the URL would wait until the server stops.
                let line = "postfeed: serving \(ready.fixturesDirectory.path) (\(api)) at \(server.baseURL.absoluteString); Ctrl-C stops\n"
                try? StandardStream.output.write(line)
            }
        } catch let error as FixtureServerError {
            throw CLIError(error.message)  // names the address and what to do
        } catch {
            throw CLIError("cannot serve on \(host):\(port): \(error)")
        }
    }
}
