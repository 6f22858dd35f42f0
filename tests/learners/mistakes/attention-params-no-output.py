"""Counts W_Q, W_K and W_V, and forgets W_O."""


def attention_parameter_count(d_model, n_head):
    if d_model % n_head:
        raise ValueError("n_head must divide d_model")
    return 3 * d_model * d_model
