import PostFeed
import PostFeedPreview
/// A one-line error for the user; ArgumentParser prints it as `Error: <message>` and exits
/// with a non-zero status.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    /// Credentials in a URL of the message are removed: the message is printed.
    init(_ message: String) { description = BackendDescription.removingUserInfo(message).terminalLines }
}
