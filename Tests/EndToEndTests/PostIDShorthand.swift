import PostFeedModels

extension Array where Element == PostID {
    /// Test shorthand: the ids of the integers `numbers`, so `Array(1...20)` reads as the
    /// ids 1…20 where ids are expected (`#expect(page.posts.map(\.id) == Array(1...20))`).
    init<S: Sequence<Int>>(_ numbers: S) {
        self = numbers.map { PostID($0) }
    }
}
