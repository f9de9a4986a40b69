import ArgumentParser

/// `postfeed-bench`: the process-level benchmarks, each printing Markdown tables
/// (written up in BENCHMARKS.md). They moved here from the product CLI's `postfeed bench`.
@main
struct PostFeedBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postfeed-bench",
        abstract: "PostFeed's process-level benchmarks, side by side with peers in one run (ratios, not absolute times).",
        discussion: """
            'cache' and 'list' measure the caches, the image pipeline, restoring the list from
            state (timing the built 'postfeed' binary) and scrolling memory; see
            scripts/bench-cache-list.sh. 'fetch' is a quick PostFeed-vs-curl comparison that needs
            nothing but curl; the full comparison with URLSession, AsyncHTTPClient and bare libcurl
            is postfeed-bench-fetch (scripts/bench.sh). Run them from a release build.

            Examples:
              postfeed-bench cache
              postfeed-bench list --postfeed ../.build/release/postfeed
              postfeed-bench fetch
              postfeed-bench fetch --count 300 --concurrency 16 --base-url http://127.0.0.1:8080
              postfeed-bench thumbnail --base-url http://127.0.0.1:6969 --post 1 --format kitty
              postfeed-bench shared-hit --redis redis://127.0.0.1:6400
            """,
        subcommands: [CacheBench.self, ListBench.self, Fetch.self, ThumbnailBench.self, SharedHitBench.self, ImageReplayWorker.self, ScrollWorker.self]
    )
}
