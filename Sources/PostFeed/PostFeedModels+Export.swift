// `Post`, `Page`, `PageKey` and `JSONValue` are part of PostFeed's API: they live in
// PostFeedModels so the fixture server can speak them without linking the client, and
// every user of PostFeed gets them with `import PostFeed`.
@_exported import PostFeedModels
// The settings a client is configured with — `HTTPClient.Configuration`, `HTTPTimeouts`,
// `RetryPolicy`, `HTTPPriority`, `DiskCache.Configuration`, `MemoryCache` limits, the
// shared tier's protocols — are PostFeedHTTP's and PostFeedCache's types: one
// `import PostFeed` reaches them (issue 31: configuration needed three products).
@_exported import PostFeedHTTP
@_exported import PostFeedCache
