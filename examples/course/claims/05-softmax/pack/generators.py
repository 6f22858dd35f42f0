"""Seeded inputs across each function's whole signature, for ``matches_reference``."""

from __future__ import annotations

import numpy as np

from runner.pack import Case, case

from . import pack


@pack.generator("softmax", subject="softmax")
def softmax_cases(rng: np.random.Generator, n: int) -> list[Case]:
    """Edges first (one value, ties, ±1000, a batch of rows, invalid arguments), then random."""
    edges = [
        case("one value", np.array([3.0])),
        case("ties", np.array([1.0, 1.0, 1.0])),
        case("scores of ±1000", np.array([1000.0, -1000.0, 999.0])),
        case("a (2, 3) batch", np.array([[0.0, 1.0, 2.0], [5.0, 5.0, -5.0]])),
        case("float32 scores", np.array([0.5, -0.5], dtype=np.float32)),
        case("invalid: empty", np.array([])),
        case("invalid: NaN", np.array([0.0, np.nan])),
        case("by name (z=)", z=np.array([1.0, 2.0])),
    ]
    if n < len(edges):
        raise ValueError(f"this generator needs at least {len(edges)} cases, got {n}")
    draws = [
        case("random", rng.standard_normal((int(rng.integers(1, 4)), int(rng.integers(1, 9)))) * 10)
        for _ in range(n - len(edges))
    ]
    return edges + draws


@pack.generator("bigram_counts", subject="bigram_counts")
def bigram_cases(rng: np.random.Generator, n: int) -> list[Case]:
    """Edges (the chapter's text, one character, a repeated character, invalid alphabets),
    then random texts over random alphabets."""
    edges = [
        case("the chapter's abab", "abab", "ab"),
        case("one character", "a", "a"),
        case("empty text", "", "ab"),
        case("aaaa", "aaaa", "a"),
        case("invalid: empty alphabet", "a", ""),
        case("invalid: repeated alphabet", "ab", "aab"),
        case("invalid: outside the alphabet", "abc", "ab"),
        case("by name", text="ba", alphabet="ab"),
    ]
    if n < len(edges):
        raise ValueError(f"this generator needs at least {len(edges)} cases, got {n}")
    letters = "abcdefgh"
    out = list(edges)
    for _ in range(n - len(edges)):
        alphabet = "".join(rng.permutation(list(letters[: int(rng.integers(1, 9))])))
        text = "".join(rng.choice(list(alphabet), size=int(rng.integers(0, 40))))
        out.append(case("random", text, alphabet))
    return out
