// Placeholder so the package loads while PostFeedCache is written.
