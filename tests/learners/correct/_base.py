"""A learner's implementation of chapter 23, written from the contract alone (the README's
signature table and the scaffold's docstrings), not from the reference's code.

It passes every claim on its own (``plain.py``), the other files here swap one function at a
time for another correct algorithm, and every mutant in ``../mutants`` starts from it and
breaks one function the way a learner would.
"""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

import numpy as np

POSITIONS = ("none", "sinusoidal", "rope", "learned")


def as_int(name, value, minimum):
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{name}: a bool is not an integer")
    try:
        value = operator.index(value)
    except TypeError:
        raise ValueError(f"{name} must be an integer, got {value!r}") from None
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


def matrix(name, a):
    a = np.asarray(a, dtype=np.float64)
    if a.ndim != 2 or a.shape[0] == 0 or a.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array, got {a.shape}")
    return a


def softmax_rows(z):
    z = z - np.max(z, axis=-1, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=-1, keepdims=True)


def gelu(h):
    c = math.sqrt(2.0 / math.pi)
    with np.errstate(over="ignore"):
        return 0.5 * h * (1.0 + np.tanh(c * (h + 0.044715 * h**3)))


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


# -- stage 1-2 -----------------------------------------------------------------------------
def sequence_support_log10(vocab, length):
    vocab = as_int("vocab", vocab, 1)
    length = as_int("length", length, 0)
    return length * math.log10(vocab)


def chain_rule_nll(joint, tokens):
    p = np.asarray(joint, dtype=np.float64)
    if p.ndim < 1 or p.size == 0 or len(set(p.shape)) != 1:
        raise ValueError("joint must be (V,)*T")
    if not np.all(np.isfinite(p)) or np.any(p < 0) or abs(p.sum() - 1.0) > 1e-6:
        raise ValueError("joint must hold finite, non-negative probabilities summing to 1")
    if len(tokens) != p.ndim:
        raise ValueError("one token per position")
    idx = [as_int("token", t, 0) for t in tokens]
    if max(idx) >= p.shape[0]:
        raise ValueError("token out of range")
    total = 0.0
    for t in range(p.ndim):
        # P(x_<=t) / P(x_<t) from the marginal over the first t+1 positions; the empty
        # prefix has probability 1 (the table is used as given, never divided by its sum)
        tail = tuple(range(t + 1, p.ndim))
        marg = p.sum(axis=tail) if tail else p
        num = marg[tuple(idx[: t + 1])]
        den = marg[tuple(idx[:t])].sum() if t else 1.0
        if num == 0:
            return math.inf
        total += math.log(den) - math.log(num)
    return float(total)


def giant_mlp_parameter_log10(vocab, length, hidden):
    hidden = as_int("hidden", hidden, 1)
    return sequence_support_log10(vocab, length) + math.log10(hidden)


def averaging_model(x):
    x = matrix("x", x)
    return np.cumsum(x, axis=0) / np.arange(1, x.shape[0] + 1)[:, None]


# -- stages 3-4: counts ------------------------------------------------------------------------
def attention_parameter_count(d_model, n_head):
    d = as_int("d_model", d_model, 1)
    h = as_int("n_head", n_head, 1)
    if d % h:
        raise ValueError("n_head must divide d_model")
    return 4 * d * d


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
    v = as_int("vocab", vocab, 1)
    d = as_int("d_model", d_model, 1)
    layers = as_int("n_layer", n_layer, 0)
    ff = as_int("d_ff", d_ff, 1)
    ctx = as_int("context_length", context_length, 0)
    if positions not in POSITIONS:
        raise ValueError(f"unknown positions {positions!r}")
    for name, flag in (("biases", biases), ("layernorm", layernorm), ("tied", tied)):
        if not isinstance(flag, bool | np.bool_):
            raise ValueError(f"{name} must be a bool")
    attention = attention_parameter_count(d, 1 if n_head is None else n_head)
    if biases:
        attention += 4 * d
    ffn = 2 * d * ff + (ff + d if biases else 0)
    norms = 4 * d if layernorm else 0
    per_layer = attention + ffn + norms
    table = {
        "embedding": v * d,
        "position_table": ctx * d if positions == "learned" else 0,
        "attention_per_layer": attention,
        "ffn_per_layer": ffn,
        "norms_per_layer": norms,
        "per_layer": per_layer,
        "final_norm": 2 * d if layernorm else 0,
        "head": 0 if tied else v * d,
    }
    table["total"] = (
        table["embedding"]
        + table["position_table"]
        + layers * per_layer
        + table["final_norm"]
        + table["head"]
    )
    return table


def moe_parameter_count(d_model, d_ff, n_experts):
    d = as_int("d_model", d_model, 1)
    ff = as_int("d_ff", d_ff, 1)
    e = as_int("n_experts", n_experts, 1)
    return d * e + e * (d * ff + ff * d)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    b = as_int("batch", batch, 0)
    t = as_int("length", length, 0)
    v = as_int("vocab", vocab, 0)
    nbytes = as_int("bytes_per_value", bytes_per_value, 1)
    return b * t * v * nbytes


# -- stages 3-5: operators ---------------------------------------------------------------------
def position_wise_mlp(x, w_in, w_out):
    x, w_in, w_out = matrix("x", x), matrix("w_in", w_in), matrix("w_out", w_out)
    if x.shape[1] != w_in.shape[0] or w_in.shape[1] != w_out.shape[0]:
        raise ValueError("shapes do not chain")
    return gelu(x @ w_in) @ w_out


def causal_masked_attention(scores):
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim < 2 or s.shape[-1] != s.shape[-2] or s.shape[-1] == 0:
        raise ValueError("scores must be (..., T, T)")
    t = s.shape[-1]
    visible = np.tril(np.ones((t, t), dtype=bool))
    return softmax_rows(np.where(visible, s, -np.inf))


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    x = matrix("x", x)
    w_q, w_k, w_v, w_o = (matrix(n, w) for n, w in zip("qkvo", (w_q, w_k, w_v, w_o)))
    if w_q.shape[0] != x.shape[1] or w_k.shape != w_q.shape or w_v.shape != w_q.shape:
        raise ValueError("w_q, w_k, w_v must be (d, W)")
    width = w_q.shape[1]
    if w_o.shape[0] != width:
        raise ValueError("w_o must be (W, d_out)")
    h = as_int("n_head", n_head, 1)
    if width % h:
        raise ValueError("n_head must divide W")
    hs = width // h
    t = x.shape[0]
    q = (x @ w_q).reshape(t, h, hs).transpose(1, 0, 2)
    k = (x @ w_k).reshape(t, h, hs).transpose(1, 0, 2)
    v = (x @ w_v).reshape(t, h, hs).transpose(1, 0, 2)
    att = causal_masked_attention(q @ k.transpose(0, 2, 1) / math.sqrt(hs))
    return (att @ v).transpose(1, 0, 2).reshape(t, width) @ w_o


# -- stage 6 -----------------------------------------------------------------------------------
def softmax_temperature(logits, temperature):
    if isinstance(temperature, bool | np.bool_) or not isinstance(
        temperature, int | float | np.integer | np.floating
    ):
        raise ValueError("temperature must be a number")
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError("temperature must be finite and > 0 (greedy decoding is argmax)")
    z = np.asarray(logits)
    if not np.issubdtype(z.dtype, np.floating):
        z = z.astype(np.float64)
    if z.ndim == 0 or z.shape[-1] == 0 or z.size == 0:
        raise ValueError("no logits")
    if not np.all(np.isfinite(z)):
        raise ValueError("logits must be finite")
    shifted = (z - z.max(axis=-1, keepdims=True)).astype(np.float64) / temperature
    e = np.exp(shifted.astype(z.dtype))
    # float16 sums past 65,504 overflow: summed in float32 at least
    total = e.sum(axis=-1, keepdims=True, dtype=np.result_type(e.dtype, np.float32))
    return (e / total).astype(e.dtype)


def top_k_renormalize(probs, k):
    p = np.asarray(probs, dtype=np.float64)
    if p.ndim != 1 or p.size == 0:
        raise ValueError("probs must be a non-empty vector")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be finite and >= 0")
    k = as_int("k", k, 1)
    if k > p.size:
        raise ValueError("k must be <= V")
    order = np.argsort(-p, kind="stable")
    out = np.zeros_like(p)
    out[order[:k]] = p[order[:k]]
    return to_one(out)


def to_one(out):
    """Kept probabilities rescaled to sum 1; over the largest first when the sum overflows
    (1e308 + 1e308 is inf, and x / inf would be 0)."""
    if not out.max() > 0:
        raise ValueError("nothing left to renormalize")
    with np.errstate(over="ignore"):
        total = out.sum()
    if not np.isfinite(total):
        out = out / out.max()
        total = out.sum()
    return out / total


# -- stage 2, beyond -----------------------------------------------------------------------------
def qkv(q, k, v):
    q, k, v = matrix("q", q), matrix("k", k), matrix("v", v)
    if k.shape != q.shape or v.shape[0] != q.shape[0]:
        raise ValueError("q, k must be (T, d) and v (T, d_v)")
    return q, k, v


def flash_attention(q, k, v, block):
    q, k, v = qkv(q, k, v)
    b = as_int("block", block, 1)
    t, d = q.shape
    out = np.zeros((t, v.shape[1]))
    for i in range(0, t, b):
        qi = q[i : i + b] / math.sqrt(d)
        rows = np.arange(i, min(i + b, t))
        m = np.full(len(rows), -np.inf)
        denom = np.zeros(len(rows))
        acc = np.zeros((len(rows), v.shape[1]))
        for j in range(0, rows[-1] + 1, b):
            cols = np.arange(j, min(j + b, t))
            s = qi @ k[j : j + b].T
            s[cols[None, :] > rows[:, None]] = -np.inf
            new_m = np.maximum(m, s.max(axis=1))
            p = np.exp(s - new_m[:, None])
            alpha = np.exp(m - new_m)
            denom = denom * alpha + p.sum(axis=1)
            acc = acc * alpha[:, None] + p @ v[j : j + b]
            m = new_m
        out[i : i + b] = acc / denom[:, None]
    return out


def linear_attention(q, k, v):
    q, k, v = qkv(q, k, v)
    fq, fk = phi(q), phi(k)
    s = np.zeros((q.shape[1], v.shape[1]))
    z = np.zeros(q.shape[1])
    out = np.zeros((q.shape[0], v.shape[1]))
    for t in range(q.shape[0]):
        s += np.outer(fk[t], v[t])
        z += fk[t]
        out[t] = fq[t] @ s / (fq[t] @ z)
    return out


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    x = matrix("x", x)
    w_router = matrix("w_router", w_router)
    w_in = np.asarray(experts_w_in, dtype=np.float64)
    w_out = np.asarray(experts_w_out, dtype=np.float64)
    t, d = x.shape
    e = w_router.shape[1]
    if w_router.shape[0] != d or w_in.ndim != 3 or w_in.shape[:2] != (e, d):
        raise ValueError("bad router or expert shapes")
    if w_out.shape != (e, w_in.shape[2], d):
        raise ValueError("experts_w_out must be (E, d_ff, d)")
    k = as_int("top_k", top_k, 1)
    if k > e:
        raise ValueError("top_k must be <= E")
    scores = x @ w_router
    top = np.argsort(-scores, axis=1, kind="stable")[:, :k]
    kept = np.take_along_axis(scores, top, axis=1)
    gates = softmax_rows(kept)
    y = np.zeros((t, d))
    for expert in range(e):
        tok, slot = np.nonzero(top == expert)
        if tok.size:
            y[tok] += gates[tok, slot, None] * position_wise_mlp(
                x[tok], w_in[expert], w_out[expert]
            )
    return y


# -- the audit's functions -------------------------------------------------------------------
def top_p_renormalize(probs, p):
    q = np.asarray(probs, dtype=np.float64)
    if q.ndim != 1 or q.size == 0 or not np.all(np.isfinite(q)) or np.any(q < 0):
        raise ValueError("probs must be a finite, non-negative vector")
    if isinstance(p, bool | np.bool_) or not isinstance(p, int | float | np.integer | np.floating):
        raise ValueError("p must be a number")
    if not (math.isfinite(p) and 0 < p <= 1):
        raise ValueError("p must be in (0, 1]")
    order = np.argsort(-q, kind="stable")
    out = np.zeros_like(q)
    mass = 0.0
    for i in order:
        if p < 1 and mass >= p:  # the mass before this token already reaches p (p = 1: all)
            break
        out[i] = q[i]
        mass += q[i]
    return to_one(out)


def greedy_token(logits):
    z = np.asarray(logits)  # compared in its own dtype: int64 past 2**53 stays exact
    if z.dtype.kind not in "biuf":
        z = np.asarray(logits, dtype=np.float64)
    if z.ndim != 1 or z.size == 0 or (z.dtype.kind == "f" and np.isnan(z).any()):
        raise ValueError("logits must be a non-empty vector without NaN")
    return int(np.argmax(z))


def layer_norm(x, gain, bias, eps=1e-5):
    x = matrix("x", x)
    gain, bias = np.asarray(gain, dtype=np.float64), np.asarray(bias, dtype=np.float64)
    if gain.shape != (x.shape[1],) or bias.shape != (x.shape[1],):
        raise ValueError("gain and bias must be (d,)")
    if not eps > 0:
        raise ValueError("eps must be > 0")
    centered = x - x.mean(axis=1, keepdims=True)
    return centered / np.sqrt((centered**2).mean(axis=1, keepdims=True) + eps) * gain + bias


def embedding_lookup(tokens, table):
    ids = np.asarray(tokens)
    table = np.asarray(table, dtype=np.float64)
    if table.ndim != 2 or ids.ndim != 1 or (ids.size and not np.issubdtype(ids.dtype, np.integer)):
        raise ValueError("tokens (T,) integer ids, table (V, d)")
    if ids.size and (ids.min() < 0 or ids.max() >= table.shape[0]):
        raise ValueError("token id out of range")
    if ids.size == 0:  # T = 0, whatever the empty vector's dtype
        return np.zeros((0, table.shape[1]))
    return table[ids]


def output_head(h, table):
    h, table = matrix("h", h), matrix("table", table)
    if h.shape[1] != table.shape[1]:
        raise ValueError("h and table must have the same width")
    return h @ table.T


def _omega(width):
    width = as_int("width", width, 2)
    if width % 2:
        raise ValueError("the width must be even")
    return np.exp(-np.log(10000.0) * np.arange(0, width, 2) / width)


def sinusoidal_positions(length, d_model):
    t = as_int("length", length, 0)
    omega = _omega(d_model)
    pe = np.zeros((t, 2 * omega.size))
    for i, w in enumerate(omega):
        pe[:, 2 * i] = np.sin(np.arange(t) * w)
        pe[:, 2 * i + 1] = np.cos(np.arange(t) * w)
    return pe


def rotary_embedding(x, offset=0):
    x = np.asarray(x, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError("x must be (T, hs)")
    start = as_int("offset", offset, 0)
    omega = _omega(x.shape[1])
    angle = (start + np.arange(x.shape[0], dtype=np.float64))[:, None] * omega[None, :]
    pairs = x.reshape(x.shape[0], -1, 2)
    c, s = np.cos(angle), np.sin(angle)
    out = np.stack(
        [pairs[..., 0] * c - pairs[..., 1] * s, pairs[..., 0] * s + pairs[..., 1] * c], axis=-1
    )
    return out.reshape(x.shape)


def kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value=4):
    sizes = [
        as_int(n, v, 0)
        for n, v in zip(
            ("batch", "length", "n_layer", "d_model"), (batch, length, n_layer, d_model)
        )
    ]
    return 2 * math.prod(sizes) * as_int("bytes_per_value", bytes_per_value, 1)


def _as_bytes(data):
    arr = np.asarray(data)
    if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
        raise ValueError("data must be a vector of bytes")
    if arr.size and (arr.min() < 0 or arr.max() > 255):
        raise ValueError("data must be bytes 0..255")
    return [int(b) for b in arr]


def _replace_pair(ids, pair, new):
    """Each occurrence of ``pair`` in ``ids`` (an int64 vector), left to right, as ``new``."""
    a, b = pair
    hit = np.flatnonzero((ids[:-1] == a) & (ids[1:] == b))  # where an occurrence starts
    if not hit.size:
        return ids
    if a == b:  # in a run "a a a" the second start overlaps the first: taken left to right
        starts, last = [], -2
        for i in hit.tolist():
            if i > last + 1:
                starts.append(i)
                last = i
        hit = np.array(starts, dtype=np.int64)
    out = ids.copy()
    out[hit] = new
    return np.delete(out, hit + 1)


def bpe_train(data, vocab_size):
    """Incremental: a linked list of live positions and, per pair, the set of positions where
    it starts; a merge touches only its occurrences' neighbours."""
    import heapq

    ids = _as_bytes(data)
    size = as_int("vocab_size", vocab_size, 256)
    n = len(ids)
    nxt, prv = list(range(1, n + 1)), list(range(-1, n - 1))
    if n:
        nxt[-1] = -1
    at = {}
    for i in range(n - 1):
        at.setdefault((ids[i], ids[i + 1]), set()).add(i)

    def drop(pair, i):
        where = at.get(pair)
        if where is not None:
            where.discard(i)

    def add(pair, i):
        at.setdefault(pair, set()).add(i)
        heapq.heappush(heap, (-len(at[pair]), pair))

    heap = [(-len(w), pair) for pair, w in at.items()]
    heapq.heapify(heap)
    merges = []
    while 256 + len(merges) < size and heap:
        count, pair = heapq.heappop(heap)
        live = len(at.get(pair, ()))
        if live != -count:  # stale entry: its count changed since it was pushed
            if live:
                heapq.heappush(heap, (-live, pair))
            continue
        if live < 2:
            break
        new = 256 + len(merges)
        for i in sorted(at.pop(pair)):
            j = nxt[i]
            if ids[i] != pair[0] or j < 0 or ids[j] != pair[1]:
                continue  # overlapped by the occurrence just merged
            left, right = prv[i], nxt[j]
            if left >= 0:
                drop((ids[left], ids[i]), left)
            if right >= 0:
                drop((ids[j], ids[right]), j)
            ids[i], ids[j] = new, -1
            nxt[i] = right
            if right >= 0:
                prv[right] = i
            if left >= 0:
                add((ids[left], new), left)
            if right >= 0:
                add((new, ids[right]), i)
        merges.append(pair)
    return merges


def bpe_encode(data, merges):
    """Merge by merge over the whole text, each merge's occurrences found at once in NumPy
    (textbook.py and adv3_bpe_naive.py keep the pure-Python loops)."""
    ids = np.array(_as_bytes(data), dtype=np.int64)
    for rank, merge in enumerate(merges):
        if len(merge) != 2:
            raise ValueError("a merge is a pair")
        a, b = int(merge[0]), int(merge[1])
        if not (0 <= a < 256 + rank and 0 <= b < 256 + rank):
            raise ValueError("a merge names a token not made yet")
        ids = _replace_pair(ids, (a, b), 256 + rank)
    return ids
