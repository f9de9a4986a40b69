// Placeholder so the package loads while the CLI is written.
