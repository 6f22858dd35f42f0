"""From an adversarial tester's fourth held-out set (a false pass, now caught): BUGGY: bpe_train returns [] for a text shorter than 2 bytes before checking vocab_size:
bpe_train(np.zeros(0, np.uint8), 255) gives [] instead of ValueError."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

from _base import *
from _base import _as_bytes
import _base


def bpe_train(data, vocab_size):
    if len(data) < 2:
        return []  # <- shortcut before the checks
    return _base.bpe_train(data, vocab_size)
