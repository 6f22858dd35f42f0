"""Counts one head's weights: 4 x d x (d / H)."""


def attention_parameter_count(d_model, n_head):
    if d_model % n_head:
        raise ValueError("n_head must divide d_model")
    head_size = d_model // n_head
    return 4 * d_model * head_size
