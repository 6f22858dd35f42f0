"""Counts each head as a full attention of its own: H x 4d^2."""


def attention_parameter_count(d_model, n_head):
    one_attention = 4 * d_model**2
    return n_head * one_attention
