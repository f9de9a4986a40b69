import PostFeed

/// What `browse` lays out of a server's text. A backend must never drive the reader's
/// terminal (an OSC setting its title, a colour, a tab skipping cells over stale text) nor
/// stretch a title over many rows: posts are cleaned once, before anything is laid out or
/// counted, and ``BrowseLayout`` cleans every line it draws (the messages too).
extension Post {
    /// This post with its title and author on one line each, its body's lines kept, every
    /// other control dropped (see `terminalLine`).
    var forTerminal: Post {
        var post = self
        post.title = title.terminalLine
        post.author = author?.terminalLine
        post.body = body.terminalLines
        return post
    }
}
