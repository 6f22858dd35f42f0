"""Correct, from an adversarial tester's fifteenth held-out set (c06): standard library first (heapq top-k, bisect top-p); flash attention as query strips against all their visible keys at once, whose peak at T = 512 is noisy enough that the exponent of its increments over 512, 1,024 and 2,048 reads 1.50 (kept: a measure of that kind would fail it)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

"""Learner style 6: standard library first. heapq.nlargest for top-k (stable, like sorted),
bisect for top-p, Python's max() for greedy, exact big integers for the giant MLP, a
chunked running sum for the averaging model, flash attention as query strips against all
their visible keys at once, linear attention by one cumulative sum over T, one-hot
embedding lookup, rotary via a pair-to-halves permutation, and BPE on str.replace over
a string whose characters are token ids."""

import bisect
import heapq
import itertools
import math
import operator
from collections import Counter, defaultdict

import numpy as np


def _whole(x, least, label):
    if type(x) is bool or isinstance(x, np.bool_):
        raise ValueError(f"{label} may not be a bool")
    if not hasattr(type(x), "__index__"):
        raise ValueError(f"{label} must be an integer, got {type(x).__name__}")
    x = operator.index(x)
    if x < least:
        raise ValueError(f"{label} must be at least {least}, got {x}")
    return x


def sequence_support_log10(vocab, length):
    V = _whole(vocab, 1, "vocab")
    T = _whole(length, 0, "length")
    return math.log10(V) * T


def giant_mlp_parameter_log10(vocab, length, hidden):
    V = _whole(vocab, 1, "vocab")
    T = _whole(length, 0, "length")
    H = _whole(hidden, 1, "hidden")
    if T * V.bit_length() <= 300_000:
        return math.log10(V**T * H)  # exact integer, then one log
    return T * math.log10(V) + math.log10(H)


def chain_rule_nll(joint, tokens):
    J = np.asarray(joint)
    J = J.astype(np.float64)
    if J.ndim < 1:
        raise ValueError("joint must have at least one axis")
    V = J.shape[0]
    if V < 1 or any(s != V for s in J.shape):
        raise ValueError("joint must be (V,)*T")
    if not np.all(np.isfinite(J)):
        raise ValueError("non-finite entry")
    if np.any(J < 0):
        raise ValueError("negative entry")
    if abs(np.sum(J) - 1) > 1e-6:
        raise ValueError("joint must sum to 1 within 1e-6")
    toks = [_whole(t, 0, "token") for t in tokens]
    if len(toks) != J.ndim:
        raise ValueError("need T tokens")
    if any(t >= V for t in toks):
        raise ValueError("token beyond V - 1")
    # product of conditionals P(x_t | x_<t), each from its prefix's slice
    total = 0.0
    sl = J
    for t in toks:
        mass_prefix = float(sl.sum())
        nxt = sl[t]
        mass = float(np.sum(nxt))
        if mass == 0.0:
            return float("inf")
        total += -math.log(mass / mass_prefix) if sl is not J else -math.log(mass)
        sl = nxt
    return total


def averaging_model(x):
    X = np.asarray(x, dtype=np.float64)
    if X.ndim != 2 or not X.shape[0] or not X.shape[1]:
        raise ValueError("x must be (T, d) with T, d >= 1")
    T, d = X.shape
    out = np.empty((T, d))
    carry = np.zeros(d)
    CH = 128
    for s in range(0, T, CH):
        e = min(s + CH, T)
        block = np.cumsum(X[s:e], axis=0) + carry  # a fixed (CH, d) buffer
        carry = block[-1].copy()
        out[s:e] = block / np.arange(s + 1, e + 1)[:, None]
    return out


def attention_parameter_count(d_model, n_head):
    d = _whole(d_model, 1, "d_model")
    H = _whole(n_head, 1, "n_head")
    if d % H:
        raise ValueError(f"{H} heads do not divide d_model = {d}")
    hs = d // H
    return H * (3 * d * hs) + d * d


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
    for label, flag in (("biases", biases), ("layernorm", layernorm), ("tied", tied)):
        if flag is not True and flag is not False and not isinstance(flag, np.bool_):
            raise ValueError(f"{label} must be True or False")
    if positions.__class__ is not str or positions not in ("none", "sinusoidal", "rope", "learned"):
        raise ValueError(
            f"positions must be one of none/sinusoidal/rope/learned, got {positions!r}"
        )
    V = _whole(vocab, 1, "vocab")
    d = _whole(d_model, 1, "d_model")
    L = _whole(n_layer, 0, "n_layer")
    f = _whole(d_ff, 1, "d_ff")
    C = _whole(context_length, 0, "context_length")
    attention = attention_parameter_count(d, 1 if n_head is None else n_head)
    ffn = 2 * d * f
    if biases:
        attention += 4 * d
        ffn += f + d
    norms = 2 * (2 * d) if layernorm else 0
    per = attention + ffn + norms
    emb = V * d
    pos = C * d if positions == "learned" else 0
    fin = 2 * d if layernorm else 0
    head = 0 if tied else V * d
    return dict(
        embedding=emb,
        position_table=pos,
        attention_per_layer=attention,
        ffn_per_layer=ffn,
        norms_per_layer=norms,
        per_layer=per,
        final_norm=fin,
        head=head,
        total=emb + pos + L * per + fin + head,
    )


def _gelu(h):
    # the tanh form written through the logistic function: 0.5(1 + tanh u) = 1/(1 + e^{-2u})
    c = math.sqrt(2.0 / math.pi)
    with np.errstate(over="ignore"):
        u = c * (h + 0.044715 * h * h * h)
        return h / (1.0 + np.exp(-2.0 * u))


def position_wise_mlp(x, w_in, w_out):
    arrs = [np.asarray(a, dtype=np.float64) for a in (x, w_in, w_out)]
    for a in arrs:
        if a.ndim != 2 or a.shape[0] == 0 or a.shape[1] == 0:
            raise ValueError("x, w_in, w_out must be non-empty matrices")
    x, w_in, w_out = arrs
    if x.shape[1] != w_in.shape[0]:
        raise ValueError("x's width is not w_in's height")
    if w_in.shape[1] != w_out.shape[0]:
        raise ValueError("w_in's width is not w_out's height")
    return _gelu(np.dot(x, w_in)).dot(w_out)


def causal_masked_attention(scores):
    S = np.asarray(scores, dtype=np.float64)
    if S.ndim < 2:
        raise ValueError("scores need two trailing axes")
    T = S.shape[-1]
    if S.shape[-2] != T or T == 0:
        raise ValueError("scores must be square (..., T, T), T >= 1")
    out = np.zeros(S.shape)
    for t in range(T):  # row by row: the visible prefix only
        row = S[..., t, : t + 1]
        e = np.exp(row - row.max(axis=-1, keepdims=True))
        out[..., t, : t + 1] = e / e.sum(axis=-1, keepdims=True)
    return out


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_head):
    X = np.asarray(x, dtype=np.float64)
    Wq, Wk, Wv, Wo = (np.asarray(w, dtype=np.float64) for w in (w_q, w_k, w_v, w_o))
    for a in (X, Wq, Wk, Wv, Wo):
        if a.ndim != 2 or 0 in a.shape:
            raise ValueError("all arguments must be non-empty matrices")
    d = X.shape[1]
    if (
        Wq.shape[0] != d
        or Wk.shape != Wq.shape
        or Wv.shape != Wq.shape
        or Wo.shape[0] != Wq.shape[1]
    ):
        raise ValueError("weight shapes do not fit")
    H = _whole(n_head, 1, "n_head")
    W = Wq.shape[1]
    if W % H:
        raise ValueError("n_head must divide the projection width")
    hs = W // H
    T = X.shape[0]
    Q, K, Vv = X @ Wq, X @ Wk, X @ Wv
    heads = np.empty((T, W))
    for h in range(H):
        c = slice(h * hs, (h + 1) * hs)
        heads[:, c] = (
            causal_masked_attention(Q[:, c] @ K[:, c].T * (1.0 / math.sqrt(hs))) @ Vv[:, c]
        )
    return heads @ Wo


def softmax_temperature(logits, temperature):
    if isinstance(temperature, (bool, np.bool_)) or not isinstance(
        temperature, (int, float, np.integer, np.floating)
    ):
        raise ValueError("temperature must be a real number")
    if not math.isfinite(temperature) or not temperature > 0:
        raise ValueError("temperature must be finite and > 0")
    L = np.asarray(logits)
    if L.dtype.kind not in "biuf":
        raise ValueError("logits must be real numbers")
    if L.ndim < 1 or L.shape[-1] < 1 or L.size < 1:
        raise ValueError("logits must be (..., V) with V >= 1")
    result_dtype = L.dtype if L.dtype.kind == "f" else np.dtype(np.float64)
    work = np.array(
        L, dtype=np.float64 if L.dtype.itemsize <= 8 or L.dtype.kind != "f" else L.dtype
    )
    bad = ~np.isfinite(work)
    if bad.any():
        raise ValueError("logits must be finite")
    work -= work.max(axis=-1, keepdims=True)
    work /= float(temperature)
    np.exp(work, out=work)
    work /= work.sum(axis=-1, keepdims=True)
    return work.astype(result_dtype, copy=False)


def _vector(probs):
    P = np.asarray(probs, dtype=np.float64)
    if P.ndim != 1 or P.size == 0:
        raise ValueError("probs must be a non-empty vector")
    if not np.isfinite(P).all():
        raise ValueError("probs must be finite")
    if (P < 0).any():
        raise ValueError("probs must be >= 0")
    return P


def _scaled(P, idx):
    vals = [float(P[i]) for i in idx]
    big = max(vals)
    if big <= 0.0:
        raise ValueError("kept mass is 0")
    vals = [v / big for v in vals]
    s = sum(vals)
    out = np.zeros(P.size)
    for i, v in zip(idx, vals):
        out[i] = v / s
    return out


def top_k_renormalize(probs, k):
    P = _vector(probs)
    k = _whole(k, 1, "k")
    if k > P.size:
        raise ValueError("k must not exceed V")
    # nlargest is documented as sorted(..., reverse=True)[:k]: stable, ties keep the lower index
    idx = heapq.nlargest(k, range(P.size), key=P.__getitem__)
    return _scaled(P, idx)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    dims = (
        _whole(batch, 0, "batch"),
        _whole(length, 0, "length"),
        _whole(vocab, 0, "vocab"),
        _whole(bytes_per_value, 1, "bytes_per_value"),
    )
    return math.prod(dims)


def _qkv(q, k, v):
    q = np.asarray(q, dtype=np.float64)
    k = np.asarray(k, dtype=np.float64)
    v = np.asarray(v, dtype=np.float64)
    if not (q.ndim == k.ndim == v.ndim == 2):
        raise ValueError("q, k, v must be 2-D")
    T, d = q.shape
    if k.shape != (T, d) or v.shape[0] != T or T < 1 or d < 1 or v.shape[1] < 1:
        raise ValueError("q, k (T, d) and v (T, d_v) with T, d, d_v >= 1")
    return q, k, v


def flash_attention(q, k, v, block):
    q, k, v = _qkv(q, k, v)
    B = _whole(block, 1, "block")
    T, d = q.shape
    B = min(B, T)
    out = np.empty((T, v.shape[1]))
    inv = 1.0 / math.sqrt(d)
    for i0 in range(0, T, B):  # query strips against every visible key at once: (B, i1) scores
        i1 = min(i0 + B, T)
        s = q[i0:i1] @ k[:i1].T * inv
        s[np.arange(i1)[None, :] > np.arange(i0, i1)[:, None]] = -np.inf
        s -= s.max(axis=1, keepdims=True)
        np.exp(s, out=s)
        out[i0:i1] = (s @ v[:i1]) / s.sum(axis=1, keepdims=True)
    return out


def linear_attention(q, k, v):
    q, k, v = _qkv(q, k, v)
    phi = lambda a: np.where(a > 0, a + 1.0, np.exp(np.minimum(a, 0.0)))
    fq, fk = phi(q), phi(k)
    S = np.cumsum(fk[:, :, None] * v[:, None, :], axis=0)  # (T, d, d_v) prefix sums
    z = np.cumsum(fk, axis=0)  # (T, d)
    num = np.einsum("td,tde->te", fq, S)
    den = np.einsum("td,td->t", fq, z)
    return num / den[:, None]


def moe_layer(x, w_router, experts_w_in, experts_w_out, top_k):
    X = np.asarray(x, dtype=np.float64)
    R = np.asarray(w_router, dtype=np.float64)
    Wi = np.asarray(experts_w_in, dtype=np.float64)
    Wo = np.asarray(experts_w_out, dtype=np.float64)
    if X.ndim != 2 or 0 in X.shape:
        raise ValueError("x must be (T, d)")
    T, d = X.shape
    if R.ndim != 2 or R.shape[0] != d or R.shape[1] == 0:
        raise ValueError("w_router must be (d, E)")
    E = R.shape[1]
    if Wi.ndim != 3 or Wi.shape[0] != E or Wi.shape[1] != d or Wi.shape[2] == 0:
        raise ValueError("experts_w_in must be (E, d, d_ff)")
    if Wo.ndim != 3 or Wo.shape[0] != E or Wo.shape[1] != Wi.shape[2] or Wo.shape[2] != d:
        raise ValueError("experts_w_out must be (E, d_ff, d)")
    K = _whole(top_k, 1, "top_k")
    if K > E:
        raise ValueError("top_k must be at most E")
    scores = X @ R
    routed = defaultdict(list)  # expert -> [(token, gate)]
    for t in range(T):
        row = scores[t]
        chosen = heapq.nlargest(K, range(E), key=row.__getitem__)
        kept = np.array([row[e] for e in chosen])
        g = np.exp(kept - kept.max())
        g = g / g.sum()
        for e, gate in zip(chosen, g):
            routed[e].append((t, gate))
    out = np.zeros((T, d))
    for e, items in routed.items():
        toks = [t for t, _ in items]
        gates = np.array([g for _, g in items])
        y = position_wise_mlp(X[toks], Wi[e], Wo[e])
        np.add.at(out, toks, gates[:, None] * y)
    return out


def moe_parameter_count(d_model, d_ff, n_experts):
    d = _whole(d_model, 1, "d_model")
    f = _whole(d_ff, 1, "d_ff")
    E = _whole(n_experts, 1, "n_experts")
    return E * d + E * (d * f + f * d)


def top_p_renormalize(probs, p):
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, float, np.integer, np.floating)):
        raise ValueError("p must be a real number")
    p = float(p)
    if not (0.0 < p <= 1.0):
        raise ValueError("p must lie in (0, 1]")
    P = _vector(probs)
    order = sorted(range(P.size), key=lambda i: (-P[i], i))
    before = [0.0]
    for i in order[:-1]:
        before.append(before[-1] + float(P[i]))
    n = len(order) if p == 1.0 else bisect.bisect_left(before, p)  # count of before < p
    return _scaled(P, order[:n])


def greedy_token(logits):
    z = np.asarray(logits)
    if z.dtype.kind not in "biuf":
        z = np.asarray(logits, dtype=np.float64)
    if z.ndim != 1 or z.shape[0] == 0:
        raise ValueError("logits must be a non-empty vector")
    if z.dtype.kind == "f" and np.isnan(z).any():
        raise ValueError("a NaN logit has no rank")
    return max(range(z.shape[0]), key=z.__getitem__)  # max() keeps the first maximum


def layer_norm(x, gain, bias, eps=1e-5):
    X = np.asarray(x, dtype=np.float64)
    G = np.asarray(gain, dtype=np.float64)
    Bv = np.asarray(bias, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError("x must be (T, d)")
    if G.ndim != 1 or G.shape[0] != X.shape[1] or Bv.ndim != 1 or Bv.shape[0] != X.shape[1]:
        raise ValueError("gain and bias must be (d,)")
    if isinstance(eps, (bool, np.bool_)) or not (eps > 0):
        raise ValueError("eps must be positive")
    mu = np.mean(X, axis=1)[:, None]
    sigma2 = np.var(X, axis=1)[:, None]
    return G * ((X - mu) / np.sqrt(sigma2 + float(eps))) + Bv


def embedding_lookup(tokens, table):
    W = np.asarray(table, dtype=np.float64)
    ids = np.asarray(tokens)
    if W.ndim != 2:
        raise ValueError("table must be (V, d)")
    if ids.ndim != 1:
        raise ValueError("tokens must be (T,)")
    V, d = W.shape
    if ids.shape[0] == 0:
        return np.zeros((0, d))
    if not np.issubdtype(ids.dtype, np.integer):
        raise ValueError("token ids must be integers")
    if ids.min() < 0 or ids.max() >= V:
        raise ValueError("token id outside 0..V-1")
    one_hot = np.zeros((ids.shape[0], V))
    one_hot[np.arange(ids.shape[0]), ids] = 1.0
    out = np.zeros((ids.shape[0], d))
    for t in range(ids.shape[0]):  # the one-hot row picks one table row (no 0 * x sums)
        out[t] = W[int(np.flatnonzero(one_hot[t])[0])]
    return out


def output_head(h, table):
    Hh = np.asarray(h, dtype=np.float64)
    W = np.asarray(table, dtype=np.float64)
    if Hh.ndim != 2 or W.ndim != 2:
        raise ValueError("h and table must be matrices")
    if Hh.shape[1] != W.shape[1]:
        raise ValueError("h and table widths differ")
    return np.tensordot(Hh, W, axes=([1], [1]))


def sinusoidal_positions(length, d_model):
    T = _whole(length, 0, "length")
    d = _whole(d_model, 1, "d_model")
    if d % 2:
        raise ValueError("d_model must be even")
    i2 = np.arange(0, d, 2, dtype=np.float64)
    omega = 10000.0 ** (-i2 / d)
    out = np.empty((T, d))
    for t in range(T):
        out[t, 0::2] = np.sin(t * omega)
        out[t, 1::2] = np.cos(t * omega)
    return out


def rotary_embedding(x, offset=0):
    X = np.asarray(x, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] < 2 or X.shape[1] % 2 != 0:
        raise ValueError("x must be (T, hs), hs even >= 2")
    off = _whole(offset, 0, "offset")
    T, hs = X.shape
    half = hs // 2
    # permute interleaved pairs into halves, rotate-half there, permute back
    perm = np.concatenate([np.arange(0, hs, 2), np.arange(1, hs, 2)])
    Y = X[:, perm]
    omega = 10000.0 ** (-np.arange(0, hs, 2, dtype=np.float64) / hs)
    ang = (np.arange(T, dtype=np.float64) + float(off))[:, None] * omega
    cos = np.concatenate([np.cos(ang), np.cos(ang)], axis=1)
    sin = np.concatenate([np.sin(ang), np.sin(ang)], axis=1)
    rot_half = np.concatenate([-Y[:, half:], Y[:, :half]], axis=1)
    Z = Y * cos + rot_half * sin
    out = np.empty_like(Z)
    out[:, perm] = Z
    return out


def kv_cache_bytes(batch, length, n_layer, d_model, bytes_per_value=4):
    n = (
        _whole(batch, 0, "batch"),
        _whole(length, 0, "length"),
        _whole(n_layer, 0, "n_layer"),
        _whole(d_model, 0, "d_model"),
        _whole(bytes_per_value, 1, "bytes_per_value"),
    )
    return 2 * math.prod(n)


_BASE = 0x10000  # token id -> one character in plane 1 and beyond


def _as_text(data):
    a = np.asarray(data)
    if a.ndim != 1 or (a.size and not np.issubdtype(a.dtype, np.integer)):
        raise ValueError("data must be a vector of bytes")
    vals = a.tolist()
    if any(not 0 <= b <= 255 for b in vals):
        raise ValueError("data must be bytes")
    return "".join(chr(_BASE + b) for b in vals)


def bpe_train(data, vocab_size):
    target = _whole(vocab_size, 256, "vocab_size")
    text = _as_text(data)
    merges = []
    while len(merges) < target - 256:
        counts = Counter(zip(text, text[1:]))  # overlapping adjacent pairs
        if not counts:
            break
        best = max(counts.values())
        if best < 2:
            break
        pair = min((ord(p[0]) - _BASE, ord(p[1]) - _BASE) for p, c in counts.items() if c == best)
        new = chr(_BASE + 256 + len(merges))
        text = text.replace(chr(_BASE + pair[0]) + chr(_BASE + pair[1]), new)  # left to right
        merges.append(pair)
    return merges


def bpe_encode(data, merges):
    rules = []
    for i, m in enumerate(merges):
        m = tuple(m)
        if len(m) != 2:
            raise ValueError("every merge is a (left, right) pair")
        a = _whole(m[0], 0, "merge id")
        b = _whole(m[1], 0, "merge id")
        if a >= 256 + i or b >= 256 + i:
            raise ValueError(f"merge {i} uses a token made later")
        rules.append((a, b))
    text = _as_text(data)
    for i, (a, b) in enumerate(rules):
        text = text.replace(chr(_BASE + a) + chr(_BASE + b), chr(_BASE + 256 + i))
    return np.array([ord(c) - _BASE for c in text], dtype=np.int64)
