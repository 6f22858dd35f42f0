"""Stage 7: a byte-level BPE, to put real token counts behind the tokenizer's bill.

Chapter 6's tokenizer in its plainest form: the text's UTF-8 bytes are the 256 base tokens;
training repeatedly replaces the most frequent adjacent pair of tokens by a new token id
(256, 257, ...) until the vocabulary has ``vocab_size`` tokens; encoding replays the merges
in the order they were learned. There is no pre-tokenization, so a merge may span a space or
a punctuation mark, and the result depends on nothing but the bytes and the vocabulary size.

Both functions keep the tokens as a doubly linked list over the positions of the original
bytes, with, for every adjacent pair, the set of positions where it starts; a merge updates
only the neighbours of each occurrence, so it costs what it changes rather than a pass over
the whole text. (Plain functions and no module constants: ``runner scaffold --reference``
copies a subject with the private functions it names, nothing else.)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from checks.pack import subject
from checks.reference._args import _integer

# The linked list: tok[i] is the token at position i (−1 once merged into its left
# neighbour), nxt[i] / prv[i] the next / previous live position (−1 at the ends), and
# where[(a, b)] every live position i holding a followed by b (overlapping occurrences
# included: "aaa" has two (a, a)).
Links = tuple[list[int], list[int], list[int], dict[tuple[int, int], set[int]]]


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


def _byte_values(data: NDArray[np.integer] | Sequence[int]) -> list[int]:
    """The byte values of ``data`` (N,), or ValueError when it is not bytes."""
    arr = np.asarray(data)
    if arr.ndim != 1 or not (arr.size == 0 or np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"data must be a vector of byte values, got {arr.dtype} {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() > 255):
        raise ValueError("data must hold byte values 0..255")
    return [int(v) for v in arr]


@subject("bpe_train")
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
    return _learn(_link(_byte_values(data), None), vocab_size - 256, 2)


def _learn(links: Links, count: int, least: int) -> list[tuple[int, int]]:
    """Up to ``count`` merges on ``links``, each of a most frequent pair (ties: the smallest
    (left, right) ids), while a most frequent pair occurs at least ``least`` times (bpe_train
    stops below 2; the pack's case generator merges pairs seen once too)."""
    import heapq  # here, so the function copied into a learner's scaffold brings it along

    where = links[3]
    # a max-heap of (−count, pair), refreshed lazily: an entry whose count is stale is put
    # back with the current count when it surfaces, so the top is always a most frequent pair
    heap = [(-len(positions), pair) for pair, positions in where.items()]
    heapq.heapify(heap)
    merges: list[tuple[int, int]] = []
    while len(merges) < count and heap:
        negative, pair = heapq.heappop(heap)
        current = len(where.get(pair, ()))
        if current != -negative:
            if current:
                heapq.heappush(heap, (-current, pair))
            continue
        if current < least:
            break
        touched: set[tuple[int, int]] = set()
        _merge(links, pair, 256 + len(merges), None, touched)
        for other in touched:
            n = len(where.get(other, ()))
            if n:
                heapq.heappush(heap, (-n, other))
        merges.append(pair)
    return merges


@subject("bpe_encode")
def bpe_encode(data: NDArray[np.uint8], merges: Sequence[Sequence[int]]) -> NDArray[np.int64]:
    """Stage 7 (chapter 6's byte BPE): the token ids of ``data`` under ``merges``.

    ``data`` (N,) bytes; ``merges`` as returned by bpe_train (merge i makes token 256 + i),
    each a (left, right) pair as a tuple or a list. The merges are replayed in order, each
    over the whole sequence, left to right (a merge listed twice is replayed in each of its
    turns: the second finds no pair left, so its token is never made; a dict of ranks, which
    keeps the last, gets this wrong); the result (n,) has n <= N integer ids, and
    concatenating each id's bytes gives ``data`` back. ValueError for a merge that names a
    token that does not exist yet: merge i may name only ids 0..255 + i (the bytes and the
    tokens of merges 0..i−1), so a negative id, or 256 + i and beyond, is refused.
    """
    pairs: list[tuple[int, int]] = []
    for rank, merge in enumerate(merges):
        if len(merge) != 2:
            raise ValueError(f"merge {rank} must be a (left, right) pair, got {merge!r}")
        a, b = (
            _integer(f"merges[{rank}][0]", merge[0], 0),
            _integer(f"merges[{rank}][1]", merge[1], 0),
        )
        if not (a < 256 + rank and b < 256 + rank):
            raise ValueError(f"merge {rank} names a token that does not exist yet: {merge!r}")
        pairs.append((a, b))
    tracked = set(pairs)  # only the merges' pairs can ever be merged, so only they are indexed
    links = _link(_byte_values(data), tracked)
    for rank, pair in enumerate(pairs):
        _merge(links, pair, 256 + rank, tracked, None)
    tok, nxt = links[0], links[1]
    out: list[int] = []
    i = 0 if tok else -1
    while i >= 0:  # walk the live positions left to right
        out.append(tok[i])
        i = nxt[i]
    return np.asarray(out, dtype=np.int64)
