"""Documents: import, chunking into the vector index, reconciliation."""
