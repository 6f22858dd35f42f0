"""The metrics against the claim pack: a known module, known names, each once, ``expected``
the pack's versioned expectation and ``actual`` within the claim's tolerance (as the judge
decides it; NaN and infinity never are); with ``--challenge``, the challenge's own metrics."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from runner.compare import Near, Policy, same
from runner.i18n import Msg, msg
from runner.judge import judge
from runner.kinds import NUMBERS
from runner.load import ClaimPack, LoadedClaim
from runner.models import Expectation, Raises, Range, Unit
from runner.numbers import apart, pair_apart, show, show_expectation, show_expected
from runner.pack.outcome import Raised
from runner.submission.context import Context, MetricIndex, Submission
from runner.submission.problems import DataPath, Finding, json_path, sayable
from runner.text import printable_line

NONFINITE_STRINGS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}


def metric_index(claims: list[LoadedClaim]) -> MetricIndex:
    """Every metric a pack's claims define, by its name in the evidence."""
    return {e.metric or f"{c.claim.id}.{e.measure}": (c, e) for c in claims for e in c.claim.expect}


def metrics(doc: Submission, ctx: Context) -> Iterator[Finding]:
    module = doc.data.get("module")
    if not isinstance(module, str) or not doc.filled(("module",)):
        return
    pack = ctx.packs.get(module)
    if pack is None:
        known = ", ".join(sorted(ctx.packs))
        yield ("module",), msg("sub.unknown_module", module=module, known=known)
        return
    listed = doc.data.get("metrics")
    if not isinstance(listed, list):
        return
    known_metrics = ctx.metrics[module]
    challenge = ctx.challenge_metrics.get(module, {})
    seen: dict[str, int] = {}
    for i, metric in enumerate(listed):
        name = metric.get("name") if isinstance(metric, dict) else None
        at: DataPath = ("metrics", i)
        if not isinstance(name, str) or not doc.filled((*at, "name")):
            continue
        if name in seen:
            other = json_path(("metrics", seen[name]))
            yield (*at, "name"), msg("sub.duplicate_metric", name=name, other=other)
            continue
        seen[name] = i
        entry = known_metrics.get(name) or challenge.get(name)
        if entry is None:
            if name.startswith("challenge.") and ctx.challenge is None:
                continue  # challenge metrics are checked only with --challenge
            version = pack.meta.version
            yield (
                (*at, "name"),
                msg("sub.unknown_metric", name=name, module=module, version=version),
            )
            continue
        yield from _metric(doc, at, metric, entry, pack)
    if ctx.challenge is not None:
        yield from _challenge(doc, seen, challenge, ctx.challenge)
    if not listed:
        yield ("metrics",), msg("sub.no_metrics")
        return
    unfilled = any(not doc.filled(("metrics", i, "name")) for i in range(len(listed)))
    for name in pack.meta.required_metrics:  # the chapter template's metrics, each reported
        if name not in seen and not unfilled:
            version = pack.meta.version
            yield (
                ("metrics",),
                msg("sub.required_metric", name=name, module=module, version=version),
            )


def _metric(
    doc: Submission,
    at: DataPath,
    metric: dict[str, Any],
    entry: tuple[LoadedClaim, Expectation],
    pack: ClaimPack,
) -> Iterator[Finding]:
    loaded, exp = entry
    if "expected" in metric and doc.filled((*at, "expected")):
        submitted = metric["expected"]
        if not _same(submitted, shown_expected(exp)):
            # two numbers that read alike (1 against 1 ± 1e-09) are shown with every digit
            parted = pair_apart({"expected": exp.value, "got": submitted, "unit": exp.unit})
            alike = parted["got"] is not submitted
            yield (
                (*at, "expected"),
                msg(
                    "sub.expected",
                    # a list of digits in its brackets (a message's list of texts reads as
                    # "a, b": one value shown as a number beside a list)
                    value=_listed(parted["got"]) if alike else shown(submitted, exp.unit),
                    expected=expectation(exp.model_copy(update={"value": parted["expected"]}))
                    if alike
                    else expectation(exp),
                    version=f"{pack.meta.id} v{pack.meta.version}",
                    claim=loaded.claim.id,
                ),
            )
    if "actual" not in metric or not _filled_within(doc, (*at, "actual")):
        return
    raw = metric["actual"]
    actual = _decode(raw)
    if _nonfinite_inside(actual):
        # a float NaN was reported where it is; the evidence's "NaN" strings were not
        if not _nonfinite_inside(raw):
            yield (*at, "actual"), msg("sub.nan_actual")
        return
    verdict, detail = judge(exp, actual)
    if verdict == "passed":
        return
    fields = {"name": metric["name"], **_outside(exp, actual)}
    why = detail.msg() if detail is not None else None
    if why is None or not sayable(why):
        yield (*at, "actual"), msg("sub.outside", **fields)
    else:
        yield (*at, "actual"), msg("sub.outside_detail", **fields, detail=why)


def claim_measurements(doc: Submission, ctx: Context) -> Iterator[Finding]:
    """The runner's evidence judged again claim by claim, as its metrics are: a measurement
    that is not the figure its metric reports, or, where no metric reports it, a passed
    claim's figure outside the claim's tolerance (a figure changed by hand, the verdicts
    left as they were), is a problem. Claims that did not pass are reported by their status."""
    module, claims = doc.data.get("module"), doc.data.get("claims")
    if not isinstance(module, str) or module not in ctx.packs or not isinstance(claims, list):
        return
    known = {**ctx.metrics[module], **ctx.challenge_metrics.get(module, {})}
    listed = doc.data.get("metrics")
    reported = {
        m["name"]: (k, m["actual"])
        for k, m in enumerate(listed if isinstance(listed, list) else [])
        if isinstance(m, dict) and isinstance(m.get("name"), str) and "actual" in m
    }
    for i, claim in enumerate(claims):
        if not isinstance(claim, dict) or not isinstance(claim.get("measurements"), list):
            continue
        for j, measurement in enumerate(claim["measurements"]):
            if not isinstance(measurement, dict) or "actual" not in measurement:
                continue
            at: DataPath = ("claims", i, "measurements", j, "actual")
            name = measurement.get("metric")
            entry = known.get(name) if isinstance(name, str) else None
            if entry is None or not _filled_within(doc, at):
                continue  # an unknown metric is the metrics' problem, where it is listed
            raw = measurement["actual"]
            if name in reported:  # judged where the metrics list it: here, the same figure?
                if not _same(_decode(reported[name][1]), _decode(raw)):
                    other = json_path(("metrics", reported[name][0], "actual"))
                    yield at, msg("sub.measurement_differs", name=name, other=other)
                continue
            if claim.get("status") != "passed":
                continue
            actual = _decode(raw)
            if _nonfinite_inside(actual):
                yield at, msg("sub.nan_actual")
                continue
            verdict, _ = judge(entry[1], actual)
            if verdict != "passed":
                yield at, msg("sub.outside", name=name, **_outside(entry[1], actual))


def _challenge(
    doc: Submission, seen: dict[str, int], wanted: MetricIndex, nonce: str
) -> Iterator[Finding]:
    block = doc.data.get("challenge")
    given = block.get("nonce") if isinstance(block, dict) else None
    if given is None:
        yield ("challenge",), msg("sub.challenge_missing", nonce=nonce)
    elif given != nonce:
        yield (
            ("challenge", "nonce"),
            msg("sub.challenge_other", nonce=str(given)[:200], expected=nonce),
        )
    for name in wanted:
        if name not in seen:
            yield ("metrics",), msg("sub.challenge_metric", name=name)


def _outside(exp: Expectation, actual: Any) -> dict[str, Any]:
    """A figure outside its expectation, in words: every digit where fewer would read the
    same (2.19722 is outside 2.19722 ± 1e-09)."""
    tolerance = exp.tolerance.model_dump(exclude_none=True)
    value, bounds, figure = apart(exp.value, tolerance, actual, exp.unit)
    if figure is actual:
        return {"actual": shown(actual, exp.unit), "expected": expectation(exp)}
    return {"actual": figure, "expected": show_expected(value, bounds, exp.unit)}


def shown_expected(exp: Expectation) -> Any:
    """What the evidence shows as ``expected``: the value, or the range or error for the
    tolerances that have none (as the runner writes it)."""
    tol = exp.tolerance
    if isinstance(tol, Raises):
        return tol.error
    if isinstance(tol, Range):
        return {"min": tol.min, "max": tol.max}
    return exp.value


def expectation(exp: Expectation) -> str | Msg:
    """``4701.20 ± 0.005``, ``= 123,532,032``, ``≥ 4600``; words only where there are any."""
    tol = exp.tolerance
    if isinstance(tol, Raises):
        return msg("sub.expect_raises", error=tol.error)
    if isinstance(tol, Range) and tol.min is not None and tol.max is not None:
        return msg("sub.expect_range", min=show(tol.min, exp.unit), max=show(tol.max, exp.unit))
    return show_expectation(exp)


def shown(value: Any, unit: Unit | None) -> str | Msg:
    """A submitted value in a message: numbers as the chapter shows them; a string quoted,
    so '4701.20' is not read as 4701.20; a long list by its length."""
    if isinstance(value, str):
        return repr(value if len(value) <= 60 else value[:59] + "…")
    if isinstance(value, Raised):
        error, message = printable_line(value.error[:60]), printable_line(value.message[:60])
        return msg("sub.raised", error=error, message=message)
    if isinstance(value, dict):
        return "{…}"
    if isinstance(value, list):
        if len(value) > 8 or not all(_number(v) for v in value):
            return msg("sub.items", n=len(value))
        return show(value, unit)
    if value is None:
        return "null"
    return show(value, unit)


# The expected value a submission copied is the pack's when its numbers agree to 12
# significant digits (an int and a float alike, integers exactly, a bool not a number; NaN
# and infinities never), its lists, dicts and other values exactly.
COPIED = Policy(Near(rel=1e-12, abs=1e-300), numbers="values")


def _same(submitted: Any, expected: Any) -> bool:
    """The submitted ``expected`` is the pack's (numbers to 12 significant digits)."""
    return same(expected, submitted, COPIED)


def _number(value: Any) -> bool:
    return isinstance(value, NUMBERS) and not isinstance(value, bool)


def _decode(value: Any) -> Any:
    """Evidence encodings back to values: 'NaN' strings, {raised, message} objects."""
    if isinstance(value, str) and value in NONFINITE_STRINGS:
        return NONFINITE_STRINGS[value]
    if isinstance(value, dict) and set(value) == {"raised", "message"}:
        return Raised(str(value["raised"]), str(value["message"]), (str(value["raised"]),))
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def _nonfinite_inside(value: Any) -> bool:
    if isinstance(value, list):
        return any(_nonfinite_inside(v) for v in value)
    return isinstance(value, float) and not math.isfinite(value)


def _filled_within(doc: Submission, at: DataPath) -> bool:
    """No unfilled placeholder at ``at`` or anywhere inside it."""
    n = len(at)
    return all(p[:n] != at for p in doc.placeholders)


def _listed(value: Any) -> Any:
    """A (nested) list of texts as one text in brackets; anything else as it is."""
    if isinstance(value, list):
        return "[" + ", ".join(str(_listed(v)) for v in value) + "]"
    return value
