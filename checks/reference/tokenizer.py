"""Stage 7: a byte-level BPE, to put real token counts behind the tokenizer's bill.

Chapter 6's tokenizer in its plainest form: the text's UTF-8 bytes are the 256 base tokens;
training repeatedly replaces the most frequent adjacent pair of tokens by a new token id
(256, 257, ...) until the vocabulary has ``vocab_size`` tokens; encoding replays the merges
in the order they were learned. There is no pre-tokenization, so a merge may span a space or
a punctuation mark, and the result depends on nothing but the bytes and the vocabulary size.

Both functions keep, for every adjacent pair, the set of positions where it starts, and
update only the neighbours of each merged occurrence, so a merge costs what it changes
rather than a pass over the whole text.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from checks.registry import subject

BYTES = 256  # the base vocabulary: one token per byte value
Pair = tuple[int, int]


class _Sequence:
    """Token ids as a doubly linked list, with the start positions of every adjacent pair.

    Positions are indices into the original bytes; a merged pair keeps its left position
    and its right one is unlinked. ``where[(a, b)]`` holds every position i where token a
    at i is followed by token b (overlapping occurrences included: "aaa" has two (a, a)).
    """

    def __init__(self, ids: Sequence[int], tracked: set[Pair] | None = None) -> None:
        n = len(ids)
        self.tok = [int(t) for t in ids]
        self.nxt = [*range(1, n), -1] if n else []
        self.prv = list(range(-1, n - 1))
        # only these pairs are indexed (encoding needs the merges' pairs alone); None: all
        self.tracked = tracked
        self.where: dict[Pair, set[int]] = {}
        setdefault = self.where.setdefault
        for i, pair in enumerate(zip(self.tok, self.tok[1:], strict=False)):
            if tracked is None or pair in tracked:
                setdefault(pair, set()).add(i)

    def count(self, pair: Pair) -> int:
        return len(self.where.get(pair, ()))

    def merge(self, pair: Pair, new: int, changed: set[Pair] | None = None) -> None:
        """Replace every occurrence of ``pair``, left to right, by ``new``, adding the pairs
        whose counts change to ``changed`` when it is given. An occurrence that overlaps one
        merged just before it (the second (a, a) of "aaa") is no longer there and is skipped.
        """
        a, b = pair
        tok, nxt, prv, where, tracked = self.tok, self.nxt, self.prv, self.where, self.tracked
        for i in sorted(where.pop(pair, ())):
            j = nxt[i]
            if tok[i] != a or j < 0 or tok[j] != b:
                continue  # consumed by the previous, overlapping occurrence
            before, after = prv[i], nxt[j]
            tok[i], tok[j] = new, -1
            nxt[i] = after
            if before >= 0:  # (x, a) at before becomes (x, new)
                left = (tok[before], a)
                positions = where.get(left)
                if positions is not None:
                    positions.discard(before)
                    if not positions:
                        del where[left]
                grown = (tok[before], new)
                if tracked is None or grown in tracked:
                    where.setdefault(grown, set()).add(before)
                if changed is not None:
                    changed.add(left)
                    changed.add(grown)
            if after >= 0:  # (b, y) at j becomes (new, y) at i
                prv[after] = i
                right = (b, tok[after])
                positions = where.get(right)
                if positions is not None:
                    positions.discard(j)
                    if not positions:
                        del where[right]
                grown = (new, tok[after])
                if tracked is None or grown in tracked:
                    where.setdefault(grown, set()).add(i)
                if changed is not None:
                    changed.add(right)
                    changed.add(grown)

    def ids(self) -> list[int]:
        out: list[int] = []
        i = 0 if self.tok else -1
        while i >= 0:
            out.append(self.tok[i])
            i = self.nxt[i]
        return out


def _bytes(data: NDArray[np.integer] | Sequence[int]) -> list[int]:
    """The byte values of ``data`` (N,), or ValueError when it is not bytes."""
    arr = np.asarray(data)
    if arr.ndim != 1 or not (arr.size == 0 or np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"data must be a vector of byte values, got {arr.dtype} {arr.shape}")
    if arr.size and (arr.min() < 0 or arr.max() >= BYTES):
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
    """
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int | np.integer):
        raise ValueError(f"vocab_size must be an integer, got {vocab_size!r}")
    if vocab_size < BYTES:
        raise ValueError(f"vocab_size must be >= {BYTES} (the byte tokens), got {vocab_size}")
    seq = _Sequence(_bytes(data))
    # a max-heap of (−count, pair), refreshed lazily: an entry whose count is stale is put
    # back with the current count when it surfaces, so the top is always a most frequent pair
    heap = [(-len(positions), pair) for pair, positions in seq.where.items()]
    heapq.heapify(heap)
    merges: list[tuple[int, int]] = []
    while len(merges) < vocab_size - BYTES and heap:
        negative, pair = heapq.heappop(heap)
        current = seq.count(pair)
        if current != -negative:
            if current:
                heapq.heappush(heap, (-current, pair))
            continue
        if current < 2:
            break  # merging a pair seen once only renames it
        touched: set[Pair] = set()
        seq.merge(pair, BYTES + len(merges), touched)
        for changed in touched:
            n = seq.count(changed)
            if n:
                heapq.heappush(heap, (-n, changed))
        merges.append(pair)
    return merges


@subject("bpe_encode")
def bpe_encode(data: NDArray[np.uint8], merges: Sequence[Sequence[int]]) -> NDArray[np.int64]:
    """Stage 7 (chapter 6's byte BPE): the token ids of ``data`` under ``merges``.

    ``data`` (N,) bytes; ``merges`` as returned by bpe_train (merge i makes token 256 + i).
    The merges are replayed in order, each over the whole sequence, left to right; the
    result (n,) has n <= N ids, and concatenating each id's bytes gives ``data`` back.
    """
    pairs: list[Pair] = []
    for rank, merge in enumerate(merges):
        if len(merge) != 2:
            raise ValueError(f"merge {rank} must be a (left, right) pair, got {merge!r}")
        a, b = int(merge[0]), int(merge[1])
        if not (0 <= a < BYTES + rank and 0 <= b < BYTES + rank):
            raise ValueError(f"merge {rank} names a token that does not exist yet: {merge!r}")
        pairs.append((a, b))
    # only the merges' pairs can ever be merged, so only they are indexed
    seq = _Sequence(_bytes(data), tracked=set(pairs))
    for rank, pair in enumerate(pairs):
        seq.merge(pair, BYTES + rank)
    return np.asarray(seq.ids(), dtype=np.int64)
