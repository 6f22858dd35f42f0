"""Correct, written for issue 22's new cases from the contract alone: each function below
casts its inputs to float64 at the door, in its own way, and keeps the decisions the
contract now states. chain_rule_nll as a sum of log conditionals in log space (the empty
prefix has probability 1: the table as given); top_k_renormalize with heapq.nlargest over
(p, −i) pairs; top_p_renormalize as a Python loop adding float64 masses one by one (the
sequential running sum) and refusing all-zero probs; flash_attention one query row at a time
over key blocks; linear_attention by cumulative sums; moe_layer by gathering each token's
kept experts; transformer_parameter_count's flags as bool or np.bool_."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import heapq
import math

import numpy as np
from _base import *

_count = transformer_parameter_count


def chain_rule_nll(joint, tokens):
    p = np.array(joint, dtype=float)
    if p.ndim < 1 or p.size == 0 or len(set(p.shape)) != 1:
        raise ValueError("joint must be (V,)*T")
    if not np.isfinite(p).all() or (p < 0).any() or abs(p.sum() - 1.0) > 1e-6:
        raise ValueError("joint must be finite, >= 0 and sum to 1")
    if len(tokens) != p.ndim:
        raise ValueError("one token per position")
    idx = [as_int("token", t, 0) for t in tokens]
    if any(i >= p.shape[0] for i in idx):
        raise ValueError("token out of range")
    log_prefix = 0.0  # log P(empty prefix) = log 1
    nll = 0.0
    for t in range(1, p.ndim + 1):
        mass = p[tuple(idx[:t])].sum()  # P(x_1..x_t): the rest summed out
        if mass == 0:
            return math.inf
        nll -= math.log(mass) - log_prefix
        log_prefix = math.log(mass)
    return nll


def top_k_renormalize(probs, k):
    p = np.array(probs, dtype=float)
    if p.ndim != 1 or p.size == 0 or not np.isfinite(p).all() or (p < 0).any():
        raise ValueError("probs must be a finite, non-negative vector")
    k = as_int("k", k, 1)
    if k > p.size:
        raise ValueError("k must be <= V")
    kept = [i for _, i in heapq.nlargest(k, ((float(x), -i) for i, x in enumerate(p)))]
    out = np.zeros(p.size)
    out[[-i for i in kept]] = p[[-i for i in kept]]
    return to_one(out)


def top_p_renormalize(probs, p):
    q = np.array(probs, dtype=float)
    if q.ndim != 1 or q.size == 0 or not np.isfinite(q).all() or (q < 0).any():
        raise ValueError("probs must be a finite, non-negative vector")
    if isinstance(p, bool | np.bool_) or not isinstance(p, int | float | np.integer | np.floating):
        raise ValueError("p must be a number")
    if not (math.isfinite(p) and 0 < p <= 1):
        raise ValueError("p must be in (0, 1]")
    if not (q > 0).any():
        raise ValueError("nothing to rescale: every probability is 0")
    ranked = sorted(range(q.size), key=lambda i: (-q[i], i))
    out = np.zeros(q.size)
    mass = 0.0
    with np.errstate(over="ignore"):
        for i in ranked:
            if p < 1 and mass >= p:
                break
            out[i] = q[i]
            mass = mass + float(q[i])
    return to_one(out)


def flash_attention(q, k, v, block):
    q, k, v = (np.array(a, dtype=float) for a in (q, k, v))
    if q.ndim != 2 or k.shape != q.shape or v.ndim != 2 or v.shape[0] != q.shape[0]:
        raise ValueError("q, k must be (T, d) and v (T, d_v)")
    if 0 in q.shape or 0 in v.shape:
        raise ValueError("T, d and d_v must be >= 1")
    b = as_int("block", block, 1)
    t, d = q.shape
    out = np.empty((t, v.shape[1]))
    for i in range(t):  # one query row, key blocks up to its own position
        m, denom, acc = -math.inf, 0.0, np.zeros(v.shape[1])
        for j in range(0, i + 1, b):
            hi = min(j + b, i + 1)
            s = k[j:hi] @ q[i] / math.sqrt(d)
            new_m = max(m, float(s.max()))
            w = np.exp(s - new_m)
            scale = math.exp(m - new_m) if m > -math.inf else 0.0
            denom = denom * scale + w.sum()
            acc = acc * scale + w @ v[j:hi]
            m = new_m
        out[i] = acc / denom
    return out


def linear_attention(q, k, v):
    q, k, v = (np.array(a, dtype=float) for a in (q, k, v))
    if q.ndim != 2 or k.shape != q.shape or v.ndim != 2 or v.shape[0] != q.shape[0]:
        raise ValueError("q, k must be (T, d) and v (T, d_v)")
    if 0 in q.shape or 0 in v.shape:
        raise ValueError("T, d and d_v must be >= 1")
    fq, fk = phi(q), phi(k)
    out = np.empty((q.shape[0], v.shape[1]))
    s = np.zeros((q.shape[1], v.shape[1]))
    z = np.zeros(q.shape[1])
    for t in range(q.shape[0]):  # prefix sums, one position at a time
        s = s + fk[t][:, None] * v[t][None, :]
        z = z + fk[t]
        out[t] = (fq[t] @ s) / (fq[t] @ z)
    return out


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    x = np.array(x, dtype=float)
    w_router = np.array(w_router, dtype=float)
    w_in = np.array(experts_w_in, dtype=float)
    w_out = np.array(experts_w_out, dtype=float)
    if x.ndim != 2 or 0 in x.shape or w_router.ndim != 2 or w_router.shape[0] != x.shape[1]:
        raise ValueError("x must be (T, d) and w_router (d, E)")
    t, d = x.shape
    e = w_router.shape[1]
    if w_in.ndim != 3 or w_in.shape[:2] != (e, d) or w_out.shape != (e, w_in.shape[2], d):
        raise ValueError("bad expert shapes")
    k = as_int("top_k", top_k, 1)
    if k > e:
        raise ValueError("top_k must be <= E")
    scores = x @ w_router  # (T, E)
    y = np.zeros((t, d))
    for token in range(t):
        chosen = sorted(range(e), key=lambda j: (-scores[token, j], j))[:k]
        kept = scores[token, chosen]
        gates = np.exp(kept - kept.max())
        gates = gates / gates.sum()
        for gate, j in zip(gates, chosen):
            y[token] += gate * position_wise_mlp(x[token : token + 1], w_in[j], w_out[j])[0]
    return y


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
):
    for name, flag in (("biases", biases), ("layernorm", layernorm), ("tied", tied)):
        if not isinstance(flag, (bool, np.bool_)):
            raise ValueError(f"{name} must be True or False")
    return _count(
        vocab,
        d_model,
        n_layer,
        d_ff,
        context_length,
        n_head=n_head,
        positions=positions,
        biases=bool(biases),
        layernorm=bool(layernorm),
        tied=bool(tied),
    )
