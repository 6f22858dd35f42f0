"""Challenges: claims on inputs derived from a nonce, so values copied from the text fail.

A grader hands out a nonce; the learner's run adds these claims to the module's and
records their values; ``validate --challenge NONCE`` derives the same inputs and recomputes
the expected values with the reference. Only the inputs live here: the expected values are
always computed, never written down.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from checks.pack import challenge

# Float64 agreement expected between two correct implementations (different summation
# orders, exp implementations): far below any figure the chapter prints.
REL, ABS = 1e-9, 1e-12


def _claim(
    proposition: int,
    claim_id: str,
    zh: str,
    en: str,
    check: str,
    inputs: dict[str, Any],
    measure: str,
) -> dict[str, Any]:
    return {
        "proposition": proposition,
        "id": f"challenge.{claim_id.replace('_', '-')}",
        "statement": {"zh": zh, "en": en},
        "check": check,
        "inputs": inputs,
        "expect": [
            {
                "measure": measure,
                "metric": f"challenge.{claim_id}",
                "value": None,  # filled from the reference run
                "tolerance": {"kind": "close", "abs": ABS, "rel": REL},
                "source": "the reference implementation on inputs derived from the nonce",
            }
        ],
    }


@challenge("23-design-tradeoffs")
def chapter_23(rng: np.random.Generator) -> list[dict[str, Any]]:
    t_mask = int(rng.integers(4, 9))
    scores = np.round(rng.standard_normal((t_mask, t_mask)) * 3, 6)  # (T, T)
    logits = np.round(rng.standard_normal(5) * 2, 3)  # (V,)
    probs = np.round(rng.dirichlet(np.ones(6)), 6)  # (V,)
    return [
        _claim(
            1,
            "support",
            "挑战：随机 (V, T) 的 log10 V^T",
            "challenge: log10 V^T for a random (V, T)",
            "challenge_support",
            {"vocab": int(rng.integers(1_000, 200_000)), "length": int(rng.integers(16, 4_096))},
            "support_log10",
        ),
        _claim(
            5,
            "mask_weights",
            "挑战：随机分数上的因果注意力权重",
            "challenge: causal attention weights on random scores",
            "challenge_mask",
            {"scores": scores.tolist()},
            "weights",
        ),
        _claim(
            6,
            "temperature_probs",
            "挑战：随机 logits 与温度下的分布",
            "challenge: the distribution for random logits and temperature",
            "challenge_temperature",
            {"logits": logits.tolist(), "temperature": round(float(rng.uniform(0.2, 5.0)), 3)},
            "probs",
        ),
        _claim(
            7,
            "top_k_probs",
            "挑战：随机概率向量的 top-k",
            "challenge: top-k of a random probability vector",
            "challenge_top_k",
            {"probs": probs.tolist(), "k": int(rng.integers(1, 6))},
            "probs",
        ),
        _claim(
            8,
            "logits_bytes",
            "挑战：随机 (B, T, V) 的 logits 字节数",
            "challenge: logits bytes for a random (B, T, V)",
            "challenge_logits_memory",
            {
                "batch": int(rng.integers(1, 9)),
                "length": int(rng.integers(128, 8_192)),
                "vocab": int(rng.integers(1_000, 200_000)),
            },
            "bytes",
        ),
    ]
