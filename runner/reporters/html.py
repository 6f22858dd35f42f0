"""One self-contained HTML page from an evidence file: for people who skim, not parse.

Everything is inline (CSS, and the figures as SVG), so the page opens offline and can be
attached to a grade. Figures need matplotlib (the ``[report]`` extra); the page is built
only from evidence (the file shown and, for a learner's or a fault's, the module's
reference evidence drawn beside it), never by re-running anything.

The page reads top down: what was judged and how it went (by kind: the chapter's
propositions, the functions' contract), what did not pass in full (diagnosis, the
measurements that failed, what the code printed), the figures, the faults the claims catch,
then the claims that passed, folded by proposition. Words are in the reader's language;
where the chapter and a real run disagree the claim's note is set apart as an erratum, not
as a diagnosis of the code.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from runner.errors import UsageError
from runner.facts import render
from runner.i18n import Catalog, Msg
from runner.models.results import RESTATES_VALUES
from runner.numbers import apart, pair_apart, show, show_expected
from runner.pack import FigureSpec
from runner.record import write_text_atomic
from runner.reporters import html_figures

STATUS_ORDER = {"failed": 0, "error": 1, "skipped": 2, "passed": 3}
KINDS = ("proposition", "contract")

CSS = """
:root{--passed:#2e7d32;--failed:#c62828;--error:#6a1b9a;--skipped:#757575}
body{font-family:system-ui,-apple-system,"Noto Sans CJK SC","PingFang SC",sans-serif;
margin:1.5rem auto;max-width:76rem;padding:0 1rem;color:#222;line-height:1.45;font-size:15px}
h1{font-size:1.45rem;margin:.2rem 0}h1 small{display:block;font-size:.95rem;color:#666;
font-weight:400}
h2{font-size:1.15rem;margin:1.6rem 0 .5rem;border-bottom:1px solid #ddd}
h3{font-size:.98rem;margin:0 0 .2rem}
table{border-collapse:collapse;margin:.4rem 0;font-size:.86rem}
td,th{border:1px solid #e0e0e0;padding:.15rem .45rem;text-align:left;vertical-align:top}
th,td.status{white-space:nowrap}
.facts{display:grid;grid-template-columns:max-content 1fr max-content 1fr;gap:.1rem .8rem;
font-size:.88rem;margin:.6rem 0}.facts dt{font-weight:600}.facts dd{margin:0;
overflow-wrap:anywhere}
.kinds{display:flex;flex-wrap:wrap;gap:.5rem;margin:.5rem 0}.kind{border:1px solid #ddd;
border-radius:6px;padding:.35rem .7rem}.kind b{display:block;font-size:.8rem;color:#555}
.status{font-weight:700;text-transform:uppercase;font-size:.75rem;letter-spacing:.03em}
.passed{color:var(--passed)}.failed{color:var(--failed)}.error{color:var(--error)}
.skipped{color:var(--skipped)}
.claim{border-left:4px solid #ddd;padding:.1rem 0 .1rem .7rem;margin:.8rem 0;color:#222}
.claim.failed{border-left-color:var(--failed)}.claim.error{border-left-color:var(--error)}
.claim.skipped{border-left-color:var(--skipped)}
.claim.passed{margin:.45rem 0;border-left-color:#c8e6c9}
.id{font-family:ui-monospace,monospace;font-size:.88rem}
.stage{color:#666;font-weight:400;font-size:.82rem}
.reason{margin:.3rem 0}
.diagnosis{background:#e8f0fe;border-left:4px solid #1a73e8;padding:.35rem .6rem;
margin:.4rem 0;font-size:.9rem}.diagnosis ul{margin:.2rem 0 0;padding-left:1.2rem}
.erratum{border:1px dashed #a1887f;background:#faf7f2;color:#4e342e;padding:.3rem .6rem;
margin:.4rem 0;font-size:.84rem}
.label{display:block;font-size:.72rem;font-weight:700;text-transform:uppercase;
letter-spacing:.04em;margin-bottom:.1rem}
.diagnosis .label{color:#1a73e8}.erratum .label{color:#8d6e63}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(26rem,1fr));gap:1rem}
figure{margin:0}figure svg{max-width:100%;height:auto}
figure.matrix{max-width:52rem;margin:.5rem 0}
figcaption{font-size:.82rem;color:#555}
details{margin:.25rem 0}summary{cursor:pointer}
details.group{border:1px solid #e0e0e0;border-radius:6px;padding:.25rem .6rem}
details.group>summary{font-weight:600}
details.group[open]>summary{margin-bottom:.3rem}
pre{background:#f6f6f6;padding:.4rem;font-size:.8rem;white-space:pre-wrap;max-height:14rem;
overflow:auto}
code{font-size:.84rem}.muted{color:#777}.problem{color:#b71c1c}
"""


def build(
    evidence: dict[str, Any],
    words: Catalog,
    figures: Sequence[FigureSpec] = (),
    reference: Mapping[str, Any] | None = None,
    reference_note: str | None = None,
) -> str:
    """The report page for one evidence document, in ``words``' language, with the figures
    of the module's pack (``Pack.figures``); ``reference`` is the module's reference
    evidence to draw beside a learner's or a fault's (``reference_note`` says where it came
    from, or why there is none)."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError("use.report_needs_matplotlib") from None
    matplotlib.use("Agg")
    drawn = html_figures.drawn(evidence, words, figures, reference)
    claims = [c for c in evidence.get("claims", []) if isinstance(c, dict)]
    failing = sorted(
        (c for c in claims if c.get("status") != "passed"),
        key=lambda c: STATUS_ORDER.get(str(c.get("status")), 9),
    )
    title = evidence.get("claim_pack", {}).get("title", {})
    other = "en" if words.lang == "zh" else "zh"
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{words.lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width,initial-scale=1">',
        f"<title>{_e(evidence.get('module', 'evidence'))} · {_e(words('html.evidence'))}</title>",
        f"<style>{CSS}</style></head><body>",
        f"<h1>{_e(words.pick(title) if title else evidence.get('module'))}"
        f"<small lang='{other}'>{_e(title.get(other, '') if title else '')}</small></h1>",
        _summary(evidence, words, reference_note),
    ]
    if failing:
        parts.append(f"<h2>{_e(words('html.not_passing', n=len(failing)))}</h2>")
        parts.extend(_claim(c, words) for c in failing)
    if drawn:
        parts.append(f"<h2>{_e(words('html.figures'))}</h2><div class='figures'>")
        parts.extend(_figure(name, caption, fig, words) for name, caption, fig in drawn)
        parts.append("</div>")
    if evidence.get("faults"):
        parts.append(_faults(evidence, words))
    parts.append(_passing(evidence, claims, words))
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write(
    evidence: dict[str, Any],
    out: Path,
    words: Catalog,
    figures: Sequence[FigureSpec] = (),
    reference: Mapping[str, Any] | None = None,
    reference_note: str | None = None,
) -> None:
    write_text_atomic(out, build(evidence, words, figures, reference, reference_note))


# -- the head -----------------------------------------------------------------------------------
def _summary(evidence: dict[str, Any], words: Catalog, reference_note: str | None) -> str:
    pack = evidence.get("claim_pack", {})
    impl = evidence.get("implementation", {})
    env = evidence.get("environment")
    env_text = ", ".join(f"{k} {v}" for k, v in env.items()) if isinstance(env, dict) else env
    kind = impl.get("kind", "reference")
    described = (
        words("impl.reference")
        if kind == "reference"
        else words(f"impl.{kind}", name=impl.get("name", "?"))
    )
    dirty = " (dirty)" if evidence.get("commit_dirty") else ""
    facts = [
        (words("html.module"), f"{evidence.get('module')} v{pack.get('version', '?')}"),
        (words("html.implementation"), described),
        (words("html.commit"), f"{evidence.get('commit')}{dirty}"),
        (words("html.verified_at"), evidence.get("verified_at")),
    ]
    score = (evidence.get("faults") or {}).get("score")
    if score:
        facts.append((words("html.faults_caught"), f"{score['caught']}/{score['total']}"))
    if reference_note:
        facts.append((words("html.reference"), reference_note))
    items = "".join(f"<dt>{_e(k)}</dt><dd><code>{_e(v)}</code></dd>" for k, v in facts)
    items += f"<dt>{_e(words('html.environment'))}</dt><dd class='muted'>{_e(env_text)}</dd>"
    return f"<dl class='facts'>{items}</dl>{_kinds(evidence, words)}"


def _kinds(evidence: dict[str, Any], words: Catalog) -> str:
    """The counts, apart for the chapter's propositions and the functions' contract when
    the evidence counts them apart (``summary.by_kind``)."""
    summary = evidence.get("summary", {})
    by_kind = summary.get("by_kind") or {}
    blocks = [(words("html.kind.all"), summary)]
    if by_kind:
        blocks = [(words(f"html.kind.{k}"), by_kind[k]) for k in KINDS if by_kind.get(k)]
    out = []
    for name, counts in blocks:
        shown = " · ".join(
            f"<span class='{s}'>{counts.get(s, 0)} {_e(words('status.' + s))}</span>"
            for s in ("passed", "failed", "error", "skipped")
            if counts.get(s) or s == "passed"
        )
        points = ""
        if "max_points" in counts:
            points = " · " + _e(
                words("html.points_of", got=f"{counts.get('points', 0):g}",
                      most=f"{counts['max_points']:g}")
            )  # fmt: skip
        out.append(f"<div class='kind'><b>{_e(name)}</b>{shown}{points}</div>")
    return f"<div class='kinds'>{''.join(out)}</div>"


# -- claims -------------------------------------------------------------------------------------
def _claim(claim: dict[str, Any], words: Catalog) -> str:
    """A claim in full: verdict, statement, why, diagnosis, the measurements (those that
    failed first, the rest folded), what the code printed, and the chapter's erratum."""
    status = str(claim.get("status", "?"))
    measurements = [m for m in claim.get("measurements", []) if isinstance(m, dict)]
    shown = [m for m in measurements if m.get("verdict") != "passed"]
    rest = [m for m in measurements if m.get("verdict") == "passed"]
    if status == "passed" or not shown:
        shown, rest = [], measurements
    reason = _message(claim.get("reason"), words)
    parts = [
        _claim_head(claim, words),
        f"<div>{_e(words.pick(claim.get('statement', {})))}</div>",
        f"<p class='reason {_e(status)}'>{_e(reason)}</p>" if reason else "",
        "".join(_diagnosis(d, words) for d in claim.get("diagnosis", [])),
        _measurements(shown, words) if shown else "",
    ]
    if rest:
        summary = words("html.more_measurements", n=len(rest)) if shown else words(
            "html.measurements", n=len(rest)
        )  # fmt: skip
        parts.append(
            f"<details><summary>{_e(summary)}</summary>{_measurements(rest, words)}</details>"
        )
    if claim.get("output"):
        parts.append(
            f"<details><summary>{_e(words('run.printed'))}</summary>"
            f"<pre>{_e(claim['output'])}</pre></details>"
        )
    parts.append(_erratum(claim, words))
    return (
        f"<section class='claim {_e(status)}' id='{_e(claim.get('id'))}'>{''.join(parts)}</section>"
    )


def _claim_head(claim: dict[str, Any], words: Catalog) -> str:
    status = str(claim.get("status", "?"))
    points = ""
    if claim.get("points") is not None and status != "passed":
        most = f"{claim['points']:g}"
        points = f" <span class='muted'>{_e(words('html.points_of', got='0', most=most))}</span>"
    return (
        f"<h3><span class='status {_e(status)}'>{_e(words('status.' + status))}</span> "
        f"<span class='id'>{_e(claim.get('id'))}</span> "
        f"<span class='stage'>{_e(words.pick(claim.get('stage', {})))}</span>{points}</h3>"
    )


def _measurements(measurements: list[dict[str, Any]], words: Catalog) -> str:
    rows = []
    for m in measurements:
        unit = m.get("unit")
        verdict = str(m.get("verdict"))
        value, tolerance, actual = m.get("expected"), m.get("tolerance", {}), m.get("actual")
        if verdict != "passed" and isinstance(tolerance, dict):
            value, tolerance, actual = apart(value, tolerance, actual, unit)
        expected = show_expected(_localized(value, words), tolerance, unit, words("word.raises"))
        told = m.get("detail")
        restates = isinstance(told, dict) and told.get("code") in RESTATES_VALUES
        why = "" if restates else _message(told, words)
        context = f" <em>{_e(words('run.context'))}</em>" if m.get("context") else ""
        rows.append(
            f"<tr><td><code>{_e(m.get('name'))}</code>{context}</td><td>{_e(expected)}</td>"
            f"<td>{_e(show(_localized(actual, words), unit))}"
            f"{(' — ' + _e(why)) if why else ''}</td>"
            f"<td class='status {_e(verdict)}'>{_e(words('status.' + verdict))}</td>"
            f"<td class='muted'>{_e(m.get('source'))}</td></tr>"
        )
    heads = "".join(
        f"<th>{_e(words('html.' + h))}</th>"
        for h in ("measure", "expected", "actual", "verdict", "source")
    )
    return f"<table><tr>{heads}</tr>{''.join(rows)}</table>"


def _localized(value: Any, words: Catalog) -> Any:
    """Values as the reader reads them: a bilingual label (``{"zh": ..., "en": ...}``, as a
    generator's case labels may be) in the reader's language, inside lists too."""
    if isinstance(value, dict) and set(value) == {"zh", "en"}:
        return words.pick(value)
    if isinstance(value, list):
        return [_localized(v, words) for v in value]
    return value


def _diagnosis(d: dict[str, Any], words: Catalog) -> str:
    from runner.models import Diagnosis
    from runner.reporters.text import diagnosis_lines

    head, *rest = diagnosis_lines(Diagnosis.model_validate(d), words)
    items = "".join(f"<li>{_e(line.strip().removeprefix('- '))}</li>" for line in rest)
    return (
        f"<div class='diagnosis'><span class='label'>{_e(words('html.diagnosis'))}</span>"
        f"{_e(head)}{f'<ul>{items}</ul>' if items else ''}</div>"
    )


def _erratum(claim: dict[str, Any], words: Catalog) -> str:
    """A claim's notes, set apart from diagnoses: they are about the chapter's text (where
    it and a real run disagree) or about how the claim measures, never about the code
    judged. A contract's claim has no chapter text: its note is only a note."""
    notes = claim.get("notes")
    if not isinstance(notes, dict) or not notes.get(words.lang):
        return ""
    label = words("html.note") if claim.get("kind") == "contract" else words("html.erratum")
    return (
        f"<aside class='erratum'><span class='label'>{_e(label)}</span>"
        f"{_e(words.pick(notes))}</aside>"
    )


def _passing(evidence: dict[str, Any], claims: list[dict[str, Any]], words: Catalog) -> str:
    """The claims that passed, folded: one group per proposition, the contract's apart."""
    passing = [c for c in claims if c.get("status") == "passed"]
    if not passing:
        return ""
    stage = {c.get("proposition"): c.get("stage", {}) for c in claims}
    groups: list[tuple[str, list[dict[str, Any]], int]] = []
    contract = [c for c in passing if c.get("kind") == "contract"]
    # each proposition's claims gathered in one pass: a hand-in of 300,000 claims must not
    # cost the page propositions × claims comparisons (of whole records, as it once did)
    members_of: dict[Any, list[dict[str, Any]]] = {}
    totals: dict[Any, int] = {}
    for c in claims:
        if c.get("kind") != "contract":
            key = c.get("proposition")  # as proposition_groups keys them
            totals[key] = totals.get(key, 0) + 1
            if c.get("status") == "passed":
                members_of.setdefault(key, []).append(c)
    for proposition, _ in html_figures.proposition_groups(evidence):
        members = members_of.get(proposition, [])
        total = totals.get(proposition, 0)
        if members:
            name = words("html.proposition", n=proposition if proposition is not None else "–")
            groups.append((f"{name} · {words.pick(stage.get(proposition) or {})}", members, total))
    if contract:
        total = sum(1 for c in claims if c.get("kind") == "contract")
        groups.append((words("html.kind.contract"), contract, total))
    out = [f"<h2>{_e(words('html.passing', n=len(passing)))}</h2>"]
    for name, members, total in groups:
        count = words("html.passed_of", passed=len(members), total=total)
        errata = sum(
            1 for c in members if isinstance(c.get("notes"), dict) and c.get("kind") != "contract"
        )
        note = f" · {words('html.errata', n=errata)}" if errata else ""
        out.append(
            f"<details class='group'><summary>{_e(name)} <span class='muted'>— {_e(count)}"
            f"{_e(note)}</span></summary>{''.join(_claim(c, words) for c in members)}</details>"
        )
    return "".join(out)


# -- figures and faults -------------------------------------------------------------------------
def _figure(name: str, caption: str, figure: Any, words: Catalog) -> str:
    if figure is None:
        return f"<p class='muted'>{_e(words('html.no_figure', name=name))}</p>"
    if isinstance(figure, str):  # what went wrong drawing it (the pack's code)
        return f"<p class='problem'>{_e(figure)}</p>"
    try:
        drawing = html_figures.svg(figure)
    except Exception as exc:  # a Figure the pack's code made that cannot be saved
        from runner.run import last_line

        said = words(
            "html.figure_raised", name=name, error=type(exc).__name__, message=last_line(exc),
            where="savefig",
        )  # fmt: skip
        return f"<p class='problem'>{_e(said)}</p>"
    return (
        f"<figure id='figure-{_e(name)}'>{drawing}<figcaption>{_e(caption)}</figcaption></figure>"
    )


def _faults(evidence: dict[str, Any], words: Catalog) -> str:
    faults = evidence.get("faults", {})
    proposition = {
        c.get("id"): c.get("proposition") for c in evidence.get("claims", []) if isinstance(c, dict)
    }
    rows = []
    for v in faults.get("variants", []):
        observed = "<br>".join(
            _e(render(words.pick(o.get("fact", {})), o.get("values", {})))
            for o in v.get("observed_signal", [])
        )
        caught = words("status.caught") if v.get("caught") else words("status.survived")
        colour = "passed" if v.get("caught") else "failed"
        by_proposition: dict[Any, list[str]] = {}
        for claim_id in v.get("claims_broken", []):
            by_proposition.setdefault(proposition.get(claim_id), []).append(claim_id)
        broken = "<br>".join(
            f"<b>{_e(p if p is not None else '–')}</b> <span class='id'>{_e(', '.join(ids))}</span>"
            for p, ids in by_proposition.items()
        )
        rows.append(
            f"<tr><td><code>{_e(v.get('id'))}</code><br>{_e(words.pick(v.get('title', {})))}</td>"
            f"<td>{_e(words.pick(v.get('expected_signal', {})))}</td>"
            f"<td>{observed}</td><td>{broken}</td>"
            f"<td class='status {colour}'>{_e(caught)}</td></tr>"
        )
    score = faults.get("score", {})
    matrix = html_figures.matrix_svg(evidence, words)
    figure = (
        f"<figure id='figure-faults' class='matrix'>{matrix}"
        f"<figcaption>{_e(words('html.caption.faults'))}</figcaption></figure>"
        if matrix
        else ""
    )
    heads = "".join(
        f"<th>{_e(words('html.' + h))}</th>"
        for h in ("fault", "chapter_signal", "observed_signal", "claims_broken")
    )
    return (
        f"<h2>{_e(words('html.faults', caught=score.get('caught'), total=score.get('total')))}</h2>"
        f"{figure}<details class='group'><summary>{_e(words('html.fault_table', n=len(rows)))}</summary>"
        f"<table><tr>{heads}<th></th></tr>{''.join(rows)}</table></details>"
    )


def _message(data: Any, words: Catalog) -> str:
    message = Msg.from_data(data)
    if message is None:
        return ""
    try:
        return words(message.code, **pair_apart(message.params))
    except (KeyError, IndexError, ValueError):  # a code from another version of the runner
        return message.code


def _e(value: Any) -> str:
    return html.escape("" if value is None else str(value))
