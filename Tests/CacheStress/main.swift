// Placeholder so the package loads while the stress tool is written.
