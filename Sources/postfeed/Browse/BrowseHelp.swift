/// The keys of `browse`, for the `?` overlay and the hints line.
enum BrowseHelp {
    /// Where each key's description starts: a description wrapped on a narrow window
    /// goes on at this column, under itself, not under the keys.
    static let descriptionColumn = 13

    /// Every key, for the `?` overlay.
    static let lines = [
        "PostFeed · keys",
        "",
        "  j / ↓      next post",
        "  k / ↑      previous post",
        "  space / b  next / previous screen (also Page Down / Page Up)",
        "  n / p      next / previous page (paged mode; n is next match while searching)",
        "  g          go to page (paged) or post number (infinite); ⏎ goes, Esc cancels",
        "  Esc        stops a load in progress (g, a page); else clears the search",
        "  /          search the loaded posts (title, author, body); ⏎ searches, Esc cancels",
        "  n / N      next / previous match; Esc clears the search",
        "  s          order by popularity across everything loaded, or back (infinite)",
        "  u          unseen only: hide posts shown in earlier runs, or show all (infinite)",
        "  m          toggle infinite / paged, keeping your place",
        "  o / ⏎      open the current post, its image above the text (j/k/space/b scroll",
        "             a long one; any other key goes back)",
        "  i          thumbnails beside the posts on or off (--images; on for kitty, iTerm2, sixel)",
        "  r          refresh from the network: back to page 1; on failure the posts stay",
        "  l          the last message in full (a cut status line ends with [l])",
        "  ?          this help (j/k/space/b scroll it on a short window)",
        "  q          save your place and quit (also Ctrl-C, Ctrl-\\, SIGTERM, SIGHUP)",
        "  Ctrl-Z     suspend to the shell (the terminal restored); fg comes back",
    ]

    /// The help on a window of `rows` × `columns`, scrolled to `scroll` lines: laid out and
    /// scrolled as the detail view is, wrapped descriptions going on under themselves.
    static func page(scroll: Int, rows: Int, columns: Int) -> BrowseDetailLayout.Page {
        BrowseDetailLayout.page(
            above: [], text: lines, note: nil, scroll: scroll, rows: rows, columns: columns, leave: "closes the help",
            hangingIndent: descriptionColumn)
    }

    /// The hints line for `mode`.
    static func hints(infinite: Bool) -> String {
        infinite
            ? "j/k scroll · space/b screen · g go to · / search · s popular · u unseen · m paged · o open · i images · r refresh · ? help · q quit"
            : "j/k scroll · n/p page · g go to page · / search · m infinite · o open · i images · r refresh · ? help · q quit"
    }
}
