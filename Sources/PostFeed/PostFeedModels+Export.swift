// `Post`, `Page`, `PageKey` and `JSONValue` are part of PostFeed's API: they live in
// PostFeedModels so the fixture server can speak them without linking the client, and
// every user of PostFeed gets them with `import PostFeed`.
@_exported import PostFeedModels
