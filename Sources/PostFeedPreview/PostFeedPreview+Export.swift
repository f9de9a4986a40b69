// `import PostFeedPreview` is all a terminal program needs for previews: the core
// (`FeedClient`, posts, images) and PostFeedImaging's `PixelSize`, `ImageProtocol`,
// `ImageDecoder` and renderers.
@_exported import PostFeed
@_exported import PostFeedImaging
