"""Correct implementations written another way: other algorithms, loop orders, numerics.

Each must pass every claim and never be diagnosed (flash_attention, linear_attention and
moe_layer stay the reference's: what they must report about their own cost is issue 12's).
"""

import math
import operator

import numpy as np


def _int(name, value, minimum):
    """An integer argument as an exact Python int (NumPy integers too), or ValueError."""
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be an integer")
    try:
        value = operator.index(value)
    except TypeError:
        raise ValueError(f"{name} must be an integer") from None
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}")
    return value


def sequence_support_log10(vocab, length):
    vocab, length = _int("vocab", vocab, 1), _int("length", length, 0)
    return math.log10(vocab**length)  # Python's integers are exact, and log10 takes them


def chain_rule_nll(joint, tokens):
    joint = np.asarray(joint, dtype=np.float64)
    tokens = [_int("token", t, 0) for t in tokens]
    vocab = joint.shape[0] if joint.ndim else 0
    if joint.ndim != len(tokens) or joint.shape != (vocab,) * joint.ndim or vocab == 0:
        raise ValueError("joint must be (V,) * T with one token per position")
    if any(t >= vocab for t in tokens):
        raise ValueError("a token is not below V")
    if np.any(np.isnan(joint)) or np.any(joint < 0) or abs(joint.sum() - 1.0) > 1e-6:
        raise ValueError("joint must be a distribution")
    nll = 0.0
    for t, token in enumerate(tokens):
        rest = joint[tuple(tokens[:t])]  # (V,)*(T-t): the table after the prefix
        next_token = rest.sum(axis=tuple(range(1, rest.ndim)))  # (V,)
        if next_token[token] == 0:
            return math.inf  # an impossible sequence: its NLL is +inf
        # the prefix's mass: the empty prefix has probability 1, never the table's sum
        nll -= math.log(next_token[token] / (next_token.sum() if t else 1.0))
    return nll


def giant_mlp_parameter_log10(vocab, length, hidden, *, sequence_support_log10=None):
    hidden = _int("hidden", hidden, 1)
    vocab, length = _int("vocab", vocab, 1), _int("length", length, 0)
    return math.log10(hidden * vocab**length)


def averaging_model(x):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2 or 0 in x.shape:
        raise ValueError("x must be (T, d)")
    return np.stack([x[: t + 1].mean(axis=0) for t in range(x.shape[0])])


def position_wise_mlp(x, w_in, w_out):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError("x must be (T, d)")
    h = x @ w_in
    u = math.sqrt(2.0 / math.pi) * (h + 0.044715 * h**3)
    return (h / (1.0 + np.exp(-2.0 * u))) @ w_out  # 0.5(1 + tanh u) = sigmoid(2u)


def causal_masked_attention(scores):
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim < 2 or scores.shape[-1] != scores.shape[-2] or scores.shape[-1] == 0:
        raise ValueError("scores must be (..., T, T)")
    t_len = scores.shape[-1]
    out = np.zeros_like(scores)
    for t in range(t_len):  # the deletion reading: a softmax over the prefix 0..t only
        prefix = scores[..., t, : t + 1]
        e = np.exp(prefix - prefix.max(axis=-1, keepdims=True))
        out[..., t, : t + 1] = e / e.sum(axis=-1, keepdims=True)
    return out


def multi_head_attention(
    x, w_q, w_k, w_v, w_o, n_head, *, causal_masked_attention=causal_masked_attention
):
    x = np.asarray(x, dtype=np.float64)
    width = w_q.shape[1]
    if w_k.shape != w_q.shape or w_v.shape != w_q.shape or w_o.shape[0] != width:
        raise ValueError("w_q, w_k and w_v must share one shape, and w_o have its width of rows")
    if n_head < 1 or width % n_head:
        raise ValueError("n_head must divide the projection width")
    hs = width // n_head
    heads = []
    for h in range(n_head):
        cols = slice(h * hs, (h + 1) * hs)
        q, k, v = x @ w_q[:, cols], x @ w_k[:, cols], x @ w_v[:, cols]
        heads.append(causal_masked_attention(q @ k.T * hs**-0.5) @ v)
    return np.hstack(heads) @ w_o


def attention_parameter_count(d_model, n_head):
    d_model, n_head = _int("d_model", d_model, 1), _int("n_head", n_head, 1)
    if d_model % n_head:
        raise ValueError("n_head must divide d_model")
    shapes = [(d_model, d_model // n_head)] * (3 * n_head) + [(d_model, d_model)]
    return sum(a * b for a, b in shapes)


def transformer_parameter_count(
    vocab,
    d_model,
    n_layer,
    d_ff,
    context_length,
    *,
    n_head=None,
    positions="none",
    biases=False,
    layernorm=False,
    tied=True,
    attention_parameter_count=attention_parameter_count,
):
    if positions not in ("none", "sinusoidal", "rope", "learned"):
        raise ValueError(f"unknown positions {positions!r}")
    if not all(isinstance(flag, bool | np.bool_) for flag in (biases, layernorm, tied)):
        raise ValueError("biases, layernorm and tied are bools (Python's or NumPy's)")
    vocab, d_model, d_ff = _int("V", vocab, 1), _int("d", d_model, 1), _int("d_ff", d_ff, 1)
    n_layer, context_length = _int("n_layer", n_layer, 0), _int("T", context_length, 0)
    d = d_model
    rows = {
        "embedding": vocab * d,
        "position_table": context_length * d if positions == "learned" else 0,
        "attention_per_layer": attention_parameter_count(d, 1 if n_head is None else n_head)
        + biases * 4 * d,
        "ffn_per_layer": d * d_ff + d_ff * d + biases * (d_ff + d),
        "norms_per_layer": layernorm * 4 * d,
        "final_norm": layernorm * 2 * d,
        "head": (not tied) * vocab * d,
    }
    rows["per_layer"] = (
        rows["attention_per_layer"] + rows["ffn_per_layer"] + rows["norms_per_layer"]
    )
    rows["total"] = (
        rows["embedding"]
        + rows["position_table"]
        + n_layer * rows["per_layer"]
        + rows["final_norm"]
        + rows["head"]
    )
    return {k: int(v) for k, v in rows.items()}


def softmax_temperature(logits, temperature):
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be a finite number > 0")
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        z = z.astype(np.float64)
    if z.ndim == 0 or z.size == 0 or not np.all(np.isfinite(z)):
        raise ValueError("logits must be a non-empty (..., V) array, finite")
    shifted = z - z.max(axis=-1, keepdims=True)  # max first
    # divided in float64 and rounded back: T itself may be 0 in float16 (T < 6e-8)
    with np.errstate(over="ignore"):
        shifted = (shifted.astype(np.result_type(z.dtype, np.float64)) / temperature).astype(
            z.dtype
        )
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 1 or not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be a finite, non-negative vector")
    k = _int("k", k, 1)
    if not 1 <= k <= p.shape[0]:
        raise ValueError("need a vector and 1 <= k <= V")
    ranked = sorted(range(p.shape[0]), key=lambda i: (-p[i], i))  # ties: the lower index
    out = np.zeros_like(p)
    out[ranked[:k]] = p[ranked[:k]]
    if out.max() == 0:
        raise ValueError("the k kept sum to 0")
    out = out / out.max()  # over the largest first: finite entries whose sum overflows
    return out / out.sum()


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    if min(batch, length, vocab) < 0 or bytes_per_value < 1:
        raise ValueError("sizes must be >= 0 and bytes_per_value >= 1")
    return math.prod((int(batch), int(length), int(vocab), int(bytes_per_value)))


def moe_parameter_count(d_model, d_ff, n_experts):
    d_model, d_ff = _int("d_model", d_model, 1), _int("d_ff", d_ff, 1)
    n_experts = _int("n_experts", n_experts, 1)
    router = (d_model, n_experts)
    expert = [(d_model, d_ff), (d_ff, d_model)]
    return router[0] * router[1] + n_experts * sum(a * b for a, b in expert)
