"""Every size >= 1.

The scaffold's reference kv_cache_bytes() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821


def kv_cache_bytes(
    batch: int, length: int, n_layer: int, d_model: int, bytes_per_value: int = 4
) -> int:
    b = _count("batch", batch, 1)
    t = _count("length", length, 1)
    n_layer_ = _count("n_layer", n_layer, 1)
    d = _count("d_model", d_model, 1)
    size = _count("bytes_per_value", bytes_per_value, 1)
    return 2 * b * t * n_layer_ * d * size
