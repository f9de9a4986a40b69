/// A one-line error for the user; ArgumentParser prints it as `Error: <message>` and exits
/// with a non-zero status.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
