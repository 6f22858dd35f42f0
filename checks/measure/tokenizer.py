"""Checks for stage 7 with a real tokenizer: what a vocabulary size does to one text's bill.

The chapter's table keeps T fixed while V grows; a real tokenizer emits fewer tokens for the
same text as its vocabulary grows. These checks train the implementation's byte-level BPE on
a text the package ships (``checks/corpus/``: the chapter itself, byte for byte the pack's
chapter.zh.txt), encode it at several vocabulary sizes and price each encoding with the
implementation's logits_memory_bytes and kv_cache_bytes. The text travels with the package
because a course repository holds claims/ only, and checks cannot see where claims live.
"""

from __future__ import annotations

import hashlib
import itertools
from importlib import resources
from typing import Any

import numpy as np
from numpy.typing import NDArray

from checks.measure.common import whole
from checks.pack import check
from runner.pack import Implementation, Measurements

BYTES = 256
CJK = (0x4E00, 0x9FFF)  # CJK Unified Ideographs: three bytes each in UTF-8


def read_corpus(name: str) -> bytes:
    """A text of the package's corpus folder, by file name (nothing outside it)."""
    if not name or "/" in name or "\\" in name or name.startswith("."):
        raise ValueError(f"the corpus is a file name in checks/corpus/, got {name!r}")
    return (resources.files("checks") / "corpus" / name).read_bytes()


def _merges(value: Any) -> NDArray[np.int64]:
    """The merges a bpe_train returned, as an (M, 2) array of token ids."""
    arr = np.asarray(value, dtype=np.int64)
    if arr.size == 0:
        return arr.reshape(0, 2)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"bpe_train must return (left, right) pairs, got shape {arr.shape}")
    return arr


def _codes(left: NDArray[np.integer], right: NDArray[np.integer]) -> NDArray[np.int64]:
    """One integer per (left, right) pair of token ids, for set operations on pairs."""
    return np.asarray(left, dtype=np.int64) * (1 << 32) + np.asarray(right, dtype=np.int64)


def _within(values: NDArray[np.int64], table: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Which ``values`` are in ``table``: np.isin's answer, by a binary search in the sorted
    table (np.isin's first call would import numpy.ma)."""
    ordered = np.sort(table)  # (m,)
    if ordered.size == 0:
        return np.zeros(values.shape, dtype=bool)
    at = np.minimum(np.searchsorted(ordered, values), ordered.size - 1)  # (n,)
    return np.asarray(ordered[at] == values)


def _pieces(merges: NDArray[np.int64], longest: int) -> list[bytes]:
    """The bytes each token id stands for: 256 single bytes, then one entry per merge.

    The judge builds these from the learner's merges, so their cost is bounded here: a merge
    whose piece is longer than ``longest`` (the corpus: a merge learned on it never makes
    more) is the learner's error, before its bytes exist. Merges that each join the previous
    piece to itself would otherwise double the judge's memory with every merge (2 GB at 30).
    With pieces at most ``longest`` bytes, all of them take at most merges × ``longest``."""
    pieces = [bytes([i]) for i in range(BYTES)]
    for rank, (a, b) in enumerate(merges.tolist()):
        if not (0 <= a < BYTES + rank and 0 <= b < BYTES + rank):
            raise ValueError(f"merge {rank} names a token that does not exist yet: {(a, b)}")
        size = len(pieces[a]) + len(pieces[b])
        if size > longest:
            raise ValueError(
                f"merge {rank} makes a piece of {size:,} bytes, longer than the text it was "
                f"learned on ({longest:,} bytes)"
            )
        pieces.append(pieces[a] + pieces[b])
    return pieces


def _greedy_violations(data: NDArray[np.uint8], merges: NDArray[np.int64], steps: int) -> int:
    """Replay the first ``steps`` merges on the bytes and count those that were not a most
    frequent adjacent pair when they were made (occurrences counted overlapping, as the
    contract says; any tie may be chosen)."""
    ids = data.astype(np.int64)  # (n,)
    violations = 0
    for rank, (a, b) in enumerate(merges[:steps].tolist()):
        codes = _codes(ids[:-1], ids[1:])  # (n-1,) one code per adjacent pair
        _, counts = np.unique(codes, return_counts=True)
        hits = np.flatnonzero((ids[:-1] == a) & (ids[1:] == b))  # (c,) left positions
        violations += int(hits.size < counts.max())
        keep: list[int] = []
        for i in hits.tolist():  # left to right; an overlap of the previous hit is skipped
            if not keep or i > keep[-1] + 1:
                keep.append(i)
        at = np.asarray(keep, dtype=np.int64)
        ids[at] = BYTES + rank
        ids = np.delete(ids, at + 1)
    return violations


def _cjk_spans(raw: bytes) -> tuple[NDArray[np.int64], NDArray[np.int64], int]:
    """Byte offsets of every CJK character of the text, how often each one occurs in the
    text, and how many distinct ones there are."""
    starts: list[int] = []
    chars: list[str] = []
    offset = 0
    for ch in raw.decode("utf-8"):
        width = len(ch.encode("utf-8"))
        if CJK[0] <= ord(ch) <= CJK[1]:
            starts.append(offset)
            chars.append(ch)
        offset += width
    frequency: dict[str, int] = {}
    for ch in chars:
        frequency[ch] = frequency.get(ch, 0) + 1
    counts = np.asarray([frequency[c] for c in chars], dtype=np.int64)
    return np.asarray(starts, dtype=np.int64), counts, len(frequency)


@check(
    "bpe_bill",
    needs=("bpe_train", "bpe_encode", "logits_memory_bytes", "kv_cache_bytes"),
    measures=(
        "corpus_bytes",
        "corpus_sha256",
        "cjk_characters",
        "merges_learned",
        "vocab_reached",
        "tokens",
        "tokens_at_smallest",
        "bytes_per_token",
        "token_count_increases",
        "bytes_per_token_decreases",
        "roundtrip_mismatches",
        "ids_out_of_range",
        "mergeable_pairs_left",
        "first_merges_not_most_frequent",
        "pieces_seen_once",
        "pieces_seen_often",
        "pieces_at_smallest",
        "pieces_gap_at_largest",
        "logits_bytes_per_text",
        "logits_mib_per_text",
        "logits_bytes_decreases",
        "kv_bytes_per_text",
        "kv_bytes_increases",
        "tokens_ratio_last_halving",
        "logits_ratio_last_halving",
    ),
    context=("corpus_bytes", "corpus_sha256", "cjk_characters"),
)
def bpe_bill(
    impl: Implementation,
    corpus: str,
    vocab_sizes: list[int],
    bytes_per_value: int,
    n_layer: int,
    d_model: int,
    greedy_steps: int,
    often: int,
) -> Measurements:
    """Stage 7: train the implementation's BPE on the corpus up to the largest vocabulary,
    encode the corpus at each size, and price each encoding per text.

    For each V: tokens, bytes per token, whether decoding gives the text back, ids outside
    0..V-1, how many pieces a CJK character is cut into (mean over its occurrences, for
    characters seen once and seen at least ``often`` times), the logits bytes
    (logits_memory_bytes(1, tokens, V)) and the KV cache bytes of an ``n_layer`` ×
    ``d_model`` model (kv_cache_bytes(1, tokens, ...)) for the whole text.
    """
    raw = read_corpus(corpus)
    data = np.frombuffer(raw, dtype=np.uint8)  # (N,)
    merges = _merges(impl["bpe_train"](data, max(vocab_sizes)))
    # only the merges some V uses are built (a longer list is measured, not decoded)
    pieces = _pieces(merges[: max(vocab_sizes) - BYTES], len(raw))
    starts, frequency, distinct = _cjk_spans(raw)
    once, frequent = frequency == 1, frequency >= often
    tokens: list[int] = []
    mismatches = out_of_range = mergeable = 0
    pieces_once: list[float] = []
    pieces_often: list[float] = []
    logits: list[float] = []
    kv: list[float] = []
    for vocab in vocab_sizes:
        ids = np.asarray(impl["bpe_encode"](data, merges[: vocab - BYTES].tolist()))  # (n,)
        if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(f"bpe_encode must return a vector of ids, got {ids.dtype} {ids.shape}")
        bad = (ids < 0) | (ids >= min(vocab, len(pieces)))
        out_of_range += int(np.count_nonzero(bad))
        good = ids[~bad].tolist()
        # merges only ever create new ids, so once merge r has run no (a, b) of it can form
        # again: a correct encoding keeps no adjacent pair that one of its merges would merge
        used = merges[: vocab - BYTES]
        mergeable += int(np.count_nonzero(_within(_codes(ids[:-1], ids[1:]), _codes(*used.T))))
        mismatches += int(b"".join(pieces[i] for i in good) != raw or bool(bad.any()))
        # a token starts at each cumulative offset; a 3-byte character is cut into 1 piece
        # plus one for each token that starts inside it
        lengths = np.asarray([len(pieces[i]) for i in good], dtype=np.int64)
        offsets = np.cumsum(lengths)[:-1]  # where tokens 1..n-1 begin
        begins = np.zeros(len(raw) + 1, dtype=np.int64)  # 1 where a token begins
        begins[offsets[offsets <= len(raw)]] = 1
        cut = 1 + begins[starts + 1] + begins[starts + 2]  # (chars,)
        pieces_once.append(float(cut[once].mean()))
        pieces_often.append(float(cut[frequent].mean()))
        n = int(ids.shape[0])
        tokens.append(n)
        logits.append(whole(impl["logits_memory_bytes"](1, n, vocab, bytes_per_value)))
        kv.append(whole(impl["kv_cache_bytes"](1, n, n_layer, d_model, bytes_per_value)))

    # steps that do not fall (rise): a NaN step is one of them, neither falling nor rising
    def rises(xs: list[int] | list[float]) -> int:
        return sum(not b < a for a, b in itertools.pairwise(xs))

    def falls(xs: list[int] | list[float]) -> int:
        return sum(not b > a for a, b in itertools.pairwise(xs))

    per_token = [len(raw) / n for n in tokens]
    return {
        "corpus_bytes": len(raw),
        "corpus_sha256": hashlib.sha256(raw).hexdigest(),
        "cjk_characters": {
            "occurrences": int(starts.size),
            "distinct": distinct,
            "occurrences_seen_once": int(np.count_nonzero(once)),
            "occurrences_seen_often": int(np.count_nonzero(frequent)),
        },
        "merges_learned": int(merges.shape[0]),
        "vocab_reached": [BYTES + int(merges.shape[0]) >= v for v in vocab_sizes],
        "tokens": tokens,
        "tokens_at_smallest": tokens[0],
        "bytes_per_token": per_token,
        "token_count_increases": rises(tokens),
        "bytes_per_token_decreases": falls(per_token),
        "roundtrip_mismatches": mismatches,
        "ids_out_of_range": out_of_range,
        "mergeable_pairs_left": mergeable,
        "first_merges_not_most_frequent": _greedy_violations(data, merges, greedy_steps),
        "pieces_seen_once": pieces_once,
        "pieces_seen_often": pieces_often,
        "pieces_at_smallest": [pieces_once[0], pieces_often[0]],
        "pieces_gap_at_largest": pieces_once[-1] - pieces_often[-1],
        "logits_bytes_per_text": logits,
        "logits_mib_per_text": [b / 2**20 for b in logits],
        "logits_bytes_decreases": falls(logits),
        "kv_bytes_per_text": kv,
        "kv_bytes_increases": rises(kv),
        "tokens_ratio_last_halving": tokens[-2] / tokens[-1],
        "logits_ratio_last_halving": logits[-2] / logits[-1],
    }
