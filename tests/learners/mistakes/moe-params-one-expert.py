"""Counts the router and one expert."""


def moe_parameter_count(d_model, d_ff, n_experts):
    return d_model * n_experts + 2 * d_model * d_ff
