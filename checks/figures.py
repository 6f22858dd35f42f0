"""The figures chapter 23's report draws (``report --html``), from an evidence file's claims.

Each is drawn from the records of the claim it names, never by running anything again, and
returns None when the evidence lacks what it needs (a learner's run that skipped the claim).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from checks.pack import figure
from runner.pack import ClaimRecords

if TYPE_CHECKING:
    from matplotlib.figure import Figure


def _values(claim: Any) -> dict[str, Any]:
    if claim is None:
        return {}
    values = {m["name"]: m for m in claim.get("measurements", [])}
    return {**{k: {"actual": v} for k, v in claim.get("observations", {}).items()}, **values}


@figure(
    "temperature",
    caption={
        "zh": "温度：logits [2, 1, −1] 的三个概率随 T 的变化；黑点是本章表格（T = 0.1、1、10、1000）。",
        "en": (
            "Temperature: the three probabilities of logits [2, 1, −1] against T;"
            " black dots are the chapter's table (T = 0.1, 1, 10, 1000)."
        ),
    },
    claims=("temperature.table",),
)
def temperature_figure(claims: ClaimRecords) -> Figure | None:
    claim = claims.get("temperature.table")
    import matplotlib.pyplot as plt

    values = _values(claim)
    if "sweep_temperatures" not in values or "sweep_probs" not in values:
        return None
    temps = values["sweep_temperatures"]["actual"]
    probs = values["sweep_probs"]["actual"]
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for i, label in enumerate(("logit 2", "logit 1", "logit −1")):
        ax.plot(temps, [row[i] for row in probs], label=label)
    table = [(0.1, "probs_t0.1"), (1.0, "probs_t1"), (10.0, "probs_t10"), (1000.0, "probs_t1000")]
    for t, name in table:
        if name in values and isinstance(values[name].get("expected"), list):
            ax.scatter([t] * 3, values[name]["expected"], color="black", zorder=3, s=18)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(1e-30, 2)  # below this only the T < 0.05 tail, long gone from any sampler
    ax.set_xlabel("temperature T")
    ax.set_ylabel("probability")
    ax.legend(title="softmax([2, 1, −1] / T)")
    ax.grid(True, which="major", alpha=0.3)
    fig.set_label(
        "Temperature: the three probabilities of logits [2, 1, −1] against T; "
        "black dots are the chapter's table (T = 0.1, 1, 10, 1000)."
    )
    return fig


@figure(
    "mask",
    caption={
        "zh": "因果掩码：随机分数上的注意力权重；严格上三角（s > t）精确为 0，第 0 行是 [1, 0, …]。",
        "en": (
            "Causal mask: attention weights on random scores;"
            " the strict upper triangle (s > t) is exactly 0, row 0 is [1, 0, …]."
        ),
    },
    claims=("mask.prefix-softmax",),
)
def mask_figure(claims: ClaimRecords) -> Figure | None:
    claim = claims.get("mask.prefix-softmax")
    import matplotlib.pyplot as plt
    import numpy as np

    values = _values(claim)
    if "weights" not in values:
        return None
    weights = np.asarray(values["weights"]["actual"], dtype=float)
    fig, ax = plt.subplots(figsize=(4.5, 4))
    image = ax.imshow(weights, cmap="viridis", vmin=0.0, vmax=1.0)
    t_len = weights.shape[0]
    for t in range(t_len):
        for s in range(t + 1, t_len):
            ax.text(s, t, "0", ha="center", va="center", color="white", fontsize=7)
    ax.set_xlabel("key position s")
    ax.set_ylabel("query position t")
    fig.colorbar(image, ax=ax, label="attention weight")
    fig.set_label(
        "Causal mask: attention weights on random scores; the strict upper triangle "
        "(s > t) is exactly 0, row 0 is [1, 0, …]."
    )
    return fig


@figure(
    "memory",
    caption={
        "zh": "分词器的账单：本章三种配置的 logits 显存 B·T·V·4 字节，以及相对基线的倍率。",
        "en": (
            "The tokenizer's bill: logits memory B·T·V·4 bytes for the chapter's "
            "three configurations, with their ratios to the baseline."
        ),
    },
    claims=("tokenizer.logits-memory",),
)
def memory_figure(claims: ClaimRecords) -> Figure | None:
    claim = claims.get("tokenizer.logits-memory")
    import matplotlib.pyplot as plt

    values = _values(claim)
    if "mib" not in values:
        return None
    mib = values["mib"]["actual"]
    ratios = values.get("ratio_to_first", {}).get("actual", [1.0] * len(mib))
    labels = ["baseline\nT=1000, V=50257", "context +50%\nT=1500", "vocabulary 128k\nV=128256"]
    fig, ax = plt.subplots(figsize=(6, 3.6))
    bars = ax.bar(labels[: len(mib)], mib, color=["#90a4ae", "#64b5f6", "#ef6c00"][: len(mib)])
    for bar, m, r in zip(bars, mib, ratios, strict=False):
        ax.text(
            bar.get_x() + bar.get_width() / 2,
            bar.get_height(),
            f"{m:.1f} MiB\n{r:.3f}×",
            ha="center",
            va="bottom",
            fontsize=9,
        )
    ax.set_ylabel("logits memory (MiB), batch 1, FP32")
    ax.set_ylim(0, max(mib) * 1.25)
    fig.set_label(
        "The tokenizer's bill: logits memory B·T·V·4 bytes for the chapter's three "
        "configurations, with their ratios to the baseline."
    )
    return fig
