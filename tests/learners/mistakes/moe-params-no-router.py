"""Leaves out the router.

The scaffold's reference moe_parameter_count() with that one change (tests/test_diagnose.py
splices it into the scaffold, whose helpers and names it uses)."""

# ruff: noqa: F821


def moe_parameter_count(d_model: int, d_ff: int, n_experts: int) -> int:
    d_model = _integer("d_model", d_model, 1)
    d_ff = _integer("d_ff", d_ff, 1)
    n_experts = _integer("n_experts", n_experts, 1)
    return n_experts * 2 * d_model * d_ff
