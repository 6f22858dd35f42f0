"""Chapter 5's fault (faults.yaml) and one more mistake learners make, as broken twins."""

from __future__ import annotations

import numpy as np

from . import pack
from .reference import _indices, _scores


@pack.twin(
    "softmax-no-max",
    replaces="softmax",
    explanation={
        "zh": "没有先减去最大值：分数较大时 exp 溢出为 inf，结果是 NaN",
        "en": "does not subtract the max first: exp overflows to inf on large scores, giving NaN",
    },
    where={"zh": "故障表：忘记先减去最大值", "en": "fault table: the max is not subtracted first"},
)
def softmax_without_max(z: np.ndarray) -> np.ndarray:
    x = _scores(z)  # (..., V)
    e = np.exp(x)  # the mistake: exp(1000) is inf
    return e / e.sum(axis=-1, keepdims=True)


@pack.mistake(
    "bigram-wraps-around",
    replaces="bigram_counts",
    explanation={
        "zh": "把最后一个字符与第一个字符也算成一对：一共 len(text) 对，而不是 len(text) − 1 对",
        "en": "also counts the last character followed by the first: len(text) pairs, not len(text) − 1",
    },
    where={"zh": "阶段二：只数相邻的两个字符", "en": "stage 2: only adjacent characters count"},
)
def bigram_counts_wrapping(text: str, alphabet: str) -> np.ndarray:
    index = _indices(text, alphabet)
    v = len(alphabet)
    counts = np.zeros((v, v), dtype=np.int64)  # (V, V)
    for a, b in zip(text, text[1:] + text[:1], strict=False):  # the mistake: wraps around
        counts[index[a], index[b]] += 1
    return counts
