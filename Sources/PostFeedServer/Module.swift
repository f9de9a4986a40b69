// Placeholder so the package loads while PostFeedServer is written.
