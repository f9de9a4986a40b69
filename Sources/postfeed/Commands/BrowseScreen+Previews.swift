import Foundation
import PostFeed
import PostFeedPreview
import PostFeedHTTP
import PostFeedImaging

/// Image previews in `browse`: the open post's above its text, and thumbnails beside the
/// list's posts (`i`). Both load as jobs, so keys never wait for an image.
extension BrowseScreen {
    /// A list thumbnail's box: 8 columns, the two lines of an entry.
    static let thumbnailBox = PixelSize(width: 8, height: 2)
    /// Columns the list's text moves right by when thumbnails are on.
    static let thumbnailIndent = 9
    /// Thumbnails kept in memory at most (the thumbnail cache keeps the rest).
    static let keptThumbnails = 500

    // MARK: The detail view

    /// Draws the open post's image above its text when it arrives: the terminal's width, at
    /// most half its height. A failure is one line instead; closing the view cancels it.
    func loadDetailPreview(of post: Post) {
        detailPreview = nil
        guard previewStyle.imageProtocol != .none, post.imageURL != nil else { return }
        let size = terminal.size
        // Piped: as COLUMNS and LINES say (else 80 × 24), as the frames' width does.
        let piped = size == nil ? Terminal.size(of: STDOUT_FILENO) : nil
        let (columns, rows) = size.map { ($0.columns, $0.rows) } ?? (piped?.columns ?? 80, piped?.rows ?? 24)
        let box = PixelSize(width: max(1, columns), height: max(1, rows / 2))
        let (client, style, onTerminal) = (client, previewStyle, size != nil)
        start(.preview, activity: "drawing the image…") { _ in
            do throws(ImagePreviewError) {
                let preview = try await client.preview(for: post, fittingIn: box, style: style)
                return { screen in screen.showDetailPreview(preview, postID: post.id, onTerminal: onTerminal) }
            } catch {
                guard !error.isCancelled else { return { _ in } }
                return { screen in screen.setAbove(["(image not drawn: \(error))".terminalLine], postID: post.id) }
            }
        }
    }

    private func showDetailPreview(_ preview: ImagePreview?, postID: PostID, onTerminal: Bool) {
        guard let preview, !preview.text.isEmpty else { return }
        guard case .detail(postID, _, _) = overlay else { return }
        if onTerminal {
            // Blank rows the preview is drawn over (see `render`).
            detailPreview = preview
            setAbove(Array(repeating: "", count: max(0, preview.cells.height)), postID: postID)
        } else {
            setAbove(preview.text.components(separatedBy: "\n"), postID: postID)
        }
    }

    private func setAbove(_ lines: [String], postID: PostID) {
        guard case .detail(postID, let text, _) = overlay else { return }
        overlay = .detail(postID: postID, text: text, above: lines)
    }

    // MARK: List thumbnails

    /// Columns a post's text keeps beside the thumbnails, at least.
    static let textBesideThumbnails = 20

    /// Thumbnails are drawn: on (`i`), a protocol that draws, and a terminal with room for
    /// them (``thumbnailsFit(rows:columns:)``).
    var thumbnailsActive: Bool {
        guard thumbnailsOn, previewStyle.imageProtocol != .none, let size = terminal.size else { return false }
        return Self.thumbnailsFit(rows: size.rows, columns: size.columns)
    }

    /// Whether a window of `rows` × `columns` has room for list thumbnails: a thumbnail's rows
    /// among the posts' (``BrowseRows``), and its indent with some text beside it. Below
    /// that the list is drawn as without them.
    static func thumbnailsFit(rows: Int, columns: Int) -> Bool {
        BrowseRows(rows: rows).posts >= thumbnailBox.height && columns >= thumbnailIndent + textBesideThumbnails
    }

    /// `i`: thumbnails on or off.
    func toggleThumbnails() {
        guard previewStyle.imageProtocol != .none, terminal.size != nil else {
            say("no thumbnails: images are off (--images none, or the output is not a terminal)")
            return
        }
        thumbnailsOn.toggle()
        say(thumbnailsOn ? (thumbnailsActive ? "thumbnails on" : "thumbnails on, drawn when the window has room") : "thumbnails off")
        loadThumbnails()
    }

    /// The shown posts' thumbnails: from the thumbnail cache at once, the misses drawn by a
    /// background job (replaced when the screen moves on).
    func loadThumbnails() {
        guard thumbnailsActive else { return }
        if thumbnails.count > Self.keptThumbnails { thumbnails = [:] }
        let (client, style, box) = (client, previewStyle, Self.thumbnailBox)
        var misses: [Post] = []
        for post in shown.posts where post.imageURL != nil && thumbnails[post.id] == nil && !thumbnailFailures.contains(post.id) {
            if let stored = client.storedPreview(for: post, fittingIn: box, style: style) {
                thumbnails[post.id] = stored
            } else {
                misses.append(post)
            }
        }
        guard !misses.isEmpty else { return }
        start(.thumbnails) { [misses] _ in
            var drawn: [PostID: ImagePreview] = [:]
            var failed: [PostID] = []
            for post in misses {
                guard !Task.isCancelled else { break }
                do throws(ImagePreviewError) {
                    if let preview = try await client.preview(for: post, fittingIn: box, style: style, priority: .low) {
                        drawn[post.id] = preview
                    } else {
                        failed.append(post.id)
                    }
                } catch {
                    if !error.isCancelled { failed.append(post.id) }
                }
            }
            return { [drawn, failed] screen in
                screen.thumbnails.merge(drawn) { _, new in new }
                screen.thumbnailFailures.formUnion(failed)
            }
        }
    }

    /// Draws the shown posts' thumbnails at the left of their entries (after the frame).
    func drawThumbnails(entries: [[String]], rows: Int) {
        guard thumbnailsActive else { return }
        var output = ""
        let placed = BrowseLayout.thumbnailRows(entries, rows: rows, height: Self.thumbnailBox.height)
        for (index, row) in placed.enumerated() where shown.posts.indices.contains(index) {
            guard let row, let thumbnail = thumbnails[shown.posts[index].id] else { continue }
            output += Self.placed(thumbnail, row: row, column: 1)
        }
        if !output.isEmpty { terminal.write(output) }
    }

    // MARK: Placing

    /// `preview` drawn with its top-left cell at (`row`, `column`), the cursor saved before
    /// and restored after (where the cursor ends after kitty, iTerm2 or sixel output
    /// depends on the terminal). Symbols' rows are each placed at the column.
    static func placed(_ preview: ImagePreview, row: Int, column: Int) -> String {
        var output = "\u{1B}7"
        switch preview.imageProtocol {
        case .symbols:
            for (offset, line) in preview.text.components(separatedBy: "\n").enumerated() {
                output += "\u{1B}[\(row + offset);\(column)H" + line + "\u{1B}[0m"
            }
        default:
            output += "\u{1B}[\(row);\(column)H" + preview.text
        }
        return output + "\u{1B}8"
    }

    /// Before a frame under kitty: removes the images of the frame before (kitty keeps
    /// placements over redrawn text).
    var clearsImages: String {
        previewStyle.imageProtocol == .kitty ? "\u{1B}_Ga=d,d=A,q=2\u{1B}\\" : ""
    }
}
