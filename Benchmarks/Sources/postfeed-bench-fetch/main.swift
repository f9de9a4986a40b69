import Foundation

// postfeed-bench-fetch: downloads the same 1000 image-sized files from a local nginx with
// PostFeed's HTTPClient and with the usual alternatives, and prints a Markdown table.
//
//   postfeed-bench-fetch [--concurrency 1,16,64] [--repeats 5] [--files 1000] [--clients a,b]
//
// Each measurement runs in a fresh child process (this executable with `--client`), so the
// peak RSS belongs to one client alone.

do {
    let arguments = try Arguments(CommandLine.arguments.dropFirst())
    if let client = arguments.client {
        try await ChildRun.main(client: client, arguments: arguments)
    } else {
        try await BenchmarkRun.main(arguments: arguments)
    }
} catch {
    FileHandle.standardError.write(Data("postfeed-bench-fetch: \(error)\n".utf8))
    exit(1)
}
