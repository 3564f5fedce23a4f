"""Several workers sharing one Redis: the leased frontier, cross-worker politeness, shared state."""
