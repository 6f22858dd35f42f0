"""The figures chapter 23's report draws (``report --html``), from an evidence file's claims.

Each is drawn from the records of the claim it names, never by running anything again, and
returns None when the evidence lacks what it needs (a learner's run that skipped the claim).
On a learner's (or a fault's) page, ``data.reference`` holds the reference's records of the
same claims, and each figure draws the two side by side, so that what the page reports as
failed can be seen: a float16 softmax's tail stopping at float16's smallest number, a mask
letting weight through, a memory bill off by a factor. Labels are in the reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from checks.pack import figure
from runner.pack import FigureData

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

YOURS = {"zh": "你的", "en": "yours"}
REFERENCE = {"zh": "参考实现", "en": "reference"}
SERIES = ("#1f77b4", "#ff7f0e", "#2ca02c")  # logit 2, 1, −1
FLOOR = 1e-30  # the temperature plot's lowest probability: below it only the T < 0.05 tail


def _values(claim: Any) -> dict[str, Any]:
    """A claim record's measurements and observations by name (observations as
    ``{"actual": value}``)."""
    if claim is None:
        return {}
    values = {m["name"]: m for m in claim.get("measurements", [])}
    return {**{k: {"actual": v} for k, v in claim.get("observations", {}).items()}, **values}


def _pair(data: FigureData, claim_id: str, *names: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The claim's values in this evidence and in the reference's (empty when the page has
    no reference, or the reference lacks one of ``names``)."""
    mine = _values(data.claims.get(claim_id))
    theirs = _values((data.reference or {}).get(claim_id))
    if not all(n in theirs for n in names):
        theirs = {}
    return mine, theirs


@figure(
    "temperature",
    caption={
        "zh": (
            "温度：logits [2, 1, −1] 的三个概率随 T 的变化；黑点是本章表格（T = 0.1、1、10、1000）。"
            "学习者的页面上，虚线是参考实现，下图是与它的相对差；▼ 标出精确为 0 的概率。"
        ),
        "en": (
            "Temperature: the three probabilities of logits [2, 1, −1] against T;"
            " black dots are the chapter's table (T = 0.1, 1, 10, 1000). On a learner's page"
            " the dashed lines are the reference and the lower panel the relative difference"
            " from it; ▼ marks a probability that is exactly 0."
        ),
    },
    claims=("temperature.table",),
)
def temperature_figure(data: FigureData) -> Figure | None:
    import matplotlib.pyplot as plt

    mine, theirs = _pair(data, "temperature.table", "sweep_temperatures", "sweep_probs")
    if "sweep_temperatures" not in mine or "sweep_probs" not in mine:
        return None
    temps = mine["sweep_temperatures"]["actual"]
    probs = mine["sweep_probs"]["actual"]
    if theirs:
        fig, (ax, low) = plt.subplots(
            2, 1, figsize=(6.4, 5.6), sharex=True, gridspec_kw={"height_ratios": (3, 1.3)}
        )
    else:
        fig, ax = plt.subplots(figsize=(6.4, 4.2))
        low = None
    labels = ("logit 2", "logit 1", "logit −1")
    for i, label in enumerate(labels):
        column = [row[i] for row in probs]
        ax.plot(temps, [p if p > 0 else float("nan") for p in column], color=SERIES[i],
                label=label)  # fmt: skip
        zeros = [t for t, p in zip(temps, column, strict=False) if p == 0]
        if zeros:  # an exact 0 has no place on a log scale: marked on the floor instead
            ax.scatter(zeros, [FLOOR * 3] * len(zeros), marker="v", color=SERIES[i], s=16,
                       zorder=3)  # fmt: skip
    if theirs:
        ref_temps = theirs["sweep_temperatures"]["actual"]
        ref_probs = theirs["sweep_probs"]["actual"]
        for i in range(3):
            ax.plot(ref_temps, [row[i] or float("nan") for row in ref_probs], color="black",
                    linestyle="--", linewidth=0.9, alpha=0.7,
                    label=data.pick(REFERENCE) if i == 0 else None)  # fmt: skip
        _relative_difference(low, temps, probs, ref_temps, ref_probs, data)
    table = [(0.1, "probs_t0.1"), (1.0, "probs_t1"), (10.0, "probs_t10"), (1000.0, "probs_t1000")]
    for t, name in table:
        if name in mine and isinstance(mine[name].get("expected"), list):
            ax.scatter([t] * 3, mine[name]["expected"], color="black", zorder=3, s=18)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(FLOOR, 2)
    ax.set_ylabel(data.pick({"zh": "概率", "en": "probability"}))
    ax.legend(title="softmax([2, 1, −1] / T)", loc="lower right", fontsize=8, title_fontsize=8)
    ax.grid(True, which="major", alpha=0.3)
    (low or ax).set_xlabel(data.pick({"zh": "温度 T", "en": "temperature T"}))
    fig.tight_layout()
    return fig


def _relative_difference(
    ax: Axes,
    temps: Sequence[float],
    probs: Sequence[Sequence[float]],
    ref_temps: Sequence[float],
    ref_probs: Sequence[Sequence[float]],
    data: FigureData,
) -> None:
    """|yours − reference| / reference at the temperatures both swept: 1 where yours is 0
    and the reference's is not; floating-point agreement sits near 1e-16."""
    ref = {round(t, 12): row for t, row in zip(ref_temps, ref_probs, strict=False)}
    floor = 1e-18
    for i in range(3):
        xs, ys = [], []
        for t, row in zip(temps, probs, strict=False):
            theirs = ref.get(round(t, 12))
            if theirs is None or theirs[i] == 0:
                continue
            xs.append(t)
            ys.append(max(abs(row[i] - theirs[i]) / theirs[i], floor))
        ax.plot(xs, ys, color=SERIES[i], marker=".", markersize=3, linewidth=1)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(floor / 3, 10)
    ax.set_yticks([1e-16, 1e-8, 1])
    ax.set_ylabel(data.pick({"zh": "相对差", "en": "rel. diff."}))
    ax.grid(True, which="major", alpha=0.3)


@figure(
    "mask",
    caption={
        "zh": (
            "因果掩码：随机分数上的注意力权重；严格上三角（s > t）精确为 0，第 0 行是 [1, 0, …]。"
            "学习者的页面上，右边是参考实现的权重。"
        ),
        "en": (
            "Causal mask: attention weights on random scores; the strict upper triangle"
            " (s > t) is exactly 0, row 0 is [1, 0, …]. On a learner's page the reference's"
            " weights are on the right."
        ),
    },
    claims=("mask.prefix-softmax",),
)
def mask_figure(data: FigureData) -> Figure | None:
    import matplotlib.pyplot as plt
    import numpy as np

    mine, theirs = _pair(data, "mask.prefix-softmax", "weights")
    if "weights" not in mine:
        return None
    shown = [(data.pick(YOURS), mine["weights"]["actual"])] if theirs else [
        ("", mine["weights"]["actual"])
    ]  # fmt: skip
    if theirs:
        shown.append((data.pick(REFERENCE), theirs["weights"]["actual"]))
    fig, axes = plt.subplots(1, len(shown), figsize=(4.4 * len(shown), 3.9), squeeze=False)
    image = None
    for ax, (title, values) in zip(axes[0], shown, strict=True):
        weights = np.asarray(values, dtype=float)  # (T, T): query t, key s
        image = ax.imshow(weights, cmap="viridis", vmin=0.0, vmax=1.0)
        t_len = weights.shape[0]
        for t in range(t_len):
            for s in range(t + 1, t_len):
                if weights[t, s] == 0:
                    ax.text(s, t, "0", ha="center", va="center", color="white", fontsize=7)
        ax.set_xlabel(data.pick({"zh": "键的位置 s", "en": "key position s"}))
        ax.set_ylabel(data.pick({"zh": "查询的位置 t", "en": "query position t"}))
        if title:
            ax.set_title(title, fontsize=10)
    assert image is not None  # one panel at least
    fig.colorbar(
        image, ax=list(axes[0]), label=data.pick({"zh": "注意力权重", "en": "attention weight"})
    )
    return fig


@figure(
    "memory",
    caption={
        "zh": (
            "分词器的账单：本章三种配置的 logits 显存 B·T·V·4 字节，以及相对基线的倍率。"
            "学习者的页面上，灰色的柱是参考实现。"
        ),
        "en": (
            "The tokenizer's bill: logits memory B·T·V·4 bytes for the chapter's "
            "three configurations, with their ratios to the baseline. On a learner's page"
            " the grey bars are the reference's."
        ),
    },
    claims=("tokenizer.logits-memory",),
)
def memory_figure(data: FigureData) -> Figure | None:
    import matplotlib.pyplot as plt

    mine, theirs = _pair(data, "tokenizer.logits-memory", "mib")
    if "mib" not in mine:
        return None
    mib = mine["mib"]["actual"]
    ratios = mine.get("ratio_to_first", {}).get("actual", [1.0] * len(mib))
    names = [
        {"zh": "基线\nT=1000, V=50257", "en": "baseline\nT=1000, V=50257"},
        {"zh": "上下文 +50%\nT=1500", "en": "context +50%\nT=1500"},
        {"zh": "词表 128k\nV=128256", "en": "vocabulary 128k\nV=128256"},
    ]
    labels = [data.pick(n) for n in names][: len(mib)]
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    xs = list(range(len(mib)))
    width = 0.38 if theirs else 0.7
    offset = width / 2 if theirs else 0.0
    bars = ax.bar([x - offset for x in xs], mib, width,
                  color=["#90a4ae", "#64b5f6", "#ef6c00"][: len(mib)],
                  label=data.pick(YOURS) if theirs else None)  # fmt: skip
    for bar, m, r in zip(bars, mib, ratios, strict=False):
        ax.text(bar.get_x() + bar.get_width() / 2, bar.get_height(), f"{m:.1f} MiB\n{r:.3f}×",
                ha="center", va="bottom", fontsize=8)  # fmt: skip
    tallest = max(mib)
    if theirs:
        ref = theirs["mib"]["actual"]
        ax.bar([x + offset for x in xs[: len(ref)]], ref[: len(xs)], width, color="#d0d0d0",
               edgecolor="#616161", label=data.pick(REFERENCE))  # fmt: skip
        tallest = max(tallest, *ref)
        ax.legend(fontsize=8, loc="upper left")
    ax.set_xticks(xs, labels, fontsize=8)
    ax.set_ylabel(
        data.pick(
            {"zh": "logits 显存 (MiB)，批量 1，FP32", "en": "logits memory (MiB), batch 1, FP32"}
        )
    )
    ax.set_ylim(0, tallest * 1.3)
    fig.tight_layout()
    return fig
