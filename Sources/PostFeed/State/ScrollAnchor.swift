/// The reader's place: the post at the top of the view and where it sat in the list.
///
/// `index` is 0-based and counts from the top of the *whole* list in both modes, not from
/// the top of a page, so it survives a change of mode or of page size. Post #37 of the list
/// is `ScrollAnchor(postID: …, index: 36)`; on page 4 of size 10 it is the 7th post.
public struct ScrollAnchor: Codable, Sendable, Hashable {
    /// The id of the post at the top of the reader's view.
    public var postID: PostID
    /// 0-based position of that post in the whole list.
    public var index: Int

    /// The anchor for post `postID` at 0-based `index` in the whole list.
    public init(postID: PostID, index: Int) {
        self.postID = postID
        self.index = index
    }

    /// 1-based position in the whole list ("post #37"), as users count.
    public var position: Int { index == Int.max ? index : index + 1 }
}

extension ScrollAnchor {
    /// The anchor for the post at 0-based `indexInPage` on 1-based `page`: its index in the
    /// whole list is `(page - 1) * pageSize + indexInPage`.
    public init(postID: PostID, page: Int, indexInPage: Int, pageSize: Int) {
        let position = PlaceConverter.position(page: page, indexInPage: indexInPage, pageSize: pageSize)
        self.init(postID: postID, index: position - 1)
    }
}
