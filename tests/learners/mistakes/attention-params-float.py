"""The head width by true division.

The scaffold's reference attention_parameter_count() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821


def attention_parameter_count(d_model: int, n_head: int) -> int:
    d_model = _integer("d_model", d_model, 1)
    n_head = _integer("n_head", n_head, 1)
    if d_model % n_head:
        raise ValueError(f"n_head={n_head} must divide d_model={d_model}")
    head = d_model / n_head
    qkv = n_head * 3 * d_model * head  # (d, d/H) for each of Q, K, V, per head
    out = d_model * d_model  # W_O: (H * d/H, d)
    return qkv + out
