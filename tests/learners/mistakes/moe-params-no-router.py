"""Counts the experts' weights and forgets the router."""


def moe_parameter_count(d_model, d_ff, n_experts):
    per_expert = d_model * d_ff + d_ff * d_model
    return n_experts * per_expert
