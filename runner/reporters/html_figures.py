"""The report's figures as inline SVG: the pack's (drawn from the evidence, and the
reference's beside a learner's), then the engine's own fault matrix.

The fault matrix has faults as rows and the chapter's propositions as columns: a cell
counts the claims of that proposition the fault broke, out of the proposition's claims, so
it stays readable however many claims a module has (65 in chapter 23: one column per claim
gave labels no one could read). Which claims exactly is in the faults table below it.
"""

from __future__ import annotations

import contextlib
import functools
import io
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from runner.i18n import Catalog
from runner.pack import FigureData, FigureSpec

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# CJK labels: the browser draws the text (svg.fonttype none); matplotlib only measures it,
# with one of these fonts when this machine has one (else with its missing-glyph box)
CJK_FONTS = ("Noto Sans CJK SC", "Noto Sans CJK JP", "Source Han Sans SC", "WenQuanYi Zen Hei")
MATRIX_COLOURS = ("#ffffff", "#ffcdd2", "#e57373", "#c62828")


def drawn(
    evidence: Mapping[str, Any],
    words: Catalog,
    figures: Sequence[FigureSpec],
    reference: Mapping[str, Any] | None = None,
) -> list[tuple[str, str, Figure | str | None]]:
    """(name, caption, figure or None) for each of the pack's figures, in order; in place of
    the figure, what went wrong where the pack's code raised or returned no Figure (the
    page is still written, the problem said where the figure would be)."""
    data = FigureData(
        claims=_by_id(evidence),
        reference=_by_id(reference) if reference is not None else None,
        lang=words.lang,
    )
    makers: list[tuple[str, str, Callable[[], Figure | None]]] = [
        (f.name, words.pick(f.caption), lambda f=f: f.draw(data))  # type: ignore[misc]
        for f in figures
    ]
    out: list[tuple[str, str, Figure | str | None]] = []
    with _style():
        for spec, (name, caption, make) in zip(figures, makers, strict=True):
            absent = [c for c in spec.claims if c not in data.claims]
            if absent:  # said, not drawn from records that may not be the ones meant
                out.append(
                    (name, caption, words("html.figure_no_claim", name=name, claim=absent[0]))
                )
                continue
            out.append((name, caption, _made(name, make, words)))
    return out


def _made(name: str, make: Callable[[], Any], words: Catalog) -> Figure | str | None:
    from matplotlib.figure import Figure

    try:
        figure = make()
    except Exception as exc:  # the pack's code: its bug, said on its page
        from runner.pack.find import own_frame
        from runner.run import last_line

        return words(
            "html.figure_raised",
            name=name,
            error=type(exc).__name__,
            message=last_line(exc),
            where=own_frame(exc),
        )
    if figure is None or isinstance(figure, Figure):
        return figure
    return words("html.figure_not_figure", name=name, kind=type(figure).__name__)


def svg(figure: Figure) -> str:
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    # text stays text (the browser draws CJK); a fixed salt keeps ids stable between runs
    try:
        with _style(), plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "learn-llm"}):
            figure.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    finally:
        plt.close(figure)
    text = buf.getvalue()
    return text[text.index("<svg") :]  # drop the XML declaration and DOCTYPE to inline it


@contextlib.contextmanager
def _style() -> Iterator[None]:
    """matplotlib's settings for the page, and no warning for a glyph it cannot measure
    (a CJK label without a CJK font here: the reader's browser has one)."""
    import matplotlib.pyplot as plt

    with plt.rc_context({"font.family": _fonts(), "font.size": 9}), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from")
        yield


def matrix_svg(evidence: Mapping[str, Any], words: Catalog) -> str | None:
    """The fault matrix as inline SVG, or None when the evidence has no faults."""
    with _style():
        figure = fault_matrix(evidence, words)
    return svg(figure) if figure is not None else None


@functools.cache
def _fonts() -> list[str]:
    from matplotlib import font_manager

    have = {f.name for f in font_manager.fontManager.ttflist}
    return ["DejaVu Sans", *(f for f in CJK_FONTS if f in have)]


def _by_id(evidence: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {str(c.get("id")): c for c in evidence.get("claims", []) if isinstance(c, dict)}


def proposition_groups(evidence: Mapping[str, Any]) -> list[tuple[Any, list[str]]]:
    """The claims' ids by proposition, in the propositions' order (then any without one)."""
    groups: dict[Any, list[str]] = {}
    for c in evidence.get("claims", []):
        if isinstance(c, dict):
            groups.setdefault(c.get("proposition"), []).append(str(c.get("id")))
    return sorted(groups.items(), key=lambda kv: (not isinstance(kv[0], int), kv[0] or 0))


# the largest matrix drawn (a chapter has a dozen faults and propositions)
MAX_FAULT_ROWS, MAX_PROPOSITION_COLUMNS = 200, 120


def fault_matrix(evidence: Mapping[str, Any], words: Catalog) -> Figure | None:
    """Faults × propositions: how many of each proposition's claims each fault broke."""
    import matplotlib.pyplot as plt
    from matplotlib.colors import BoundaryNorm, ListedColormap

    faults = evidence.get("faults") or {}
    matrix: Mapping[str, Mapping[str, str]] = faults.get("matrix") or {}
    if not matrix:
        return None
    fault_ids = list(matrix)
    groups = proposition_groups(evidence)
    if len(fault_ids) > MAX_FAULT_ROWS or len(groups) > MAX_PROPOSITION_COLUMNS:
        # a figure no reader could read, and a hand-in's evidence can ask for any size
        # (4,000 × 4,000 took 7 GB to draw): the page goes without it, the table of faults
        # and the evidence keep every entry
        return None
    broken = [
        [sum(matrix[f].get(c) in ("failed", "error") for c in ids) for _, ids in groups]
        for f in fault_ids
    ]
    share = [
        [(n / len(ids)) if n else 0.0 for n, (_, ids) in zip(row, groups, strict=True)]
        for row in broken
    ]
    width = min(11.0, 2.6 + 0.5 * len(groups))
    fig, ax = plt.subplots(figsize=(width, 0.34 * len(fault_ids) + 1.3))
    cmap = ListedColormap(list(MATRIX_COLOURS))
    norm = BoundaryNorm([0.0, 1e-9, 0.34, 0.67, 1.0001], cmap.N)
    ax.imshow(share, cmap=cmap, norm=norm, aspect="auto")
    for i, row in enumerate(broken):
        for j, n in enumerate(row):
            if n:
                colour = "white" if share[i][j] > 0.5 else "#212121"
                ax.text(j, i, f"{n}/{len(groups[j][1])}", ha="center", va="center",
                        fontsize=7, color=colour)  # fmt: skip
    labels = [f"{p}\n({len(ids)})" if p is not None else f"–\n({len(ids)})" for p, ids in groups]
    ax.set_xticks(range(len(groups)), labels, fontsize=8)
    ax.set_yticks(range(len(fault_ids)), fault_ids, fontsize=8)
    ax.set_xticks([x - 0.5 for x in range(1, len(groups))], minor=True)
    ax.set_yticks([y - 0.5 for y in range(1, len(fault_ids))], minor=True)
    ax.grid(which="minor", color="#e0e0e0", linewidth=0.6)
    ax.tick_params(which="minor", length=0)
    ax.xaxis.set_ticks_position("top")
    ax.xaxis.set_label_position("top")
    ax.set_xlabel(words("html.matrix.propositions"), fontsize=8)
    fig.tight_layout()
    return fig
