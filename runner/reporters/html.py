"""One self-contained HTML page from an evidence file: for people who skim, not parse.

Everything is inline (CSS, and the figures as SVG), so the page opens offline and can be
attached to a grade. Figures need matplotlib (the ``[report]`` extra); the page is built
only from the evidence, never by re-running anything.
"""

from __future__ import annotations

import html
import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runner.errors import UsageError
from runner.facts import render
from runner.i18n import Catalog, Msg
from runner.numbers import show, show_expected
from runner.pack import FigureSpec
from runner.record import write_text_atomic

if TYPE_CHECKING:
    from matplotlib.figure import Figure

STATUS_ORDER = {"failed": 0, "error": 1, "skipped": 2, "passed": 3}
STATUS_COLOUR = {"passed": "#2e7d32", "failed": "#c62828", "error": "#6a1b9a", "skipped": "#757575"}

CSS = """
body{font-family:system-ui,-apple-system,"Noto Sans CJK SC","PingFang SC",sans-serif;
margin:2rem auto;
max-width:72rem;padding:0 1rem;color:#222;line-height:1.5}
h1{font-size:1.5rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
h3{font-size:1rem;margin-bottom:.25rem}
table{border-collapse:collapse;margin:.5rem 0;font-size:.9rem}
td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
.status{font-weight:600;text-transform:uppercase;font-size:.8rem}
.passed{color:#2e7d32}.failed{color:#c62828}.error{color:#6a1b9a}.skipped{color:#757575}
.claim{border-left:4px solid #ddd;padding-left:.75rem;margin:1rem 0}
.claim.failed,.claim.error{border-left-color:#c62828}
.note{background:#fff8e1;padding:.4rem .6rem;font-size:.9rem}
.en{color:#555}figure{margin:1rem 0}figcaption{font-size:.85rem;color:#555}
code{font-size:.85rem}
"""


def build(evidence: dict[str, Any], words: Catalog, figures: Sequence[FigureSpec] = ()) -> str:
    """The report page for one evidence document, in ``words``' language (statements and
    notes in both of the course's languages, as the evidence holds them), with the figures
    of the module's pack (``Pack.figures``)."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError("use.report_needs_matplotlib") from None
    matplotlib.use("Agg")
    drawn = _figures(evidence, words, figures)
    claims = sorted(evidence.get("claims", []), key=lambda c: STATUS_ORDER.get(c.get("status"), 9))
    pack = evidence.get("claim_pack", {})
    title = pack.get("title", {"zh": evidence.get("module", ""), "en": ""})
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{words.lang}"><head><meta charset="utf-8">',
        f"<title>{_e(evidence.get('module', 'evidence'))} · {_e(words('html.evidence'))}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{_e(title.get('zh', ''))}<br><span class='en'>{_e(title.get('en', ''))}</span></h1>",
        _summary(evidence, words),
    ]
    failing = [c for c in claims if c.get("status") != "passed"]
    if failing:
        parts.append(f"<h2>{_e(words('html.not_passing'))}</h2>")
        parts.extend(_claim(c, words) for c in failing)
    parts.append(f"<h2>{_e(words('html.figures'))}</h2>")
    parts.extend(drawn)
    parts.append(f"<h2>{_e(words('html.claims'))}</h2>")
    parts.extend(_claim(c, words) for c in claims if c.get("status") == "passed")
    if "faults" in evidence:
        parts.append(_faults(evidence["faults"], words))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write(
    evidence: dict[str, Any], out: Path, words: Catalog, figures: Sequence[FigureSpec] = ()
) -> None:
    write_text_atomic(out, build(evidence, words, figures))


# -- sections -----------------------------------------------------------------------------------
def _summary(evidence: dict[str, Any], words: Catalog) -> str:
    summary = evidence.get("summary", {})
    pack = evidence.get("claim_pack", {})
    impl = evidence.get("implementation", {})
    env = evidence.get("environment")
    env_text = ", ".join(f"{k} {v}" for k, v in env.items()) if isinstance(env, dict) else env
    counts = " · ".join(
        f"<span class='{s}'>{summary.get(s, 0)} {_e(words('status.' + s))}</span>"
        for s in ("passed", "failed", "error", "skipped")
    )
    score = evidence.get("faults", {}).get("score")
    fault_line = (
        f"<tr><th>{_e(words('html.faults_caught'))}</th><td>{score['caught']}/{score['total']}</td></tr>"
        if score
        else ""
    )
    kind = impl.get("kind", "reference")
    described = (
        words("impl.reference")
        if kind == "reference"
        else words(f"impl.{kind}", name=impl.get("name", "?"))
    )
    points = ""
    if "max_points" in summary:
        got, most = summary.get("points", 0), summary["max_points"]
        points = f"<tr><th>{_e(words('html.points'))}</th><td>{got:g} / {most:g}</td></tr>"
    rows = [
        (words("html.module"), f"{evidence.get('module')} v{pack.get('version', '?')}"),
        (words("html.implementation"), described),
        (
            words("html.commit"),
            f"{evidence.get('commit')}{' (dirty)' if evidence.get('commit_dirty') else ''}",
        ),
        (words("html.verified_at"), evidence.get("verified_at")),
        (words("html.environment"), env_text),
    ]
    body = "".join(f"<tr><th>{_e(k)}</th><td><code>{_e(v)}</code></td></tr>" for k, v in rows)
    return f"<table>{body}<tr><th>{_e(words('html.claims'))}</th><td>{counts}</td></tr>{points}{fault_line}</table>"


def _message(data: Any, words: Catalog) -> str:
    message = Msg.from_data(data)
    if message is None:
        return ""
    try:
        return words.say(message)
    except (KeyError, IndexError, ValueError):  # a code from another version of the runner
        return message.code


def _claim(claim: dict[str, Any], words: Catalog) -> str:
    status = claim.get("status", "?")
    statement = claim.get("statement", {})
    stage = claim.get("stage", {})
    rows = []
    for m in claim.get("measurements", []):
        unit = m.get("unit")
        shown = show_expected(m.get("expected"), m.get("tolerance", {}), unit, words("word.raises"))
        why = _message(m.get("detail"), words)
        context = f" <em>{_e(words('run.context'))}</em>" if m.get("context") else ""
        rows.append(
            f"<tr><td><code>{_e(m.get('name'))}</code>{context}</td><td>{_e(shown)}</td>"
            f"<td>{_e(show(m.get('actual'), unit))}{(' — ' + _e(why)) if why else ''}</td>"
            f"<td class='status {_e(m.get('verdict'))}'>{_e(words('status.' + str(m.get('verdict'))))}</td>"
            f"<td>{_e(m.get('source'))}</td></tr>"
        )
    heads = "".join(
        f"<th>{_e(words('html.' + h))}</th>"
        for h in ("measure", "expected", "actual", "verdict", "source")
    )
    table = f"<table><tr>{heads}</tr>{''.join(rows)}</table>" if rows else ""
    reason = _message(claim.get("reason"), words)
    error = f"<p class='{_e(status)}'>{_e(reason)}</p>" if reason else ""
    diagnosis = "".join(_diagnosis(d, words) for d in claim.get("diagnosis", []))
    printed = ""
    if claim.get("output"):
        printed = f"<details><summary>{_e(words('run.printed'))}</summary><pre>{_e(claim['output'])}</pre></details>"
    notes = claim.get("notes")
    note = (
        f"<div class='note'>{_e(notes.get('zh'))}<br>"
        f"<span class='en'>{_e(notes.get('en'))}</span></div>"
        if isinstance(notes, dict)
        else ""
    )
    return (
        f"<section class='claim {_e(status)}' id='{_e(claim.get('id'))}'>"
        f"<h3><span class='status {_e(status)}'>{_e(words('status.' + str(status)))}</span> {_e(claim.get('id'))} "
        f"<small>{_e(stage.get('zh'))} {_e(stage.get('en'))}</small></h3>"
        f"<div>{_e(statement.get('zh'))}</div><div class='en'>{_e(statement.get('en'))}</div>"
        f"{error}{diagnosis}{table}{printed}{note}</section>"
    )


def _diagnosis(d: dict[str, Any], words: Catalog) -> str:
    from runner.models import Diagnosis
    from runner.reporters.text import diagnosis_lines

    head, *rest = diagnosis_lines(Diagnosis.model_validate(d), words)
    items = "".join(f"<li>{_e(line.strip().removeprefix('- '))}</li>" for line in rest)
    return f"<div class='note'>{_e(head)}{f'<ul>{items}</ul>' if items else ''}</div>"


def _faults(faults: dict[str, Any], words: Catalog) -> str:
    rows = []
    for v in faults.get("variants", []):
        observed = "<br>".join(
            _e(render(words.pick(o.get("fact", {})), o.get("values", {})))
            for o in v.get("observed_signal", [])
        )
        caught = words("status.caught") if v.get("caught") else words("status.survived")
        colour = "passed" if v.get("caught") else "failed"
        rows.append(
            f"<tr><td><code>{_e(v.get('id'))}</code><br>{_e(words.pick(v.get('title', {})))}</td>"
            f"<td>{_e(words.pick(v.get('expected_signal', {})))}</td>"
            f"<td>{observed}</td><td>{_e(', '.join(v.get('claims_broken', [])))}</td>"
            f"<td class='status {colour}'>{_e(caught)}</td></tr>"
        )
    score = faults.get("score", {})
    heads = "".join(
        f"<th>{_e(words('html.' + h))}</th>"
        for h in ("fault", "chapter_signal", "observed_signal", "claims_broken")
    )
    return (
        f"<h2>{_e(words('html.faults', caught=score.get('caught'), total=score.get('total')))}</h2>"
        f"<table><tr>{heads}<th></th></tr>{''.join(rows)}</table>"
    )


# -- figures ------------------------------------------------------------------------------------
def _figures(evidence: dict[str, Any], words: Catalog, figures: Sequence[FigureSpec]) -> list[str]:
    """The pack's figures (drawn from the evidence's claims), then the engine's own: the
    fault x claim matrix."""
    claims = {c.get("id"): c for c in evidence.get("claims", []) if isinstance(c, dict)}
    makers: list[tuple[str, str, Callable[[], Figure | None]]] = [
        (f.name, words.pick(f.caption), lambda f=f: f.draw(claims))  # type: ignore[misc]
        for f in figures
    ]
    makers.append(
        ("faults", words("html.caption.faults"), lambda: _fault_figure(evidence.get("faults")))
    )
    out = []
    for name, caption, make in makers:
        figure = make()
        if figure is None:
            out.append(f"<p>{_e(words('html.no_figure', name=name))}</p>")
            continue
        out.append(
            f"<figure id='figure-{name}'>{_svg(figure)}"
            f"<figcaption>{_e(caption)}</figcaption></figure>"
        )
    return out


def _svg(figure: Figure) -> str:
    import matplotlib.pyplot as plt

    buf = io.StringIO()
    # text stays text (the browser draws CJK); a fixed salt keeps ids stable between runs
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "learn-llm"}):
        figure.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    text = buf.getvalue()
    return text[text.index("<svg") :]  # drop the XML declaration and DOCTYPE to inline it


def _fault_figure(faults: dict[str, Any] | None) -> Figure | None:
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap

    if not faults or not faults.get("matrix"):
        return None
    matrix = faults["matrix"]
    fault_ids = list(matrix)
    claim_ids = list(next(iter(matrix.values())))
    code = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}
    grid = [[code.get(matrix[f].get(c, "skipped"), 1) for c in claim_ids] for f in fault_ids]
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(fault_ids) + 2.5))
    cmap = ListedColormap(["#e8f5e9", "#eeeeee", "#c62828", "#6a1b9a"])
    ax.imshow(grid, cmap=cmap, vmin=0, vmax=3, aspect="auto")
    ax.set_xticks(range(len(claim_ids)), claim_ids, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(len(fault_ids)), fault_ids, fontsize=8)
    for i, row in enumerate(grid):
        for j, value in enumerate(row):
            if value >= 2:
                ax.text(j, i, "✗", ha="center", va="center", color="white", fontsize=8)
    fig.set_label(
        "Fault × claim matrix: a cross marks a claim that failed (red) or errored "
        "(purple) with the fault injected; every row must have one."
    )
    return fig


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))
