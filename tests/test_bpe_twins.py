"""The BPE twins recount every pair at each merge with NumPy (a diagnosis replays them on the
chapter's 22,391 bytes, where a Python loop cost 3-5 s a call): they must still give what a
learner's plain loop with the same mistake gives, call for call."""

from __future__ import annotations

import numpy as np
import pytest

from checks.mistakes_contract import _bpe_loop

HOW = [
    {"ties": "smallest", "counting": "overlapping", "stop": True},  # the contract's rule
    {"ties": "smallest", "counting": "overlapping", "stop": False},
    {"ties": "first-seen", "counting": "overlapping", "stop": True},
    {"ties": "base-256", "counting": "overlapping", "stop": True},
    {"ties": "smallest", "counting": "non-overlapping", "stop": True},
]


def plain_loop(data: np.ndarray, vocab_size: int, *, ties: str, counting: str, stop: bool):
    """A learner's loop, written out: dict counts in the order pairs are met, one scan."""
    ids = [int(v) for v in data]
    merges: list[tuple[int, int]] = []
    while len(merges) < vocab_size - 256:
        counts: dict[tuple[int, int], int] = {}
        i = 0
        while i + 1 < len(ids):
            pair = (ids[i], ids[i + 1])
            counts[pair] = counts.get(pair, 0) + 1
            skip = counting == "non-overlapping" and pair[0] == pair[1]
            i += 2 if skip and i + 2 < len(ids) and ids[i + 2] == pair[1] else 1
        if not counts:
            break
        if ties == "first-seen":
            pair = max(counts, key=lambda p: counts[p])
        elif ties == "base-256":
            pair = min(counts, key=lambda p: (-counts[p], p[0] * 256 + p[1]))
        else:
            pair = min(counts, key=lambda p: (-counts[p], p))
        if stop and counts[pair] < 2:
            break
        out, i = [], 0
        while i < len(ids):
            if i + 1 < len(ids) and (ids[i], ids[i + 1]) == pair:
                out.append(256 + len(merges))
                i += 2
            else:
                out.append(ids[i])
                i += 1
        ids = out
        merges.append(pair)
    return merges


@pytest.mark.parametrize("how", HOW, ids=lambda h: f"{h['ties']}-{h['counting']}-{h['stop']}")
def test_each_bpe_twin_gives_a_plain_loops_merges(how):
    """Runs of one byte (the (a, a) counting and merging), few symbols (ties everywhere),
    the ids past 255 that base-256 confuses, the empty text and one byte."""
    rng = np.random.default_rng(23)
    for _ in range(150):
        alphabet = int(rng.integers(1, 6))
        data = rng.integers(0, alphabet, int(rng.integers(0, 80))).astype(np.uint8)
        vocab_size = int(rng.integers(256, 320))
        assert _bpe_loop(data, vocab_size, **how) == plain_loop(data, vocab_size, **how)
    text = np.frombuffer("aaaa ab ab 词表词表 aaaaa".encode() * 3, dtype=np.uint8)
    assert _bpe_loop(text, 300, **how) == plain_loop(text, 300, **how)
    twice = np.tile(rng.integers(0, 256, 120).astype(np.uint8), 2)  # ids past 255, ties of 1
    assert _bpe_loop(twice, 500, **how) == plain_loop(twice, 500, **how)
    assert _bpe_loop(np.zeros(0, np.uint8), np.int64(400), **how) == []
