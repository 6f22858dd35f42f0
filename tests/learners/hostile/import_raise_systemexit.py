"""raise SystemExit(3) at import."""

raise SystemExit(3)
