"""KeyboardInterrupt at import."""

raise KeyboardInterrupt
