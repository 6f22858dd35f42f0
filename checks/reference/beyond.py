"""Stage 2, beyond the block: where later designs sit on the structure–flexibility axis.

阶段二 names three moves away from the plain Transformer and says where each one lands:

* MoE (chapter 12) moves towards *flexibility*: the FFN is split into experts and a router
  picks a few per token, so the parameters grow while each token's compute does not;
* linear attention (and state-space models) moves towards *cheap*: it gives up the exact
  softmax over every pair of positions and gets a cost linear in T;
* FlashAttention (chapter 10) is *not on the axis*: it changes no parameter and computes the
  same function, only in another order of memory access.

Each function returns its output only. What it costs is measured from outside (the peak
memory of the call, a probe that only a routed layer survives), never reported by the
function about itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from checks.pack import subject
from checks.reference._args import _integer
from checks.reference.attention import position_wise_mlp

Array = NDArray[np.float64]


def _elu_plus_one(x: Array) -> Array:
    """φ(x) = elu(x) + 1: x + 1 for x > 0, exp(x) otherwise; positive, so sums never cancel."""
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def _qkv(q: Array, k: Array, v: Array) -> tuple[Array, Array, Array]:
    """q, k (T, d) and v (T, d_v) as float64, or a ValueError saying which shape is wrong."""
    q = np.asarray(q, dtype=np.float64)  # (T, d)
    k = np.asarray(k, dtype=np.float64)  # (T, d)
    v = np.asarray(v, dtype=np.float64)  # (T, d_v)
    if q.ndim != 2 or k.shape != q.shape or v.ndim != 2 or v.shape[0] != q.shape[0]:
        raise ValueError(f"need q, k (T, d) and v (T, d_v); got {q.shape}, {k.shape}, {v.shape}")
    if 0 in q.shape or 0 in v.shape:
        raise ValueError(f"need T, d, d_v >= 1, got q {q.shape} and v {v.shape}")
    return q, k, v


@subject("flash_attention")
def flash_attention(q: Array, k: Array, v: Array, block: int) -> Array:
    """Stage 2 (FlashAttention): causal one-head attention, tile by tile, never (T, T).

    Shapes: q, k (T, d), v (T, d_v) -> (T, d_v) float64, the same function as
    softmax(mask(q kᵀ / √d)) v (d is q's width), computed in float64 whatever the inputs'
    dtype (float32 or integer q, k, v included: float32 arithmetic is off by about 1e-7).
    ``block`` (an integer >= 1, else ValueError) is the tile size; any block gives the same
    output. Shapes that do not fit (k not q's shape, v with another T, T, d or d_v = 0) are
    a ValueError. Scores of any finite size
    give no NaN (±1e3 and beyond: the running max starts at −∞, never at 0), and the future
    is masked with −∞, not the most negative float: scores at np.finfo(np.float64).min are
    finite and must still give the future weight 0. Queries and keys are taken ``block``
    at a time; for each query tile a running max m, a running sum l of exp(score − m) and a
    running sum of exp(score − m)·v are kept over the key tiles. When a new key tile raises
    the max, the old sums are rescaled by exp(m_old − m_new) first (the online softmax);
    dividing by l at the end gives exactly the softmax's weighted sum. Key tiles entirely in
    the future are skipped. The largest temporary is a (block, block) tile: no (T, T) array.
    The claims measure the call's peak memory: at T = 2,048 it must stay below a quarter of
    one (T, T) float64 array and grow at most like T^1.5, which any order of the work that
    never holds a (T, T) array meets (tiles, one query row at a time, query strips).
    """
    q, k, v = _qkv(q, k, v)  # (T, d), (T, d), (T, d_v)
    block = _integer("block", block, 1)
    t_len, d = q.shape
    scale = 1.0 / math.sqrt(d)
    out = np.empty((t_len, v.shape[1]))  # (T, d_v): the result, filled one query tile at a time
    # Each tile's arithmetic is done in place where it can be: the fewer temporaries, the
    # cheaper a call whose peak memory is measured (every allocation is traced).
    for i0 in range(0, t_len, block):
        i1 = min(i0 + block, t_len)
        q_tile = q[i0:i1]  # (Bq, d), a view
        m = np.full(i1 - i0, -np.inf)  # (Bq,) running max of each row's scores
        l_sum = np.zeros(i1 - i0)  # (Bq,) running sum of exp(score - m)
        acc = np.zeros((i1 - i0, v.shape[1]))  # (Bq, d_v) running sum of exp(score - m) v
        for j0 in range(0, i1, block):  # causal: key tiles past the last query are skipped
            j1 = min(j0 + block, t_len)
            k_tile, v_tile = k[j0:j1], v[j0:j1]  # (Bk, d), (Bk, d_v), views
            s = q_tile @ k_tile.T  # (Bq, Bk)
            s *= scale
            if j1 - 1 > i0:  # the tile crosses the diagonal: hide each query's future keys
                future = np.arange(j0, j1)[None, :] > np.arange(i0, i1)[:, None]  # (Bq, Bk)
                s[future] = -np.inf
            # every row sees key 0 in the first key tile, so m is finite from then on
            m_new = np.maximum(m, s.max(axis=1))  # (Bq,)
            s -= m_new[:, None]
            p = np.exp(s, out=s)  # (Bq, Bk) exp(score - m_new), in the scores' place
            rescale = np.exp(m - m_new)  # (Bq,) exp(-inf) = 0 on the first tile
            l_sum *= rescale
            l_sum += p.sum(axis=1)  # (Bq,)
            acc *= rescale[:, None]
            acc += p @ v_tile  # (Bq, d_v)
            m = m_new
        out[i0:i1] = acc / l_sum[:, None]
    return out


@subject("linear_attention")
def linear_attention(q: Array, k: Array, v: Array) -> Array:
    """Stage 2 (linear attention): causal kernelized attention in O(T·d·d_v).

    Shapes: q, k (T, d), v (T, d_v) -> (T, d_v) float64, computed in float64 whatever the
    inputs' dtype (float32 or integer included). The softmax kernel exp(q·k) is
    replaced by φ(q)·φ(k) with φ(x) = elu(x) + 1 (x + 1 for x > 0, eˣ otherwise), so the
    weighted sum factorizes: out_t = φ(q_t)ᵀ S_t / φ(q_t)ᵀ z_t with running sums
    S_t = Σ_{s≤t} φ(k_s) v_sᵀ (d, d_v) and z_t = Σ_{s≤t} φ(k_s) (d,). No scale on q or k.
    One pass over t; there is no (T, T) array and no per-pair softmax: the exact pairwise
    interaction is what is given up. Bad shapes are a ValueError, and so are empty ones
    (T, d or d_v of 0, as for flash_attention). The claims measure the
    call's peak memory as for flash_attention: any form that never holds a (T, T) array
    passes (the recurrence, z folded into S, cumulative sums); the quadratic parallel form
    (φ(Q)φ(K)ᵀ masked, times V) computes the same function and fails them.

    Its domain: finite q and k whose entries are >= −300. Further below, φ = eˣ underflows
    (e^−745 is 0 in float64) and φ(q_t)ᵀ z_t can be 0/0, in this reference too; such inputs
    are outside the contract, and no claim passes them. Large positive entries are fine.
    """
    q, k, v = _qkv(q, k, v)  # (T, d), (T, d), (T, d_v)
    t_len, d = q.shape
    d_v = v.shape[1]
    phi_q, phi_k = _elu_plus_one(q), _elu_plus_one(k)  # (T, d) each, like the inputs
    state = np.zeros((d, d_v))  # (d, d_v) S_t = Σ φ(k_s) v_sᵀ over the prefix
    norm = np.zeros(d)  # (d,) z_t = Σ φ(k_s) over the prefix
    out = np.empty((t_len, d_v))  # (T, d_v): the result
    # The recurrence, a chunk of positions at a time: within a chunk the running sums are
    # cumulative sums (one NumPy call each, not one Python step per t), and only the
    # chunk's (C, d, d_v) sums exist at once, so the memory stays linear in T. A chunk holds
    # at most 64 positions and 65,536 values (one position's sums when d·d_v is larger).
    chunk = max(1, min(64, 65_536 // (d * d_v)))
    for c0 in range(0, t_len, chunk):
        c1 = min(c0 + chunk, t_len)
        outer = phi_k[c0:c1, :, None] * v[c0:c1, None, :]  # (C, d, d_v) φ(k_s) v_sᵀ
        sums = state + np.cumsum(outer, axis=0)  # (C, d, d_v) S_t for t in the chunk
        norms = norm + np.cumsum(phi_k[c0:c1], axis=0)  # (C, d) z_t
        q_c = phi_q[c0:c1, None, :]  # (C, 1, d)
        numerator = (q_c @ sums)[:, 0, :]  # (C, d_v) φ(q_t)ᵀ S_t
        out[c0:c1] = numerator / (q_c @ norms[:, :, None])[:, 0, :]  # the denominator is > 0
        state, norm = sums[-1], norms[-1]
    return out


@subject("moe_layer", uses=("position_wise_mlp",))
def moe_layer(
    x: Array,
    w_router: Array,
    experts_w_in: Array,
    experts_w_out: Array,
    top_k: int,
    *,
    position_wise_mlp: Callable[[Array, Array, Array], Array] = position_wise_mlp,
) -> Array:
    """Stage 2 (MoE): the FFN split into E experts, each token sent to its top-k of them.

    Shapes: x (T, d), w_router (d, E), experts_w_in (E, d, d_ff), experts_w_out (E, d_ff, d)
    -> (T, d) float64, computed in float64 whatever the inputs' dtype (float32 weights, or
    an integer x, included). Expert e is stage 3's position_wise_mlp with weights
    (experts_w_in[e], experts_w_out[e]). The router scores every expert, x @ w_router (T, E);
    each token keeps its top_k highest scores (ties keep the lower expert index) and weighs
    the kept experts' outputs by a softmax over the kept scores only (the gates sum to 1 over
    its top_k experts; E = 1, top_k = 1 is the dense FFN). An expert no token chose is never
    run: its weights are not read at all (the claims set them to NaN, and the output must
    stay finite: running every expert and multiplying by a gate of 0 gives 0·NaN = NaN).
    top_k is an integer in 1..E; bad shapes or top_k are a ValueError.
    """
    x = np.asarray(x, dtype=np.float64)  # (T, d)
    w_router = np.asarray(w_router, dtype=np.float64)  # (d, E)
    experts_w_in = np.asarray(experts_w_in, dtype=np.float64)  # (E, d, d_ff)
    experts_w_out = np.asarray(experts_w_out, dtype=np.float64)  # (E, d_ff, d)
    if x.ndim != 2 or 0 in x.shape or w_router.ndim != 2 or w_router.shape[0] != x.shape[1]:
        raise ValueError(f"need x (T, d) and w_router (d, E); got {x.shape}, {w_router.shape}")
    t_len, d = x.shape
    n_experts = w_router.shape[1]
    if experts_w_in.ndim != 3 or experts_w_in.shape[:2] != (n_experts, d):
        raise ValueError(f"experts_w_in must be ({n_experts}, {d}, d_ff), got {experts_w_in.shape}")
    d_ff = experts_w_in.shape[2]
    if experts_w_out.shape != (n_experts, d_ff, d):
        raise ValueError(
            f"experts_w_out must be ({n_experts}, {d_ff}, {d}), got {experts_w_out.shape}"
        )
    top_k = _integer("top_k", top_k, 1)
    if top_k > n_experts:
        raise ValueError(f"top_k must be in 1..{n_experts}, got {top_k}")
    logits = x @ w_router  # (T, E)
    chosen = np.argsort(-logits, axis=1, kind="stable")[:, :top_k]  # (T, k) expert ids
    kept = np.take_along_axis(logits, chosen, axis=1)  # (T, k)
    gates = np.exp(kept - kept.max(axis=1, keepdims=True))  # (T, k)
    gates /= gates.sum(axis=1, keepdims=True)  # a softmax over the kept experts
    y = np.zeros((t_len, d))  # (T, d)
    for e in range(n_experts):
        rows, slot = np.nonzero(chosen == e)  # the tokens routed to e (each at most once)
        if rows.size == 0:
            continue  # an expert nobody chose costs nothing
        h = np.asarray(position_wise_mlp(x[rows], experts_w_in[e], experts_w_out[e]))  # (n_e, d)
        y[rows] += gates[rows, slot][:, None] * h
    return y


@subject("moe_parameter_count")
def moe_parameter_count(d_model: int, d_ff: int, n_experts: int) -> int:
    """Stage 2 (MoE): parameters of one MoE layer without biases, as an exact Python int.

    The router (d, E) plus E experts of two matrices each, (d, d_ff) and (d_ff, d):
    d·E + E·2·d·d_ff. It grows linearly in E; the per-token compute depends on top_k only.
    Every size is an integer >= 1 (Python or NumPy), else ValueError.
    """
    d_model = _integer("d_model", d_model, 1)
    d_ff = _integer("d_ff", d_ff, 1)
    n_experts = _integer("n_experts", n_experts, 1)
    return d_model * n_experts + n_experts * 2 * d_model * d_ff
