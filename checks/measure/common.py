"""Configurations and helpers shared by several checks."""

from __future__ import annotations

import math
from typing import Any

from runner.pack import Implementation

# GPT-2 small under the chapter's accounting (chapter 8: no biases, tied embedding).
CHAPTER_GPT2: dict[str, Any] = {
    "vocab": 50257,
    "d_model": 768,
    "n_layer": 12,
    "d_ff": 3072,
    "context_length": 1000,
    "n_head": 12,
}


def log10_total(impl: Implementation, config: dict[str, Any]) -> float:
    total = impl["transformer_parameter_count"](**config)["total"]
    return math.log10(total)
