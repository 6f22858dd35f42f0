"""Only 1, 2, 4 or 8 bytes.

The scaffold's reference kv_cache_bytes() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821


def kv_cache_bytes(
    batch: int, length: int, n_layer: int, d_model: int, bytes_per_value: int = 4
) -> int:
    b = _count("batch", batch, 0)
    t = _count("length", length, 0)
    n_layer_ = _count("n_layer", n_layer, 0)
    d = _count("d_model", d_model, 0)
    size = _count("bytes_per_value", bytes_per_value, 1)
    if size not in (1, 2, 4, 8):
        raise ValueError(f"bytes_per_value must be 1, 2, 4 or 8, got {size}")
    return 2 * b * t * n_layer_ * d * size
