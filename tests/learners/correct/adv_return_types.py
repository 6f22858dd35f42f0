"""Correct, from an adversarial tester's alternatives (alt_return_types; greedy_token changed
here to compare in the logits' own dtype, as the contract says): other return forms
(F-ordered / negative-stride views, NumPy int, list of floats, list merges, np.float64)."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from __future__ import annotations

import math
import operator

from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray
from _base import *


Array = NDArray[np.float64]


def _integer(name: str, value: object, minimum: int) -> int:
    """``value`` as a Python int >= ``minimum``, or a ValueError naming the argument."""
    # bool is an int to Python, and np.bool_ was once an index: neither is a size
    if isinstance(value, bool | np.bool_):
        raise ValueError(f"{name} must be an integer, got the boolean {value!r}")
    try:
        number = operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise ValueError(f"{name} must be an integer, got {value!r}") from None
    if number < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {number}")
    return number


def _frequencies(width: int) -> Array:
    """ω_i = 10000^(−2i/width) for i = 0..width/2−1: one angular frequency per pair (10000 is
    the wavelength base of both papers)."""
    if isinstance(width, bool) or not isinstance(width, int | np.integer) or width < 2 or width % 2:
        raise ValueError(f"the width must be an even integer >= 2, got {width!r}")
    return 10000.0 ** (-np.arange(0, width, 2, dtype=np.float64) / width)


def _count(name: str, value: int, minimum: int) -> int:
    """An exact Python int from an integer argument (NumPy integers too), or ValueError."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def _byte_values(data: NDArray[np.integer] | Sequence[int]) -> list[int]:
    """The byte values of ``data`` (N,), or ValueError when it is not bytes."""
    arr = np.asarray(data)
    if arr.ndim != 1 or not (arr.size == 0 or np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"data must be a vector of byte values, got {arr.dtype} {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 255):
        raise ValueError("data must hold byte values 0..255")
    return [int(v) for v in arr]


def _link(ids: list[int], tracked: set[tuple[int, int]] | None) -> Links:
    """The linked list of ``ids``, indexing only the pairs in ``tracked`` (None: all)."""
    n = len(ids)
    nxt = [*range(1, n), -1] if n else []
    prv = list(range(-1, n - 1))
    where: dict[tuple[int, int], set[int]] = {}
    for i in range(n - 1):
        pair = (ids[i], ids[i + 1])
        if tracked is None or pair in tracked:
            where.setdefault(pair, set()).add(i)
    return ids, nxt, prv, where


def _merge(
    links: Links,
    pair: tuple[int, int],
    new: int,
    tracked: set[tuple[int, int]] | None,
    changed: set[tuple[int, int]] | None,
) -> None:
    """Replace every occurrence of ``pair`` by ``new``, left to right, adding the pairs whose
    counts change to ``changed`` (when given). An occurrence that overlaps one merged just
    before it (the second (a, a) of "aaa") is no longer there and is skipped."""
    tok, nxt, prv, where = links
    a, b = pair
    for i in sorted(where.pop(pair, ())):
        j = nxt[i]
        if tok[i] != a or j < 0 or tok[j] != b:
            continue  # consumed by the previous, overlapping occurrence
        before, after = prv[i], nxt[j]
        tok[i], tok[j] = new, -1
        nxt[i] = after
        if before >= 0:  # (x, a) at `before` becomes (x, new)
            old = (tok[before], a)
            positions = where.get(old)
            if positions is not None:
                positions.discard(before)
                if not positions:
                    del where[old]
            grown = (tok[before], new)
            if tracked is None or grown in tracked:
                where.setdefault(grown, set()).add(before)
            if changed is not None:
                changed.update((old, grown))
        if after >= 0:  # (b, y) at j becomes (new, y) at i
            prv[after] = i
            old = (b, tok[after])
            positions = where.get(old)
            if positions is not None:
                positions.discard(j)
                if not positions:
                    del where[old]
            grown = (new, tok[after])
            if tracked is None or grown in tracked:
                where.setdefault(grown, set()).add(i)
            if changed is not None:
                changed.update((old, grown))


def chain_rule_nll(joint: NDArray[np.float64], tokens: Sequence[int]) -> float:
    """Stage 1: -log P(x_1..x_T) as the sum of -log P(x_t | x_<t), from a joint table.

    ``joint`` has shape (V,) * T with T >= 1: finite, non-negative, summing to 1 (within
    1e-6). ``tokens`` holds T integers in 0..V-1. The conditionals are ratios of marginals,
    P(x_t | x_<t) = P(x_<=t) / P(x_<t), which is exactly the chain rule. A sequence of
    probability 0 has an NLL of +inf; anything outside these rules is a ValueError.
    """
    joint = np.asarray(joint, dtype=np.float64)
    t_len = joint.ndim
    if t_len < 1 or joint.size == 0 or len(set(joint.shape)) != 1:
        raise ValueError(f"joint must have shape (V,) * T with V, T >= 1, got {joint.shape}")
    if not np.all(np.isfinite(joint)) or np.any(joint < 0):
        raise ValueError("joint must hold finite, non-negative probabilities")
    if abs(float(joint.sum()) - 1.0) > 1e-6:
        raise ValueError(f"joint must sum to 1, got {float(joint.sum())!r}")
    if len(tokens) != t_len:
        raise ValueError(f"tokens has length {len(tokens)}, the joint table has T={t_len}")
    vocab = joint.shape[0]
    index = tuple(_integer(f"tokens[{i}]", x, 0) for i, x in enumerate(tokens))
    if any(x >= vocab for x in index):
        raise ValueError(f"tokens must lie in 0..{vocab - 1}, got {list(index)}")
    nll = 0.0
    prefix_mass = 1.0
    for t in range(1, t_len + 1):
        # marginal over the first t tokens: sum out positions t..T-1
        marginal = joint.sum(axis=tuple(range(t, t_len))) if t < t_len else joint  # (V,)*t
        mass = float(marginal[index[:t]])
        if mass == 0.0:  # a prefix the distribution never produces: probability 0
            return math.inf
        nll -= math.log(mass / prefix_mass)
        prefix_mass = mass
    return np.float64(nll)


def top_k_renormalize(probs: Array, k: int) -> Array:
    """Stage 6: keep the k largest probabilities, set the rest to an exact 0, rescale to 1.

    ``probs`` is a vector (V,) with V >= 1 of finite, non-negative numbers; k is an integer
    in 1..V. Ties at the boundary keep the lower index (a stable sort), so exactly k entries
    are kept. The kept entries must have a positive sum. Every violation is a ValueError.
    Returns float64.
    """
    p = np.asarray(probs, dtype=np.float64)  # (V,)
    if p.ndim != 1 or p.shape[0] == 0:
        raise ValueError(f"probs must be a non-empty vector, got shape {p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probs must be finite and non-negative")
    k = _integer("k", k, 1)
    if k > p.shape[0]:
        raise ValueError(f"k must be in 1..{p.shape[0]}, got {k}")
    keep = np.argsort(-p, kind="stable")[:k]  # (k,)
    out = np.zeros_like(p)
    out[keep] = p[keep]
    return to_one(out).tolist()  # a list of floats (to_one: the base's overflow-safe rescale)


def greedy_token(logits: Array) -> int:
    """Stage 6 (T = 0): greedy decoding, the index of the largest logit (ties: the lowest).

    This is the separate path the chapter means: softmax_temperature refuses T = 0, and
    greedy decoding never forms a distribution at all. Returns a Python int; ValueError for
    logits with a NaN (no token ranks first) or no logits at all (−inf entries are fine).
    """
    z = np.asarray(logits)  # (V,), compared in its own dtype (int64 past 2**53 stays exact)
    if z.ndim != 1 or z.shape[0] == 0:
        raise ValueError(f"logits must be a non-empty vector, got shape {z.shape}")
    if z.dtype.kind == "f" and np.any(np.isnan(z)):
        raise ValueError("logits contain NaN; no token ranks first")
    return np.argmax(z)  # a NumPy integer


def output_head(h: Array, table: Array) -> Array:
    """Stage 3 (output projection): V logits per position from the tied (V, d) embedding.

    Shapes: h (T, d), table (V, d) -> (T, V): logits = h @ tableᵀ, so the head adds no
    parameter of its own (the chapter's "输出头（embedding 共享时）0"). ValueError when the
    widths differ.
    """
    h = np.asarray(h, dtype=np.float64)  # (T, d)
    table = np.asarray(table, dtype=np.float64)  # (V, d)
    if h.ndim != 2 or table.ndim != 2 or h.shape[1] != table.shape[1]:
        raise ValueError(f"need h (T, d) and table (V, d); got {h.shape}, {table.shape}")
    return (table @ h.T).T  # an F-ordered view


def sinusoidal_positions(length: int, d_model: int) -> Array:
    """Stage 3 (sinusoidal positions): the (T, d) table computed from t, no parameter.

    PE[t, 2i] = sin(t·ω_i) and PE[t, 2i+1] = cos(t·ω_i) with ω_i = 10000^(−2i/d), the
    interleaved layout of "Attention Is All You Need" (not sines then cosines in two halves).
    ValueError for an odd d_model or a negative length.
    """
    if isinstance(length, bool) or not isinstance(length, int | np.integer) or length < 0:
        raise ValueError(f"length must be an integer >= 0, got {length!r}")
    omega = _frequencies(d_model)  # (d/2,)
    angles = np.arange(length, dtype=np.float64)[:, None] * omega  # (T, d/2)
    pe = np.empty((int(length), int(d_model)))  # (T, d)
    pe[:, 0::2] = np.sin(angles)
    pe[:, 1::2] = np.cos(angles)
    return np.ascontiguousarray(pe[::-1])[::-1]  # a negative-stride view


def kv_cache_bytes(
    batch: int, length: int, n_layer: int, d_model: int, bytes_per_value: int = 4
) -> int:
    """Stage 7 (KV cache): 2 × B × T × L × d × bytes, the keys and values of T tokens.

    Each of the L layers keeps one key and one value vector of width d (all heads together)
    for each of the T tokens of each of the B sequences; FP32 is 4 bytes. Sizes are integers
    >= 0 (bytes_per_value >= 1), Python or NumPy; the result is an exact Python int.
    """
    b = _count("batch", batch, 0)
    t = _count("length", length, 0)
    n_layer_ = _count("n_layer", n_layer, 0)
    d = _count("d_model", d_model, 0)
    size = _count("bytes_per_value", bytes_per_value, 1)
    return np.int64(2) * b * t * n_layer_ * d * size if False else 2 * b * t * n_layer_ * d * size


def bpe_train(data: NDArray[np.uint8], vocab_size: int) -> list[tuple[int, int]]:
    """Stage 7 (chapter 6's byte BPE): the merges that grow 256 byte tokens to vocab_size.

    ``data`` is the training text's UTF-8 bytes (N,). Each step merges the most frequent
    adjacent pair of the current tokens (occurrences counted overlapping, as in "aaa" ->
    two (a, a); ties: the smallest (left, right) ids) into token id 256 + step, replacing
    its occurrences left to right. Training stops early when no pair occurs twice. Returns
    the merges in order, as (left id, right id) pairs: merge i creates token 256 + i.
    vocab_size only says when to stop, so the merges for a smaller vocab_size are a prefix
    of those for a larger one (tokenizer.bpe-bill trains once, at its largest V, and slices).
    ValueError for vocab_size < 256.
    """
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int | np.integer):
        raise ValueError(f"vocab_size must be an integer, got {vocab_size!r}")
    if vocab_size < 256:
        raise ValueError(f"vocab_size must be >= 256 (the byte tokens), got {vocab_size}")
    import heapq  # here, so the function copied into a learner's scaffold brings it along

    links = _link(_byte_values(data), None)
    where = links[3]
    # a max-heap of (−count, pair), refreshed lazily: an entry whose count is stale is put
    # back with the current count when it surfaces, so the top is always a most frequent pair
    heap = [(-len(positions), pair) for pair, positions in where.items()]
    heapq.heapify(heap)
    merges: list[tuple[int, int]] = []
    while len(merges) < vocab_size - 256 and heap:
        negative, pair = heapq.heappop(heap)
        current = len(where.get(pair, ()))
        if current != -negative:
            if current:
                heapq.heappush(heap, (-current, pair))
            continue
        if current < 2:
            break  # merging a pair seen once only renames it
        touched: set[tuple[int, int]] = set()
        _merge(links, pair, 256 + len(merges), None, touched)
        for other in touched:
            n = len(where.get(other, ()))
            if n:
                heapq.heappush(heap, (-n, other))
        merges.append(pair)
    return [list(m) for m in merges]  # lists, not tuples
