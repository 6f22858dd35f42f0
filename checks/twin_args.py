"""The reference's argument checks, for the twins (:mod:`checks.faults`, :mod:`checks.mistakes`),
and :class:`~runner.pack.MistakeUndefined` (the engine's), re-exported for them.

A twin is the reference with one thing wrong, so it refuses exactly the arguments the
reference refuses, with a ValueError, and converts them the same way (integers to exact
Python ints, arrays to float64 or the logits' own dtype). Where the reference checks its
arguments with a helper (``_integer``, ``_matrix``, ``_qkv``) the twins call that helper;
where it writes the checks inline, they are written here once, line for line, so that no twin
differs from the reference on an invalid argument unless that is its mistake.
``tests/test_diagnose.py`` compares every twin with the reference on the generators' invalid
cases, so these cannot drift apart from the reference unnoticed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from checks.reference._args import _integer, _rescaled
from checks.reference.attention import _matrix
from runner.pack import MistakeUndefined as MistakeUndefined

Array = NDArray[np.float64]


def sizes(vocab: object, length: object) -> tuple[int, int]:
    """V >= 1 and T >= 0, as sequence_support_log10 checks them."""
    return _integer("vocab", vocab, 1), _integer("length", length, 0)


def joint_and_tokens(joint: object, tokens: Sequence[int]) -> tuple[Array, tuple[int, ...]]:
    """The joint table (V,) * T and T token ids in 0..V-1, as chain_rule_nll checks them."""
    table = np.asarray(joint, dtype=np.float64)
    t_len = table.ndim
    if t_len < 1 or table.size == 0 or len(set(table.shape)) != 1:
        raise ValueError(f"joint must have shape (V,) * T with V, T >= 1, got {table.shape}")
    if not np.all(np.isfinite(table)) or np.any(table < 0):
        raise ValueError("joint must hold finite, non-negative probabilities")
    if abs(float(table.sum()) - 1.0) > 1e-6:
        raise ValueError(f"joint must sum to 1, got {float(table.sum())!r}")
    if len(tokens) != t_len:
        raise ValueError(f"tokens has length {len(tokens)}, the joint table has T={t_len}")
    vocab = table.shape[0]
    index = tuple(_integer(f"tokens[{i}]", x, 0) for i, x in enumerate(tokens))
    if any(x >= vocab for x in index):
        raise ValueError(f"tokens must lie in 0..{vocab - 1}, got {list(index)}")
    return table, index


def sequence(x: object) -> Array:
    """x as a float64 (T, d) array with T, d >= 1, as averaging_model checks it."""
    out = np.asarray(x, dtype=np.float64)  # (T, d)
    if out.ndim != 2 or 0 in out.shape:
        raise ValueError(f"x must have shape (T, d) with T, d >= 1, got {out.shape}")
    return out


def mlp_weights(x: object, w_in: object, w_out: object) -> tuple[Array, Array, Array]:
    """x (T, d), w_in (d, d_ff), w_out (d_ff, d_out), as position_wise_mlp checks them."""
    xs = _matrix("x", x)  # (T, d)
    w_1, w_2 = _matrix("w_in", w_in), _matrix("w_out", w_out)  # (d, d_ff), (d_ff, d_out)
    if w_1.shape[0] != xs.shape[1] or w_2.shape[0] != w_1.shape[1]:
        raise ValueError(f"shapes do not chain: x {xs.shape}, w_in {w_1.shape}, w_out {w_2.shape}")
    return xs, w_1, w_2


def scores(s: object) -> Array:
    """Scores as float64 (..., T, T) with T >= 1, as causal_masked_attention checks them."""
    out = np.asarray(s, dtype=np.float64)
    if out.ndim < 2 or out.shape[-2] != out.shape[-1] or out.shape[-1] == 0:
        raise ValueError(f"scores must have shape (..., T, T) with T >= 1, got {out.shape}")
    return out


def mha_weights(
    x: object, w_q: object, w_k: object, w_v: object, w_o: object, n_head: object
) -> tuple[Array, Array, Array, Array, Array, int, int]:
    """multi_head_attention's inputs as it checks them, n_head an int, and hs = W / H."""
    xs = _matrix("x", x)  # (T, d)
    q, k, v = _matrix("w_q", w_q), _matrix("w_k", w_k), _matrix("w_v", w_v)  # (d, W) each
    o = _matrix("w_o", w_o)  # (W, d_out)
    d = xs.shape[1]
    width = q.shape[1]
    if q.shape[0] != d or k.shape != q.shape or v.shape != q.shape:
        raise ValueError(f"w_q, w_k, w_v must all be ({d}, W), got {q.shape}, {k.shape}, {v.shape}")
    if o.shape[0] != width:
        raise ValueError(f"w_o must have {width} rows, got shape {o.shape}")
    heads = _integer("n_head", n_head, 1)
    if width % heads:
        raise ValueError(f"n_head={heads} must divide the projection width {width}")
    return xs, q, k, v, o, heads, width // heads


def heads(d_model: object, n_head: object) -> tuple[int, int, int]:
    """d, H and the head width d/H, as attention_parameter_count checks them."""
    d = _integer("d_model", d_model, 1)
    h = _integer("n_head", n_head, 1)
    if d % h:
        raise ValueError(f"n_head={h} must divide d_model={d}")
    return d, h, d // h


def temperature_is_real(temperature: object) -> None:
    """softmax_temperature's first check: T is a real number (not a bool)."""
    if isinstance(temperature, bool | np.bool_) or not isinstance(
        temperature, int | float | np.integer | np.floating
    ):
        raise ValueError(f"temperature must be a real number, got {temperature!r}")


def temperature_is_positive(temperature: float) -> None:
    """softmax_temperature's second check: T is finite and > 0 (T = 0 is greedy decoding)."""
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError(
            f"temperature must be a finite number > 0, got {temperature}; "
            "use greedy decoding (argmax) for T = 0"
        )


def logits(values: object) -> NDArray[np.floating]:
    """The logits as softmax_temperature checks them: (..., V) with V >= 1, finite, in their
    own floating dtype (integers and booleans become float64)."""
    z = np.asarray(values)
    if not np.issubdtype(z.dtype, np.floating):
        if not (np.issubdtype(z.dtype, np.integer) or z.dtype == np.bool_):
            raise ValueError(f"logits must be real numbers, got dtype {z.dtype}")
        z = z.astype(np.float64)
    if z.ndim < 1 or z.shape[-1] == 0 or z.size == 0:
        raise ValueError(f"logits must have shape (..., V) with V >= 1, got {z.shape}")
    if not np.all(np.isfinite(z)):
        raise ValueError("logits must be finite (no NaN or ±inf)")
    return z


def over_temperature(z: NDArray[np.floating], temperature: float) -> NDArray[np.floating]:
    """z / T as softmax_temperature divides: at float64 precision (or better), rounded back
    to z's dtype (a quotient below float16's range rounds to -inf)."""
    wide = np.result_type(z.dtype, np.float64)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        out: NDArray[np.floating] = (z.astype(wide) / temperature).astype(z.dtype)
    return out


def probs_and_k(probs: object, k: object) -> tuple[Array, int]:
    """A finite, non-negative vector (V,) and k in 1..V, as top_k_renormalize checks them."""
    p = np.asarray(probs, dtype=np.float64)  # (V,)
    if p.ndim != 1 or p.shape[0] == 0:
        raise ValueError(f"probs must be a non-empty vector, got shape {p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be finite and non-negative")
    kept = _integer("k", k, 1)
    if kept > p.shape[0]:
        raise ValueError(f"k must be in 1..{p.shape[0]}, got {kept}")
    return p, kept


def renormalized(out: Array) -> Array:
    """The kept probabilities rescaled to sum to 1, as top_k_renormalize does (a sum of 0 is
    a ValueError; divided by the largest first when the sum overflows)."""
    return _rescaled(out, "the k kept probabilities sum to 0; nothing to renormalize")


def logits_sizes(
    batch: object, length: object, vocab: object, bytes_per_value: object
) -> tuple[int, int, int, int]:
    """B, T, V >= 0 and bytes >= 1, exact ints, as logits_memory_bytes checks them."""
    return (
        _integer("batch", batch, 0),
        _integer("length", length, 0),
        _integer("vocab", vocab, 0),
        _integer("bytes_per_value", bytes_per_value, 1),
    )


def moe_inputs(
    x: object, w_router: object, experts_w_in: object, experts_w_out: object, top_k: object
) -> tuple[Array, Array, Array, Array, int]:
    """moe_layer's inputs as it checks them, as float64 arrays, top_k an int in 1..E."""
    xs = np.asarray(x, dtype=np.float64)  # (T, d)
    router = np.asarray(w_router, dtype=np.float64)  # (d, E)
    w_in = np.asarray(experts_w_in, dtype=np.float64)  # (E, d, d_ff)
    w_out = np.asarray(experts_w_out, dtype=np.float64)  # (E, d_ff, d)
    if xs.ndim != 2 or 0 in xs.shape or router.ndim != 2 or router.shape[0] != xs.shape[1]:
        raise ValueError(f"need x (T, d) and w_router (d, E); got {xs.shape}, {router.shape}")
    d = xs.shape[1]
    n_experts = router.shape[1]
    if w_in.ndim != 3 or w_in.shape[:2] != (n_experts, d):
        raise ValueError(f"experts_w_in must be ({n_experts}, {d}, d_ff), got {w_in.shape}")
    d_ff = w_in.shape[2]
    if w_out.shape != (n_experts, d_ff, d):
        raise ValueError(f"experts_w_out must be ({n_experts}, {d_ff}, {d}), got {w_out.shape}")
    k = _integer("top_k", top_k, 1)
    if k > n_experts:
        raise ValueError(f"top_k must be in 1..{n_experts}, got {k}")
    return xs, router, w_in, w_out, k


def moe_sizes(d_model: object, d_ff: object, n_experts: object) -> tuple[int, int, int]:
    """d, d_ff, E >= 1 as exact ints, as moe_parameter_count checks them."""
    return (
        _integer("d_model", d_model, 1),
        _integer("d_ff", d_ff, 1),
        _integer("n_experts", n_experts, 1),
    )
