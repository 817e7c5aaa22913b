// Synthetic story spaces for benchmarks.
