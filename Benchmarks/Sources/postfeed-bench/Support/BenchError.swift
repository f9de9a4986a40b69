/// Why a benchmark could not run: the message names what failed (a file, a URL, a child
/// process and its standard error).
struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ message: String) {
        description = message
    }
}
