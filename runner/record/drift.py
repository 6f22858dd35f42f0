"""Drift: does a fresh run reproduce the committed evidence, in what the claims assert?

Compared: what the claims assert and decide (statuses, reasons, expected values, tolerances,
verdicts, points and visibility, the summary's counts and points, the known failures, the
fault matrix and score, the claim pack's identity, the commit that measured),
and measured values to a stated reproduction precision: nine significant digits; an
absolute 1e-12 for the rounding residue of float64 arithmetic (the difference of two
computations of one function, which another BLAS kernel or CPU changes in the last bits);
25% for bytes allocated (which depend on the NumPy version). Measurements whose value is the
outcome of last-bit rounding itself (how many sums happen to be exactly 1.0) are recorded,
not compared. Provenance (environment, licenses, timings, ``verified_at``, the command that
ran, the producer's version) is recorded, never compared; sentences are rendered from
numbers when shown, so they are not compared either.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from runner.compare import Exact, Near, Policy, same
from runner.record.build import MEMORY_REL, REL, RESIDUE_ABS

# not ``commands``: ``run claims/`` and ``run claims/<module>/`` measure the same module, and
# how a grader spells the path is provenance, like the environment
TOP_COMPARED = ("module", "seed", "commit", "commit_dirty", "claim_pack")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # a key a JSON path may name after a dot
ABSENT = "—"  # a key one side of a comparison does not have (not JSON's null, which it may)


@dataclass(frozen=True)
class Drift:
    path: str
    committed: str
    fresh: str
    missing: bool = False  # there is no committed evidence at all
    unreadable: Any = None  # why the committed evidence cannot be read (a Msg)


def drift(committed: Any, fresh: dict[str, Any]) -> list[Drift]:
    """Every place where the fresh run does not reproduce the committed evidence."""
    if not isinstance(committed, dict):
        return [Drift("$", _brief(committed), "an evidence object")]
    return list(_document(committed, fresh))


def _document(old: dict[str, Any], new: dict[str, Any]) -> Iterator[Drift]:
    for key in TOP_COMPARED:
        yield from _exact(old.get(key), new.get(key), f"$.{key}")
    yield from _exact(old.get("implementation"), new.get("implementation"), "$.implementation")
    summary_keys = ("passed", "failed", "error", "skipped", "total", "points", "max_points")
    for key in summary_keys:
        yield from _exact(_get(old, "summary", key), _get(new, "summary", key), f"$.summary.{key}")
    yield from _exact(old.get("challenge"), new.get("challenge"), "$.challenge")
    # the claims that did not pass, as the evidence lists them: a line added by hand is drift
    yield from _exact(old.get("known_failures"), new.get("known_failures"), "$.known_failures")
    precision = _precisions(new)
    yield from _metrics(old.get("metrics"), new.get("metrics") or [], precision)
    yield from _claims(old.get("claims"), new.get("claims") or [])
    yield from _faults(old.get("faults"), new.get("faults"), precision)


def _metrics(old: Any, new: list[dict[str, Any]], precision: dict[str, str]) -> Iterator[Drift]:
    """The template's view of the measurements: the same numbers, so the same precision."""
    if not isinstance(old, list) or len(old) != len(new):
        yield Drift("$.metrics", _brief(old), f"{len(new)} metrics")
        return
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        where = f"$.metrics[{i}]"
        if not isinstance(a, dict):
            yield Drift(where, _brief(a), "a metric")
            continue
        for key in ("name", "claim", "expected", "verdict", "unit", "context"):
            yield from _exact(a.get(key), b.get(key), f"{where}.{key}")
        kind = precision.get(f"metric:{b.get('name')}")
        yield from _close(a.get("actual"), b.get("actual"), kind, f"{where}.actual")


def _claims(old: Any, new: list[dict[str, Any]]) -> Iterator[Drift]:
    if not isinstance(old, list):
        yield Drift("$.claims", _brief(old), f"{len(new)} claims")
        return
    old_ids = [c.get("id") if isinstance(c, dict) else None for c in old]
    new_ids = [c["id"] for c in new]
    if old_ids != new_ids:
        yield Drift("$.claims", f"ids {_brief(old_ids)}", f"ids {_brief(new_ids)}")
        return
    for i, (a, b) in enumerate(zip(old, new, strict=True)):
        base = f"$.claims[{i}]"
        for key in ("status", "check", "points", "visibility", "kind"):
            yield from _exact(a.get(key), b.get(key), f"{base}.{key}")
        yield from _exact(_get(a, "reason", "code"), _get(b, "reason", "code"), f"{base}.reason")
        old_m, new_m = a.get("measurements"), b.get("measurements") or []
        if not isinstance(old_m, list) or len(old_m) != len(new_m):
            yield Drift(f"{base}.measurements", _brief(old_m), f"{len(new_m)} measurements")
            continue
        for j, (m, n) in enumerate(zip(old_m, new_m, strict=True)):
            where = f"{base}.measurements[{j}]"
            if not isinstance(m, dict):
                yield Drift(where, _brief(m), "a measurement")
                continue
            for key in ("name", "metric", "expected", "tolerance", "verdict", "context"):
                yield from _exact(m.get(key), n.get(key), f"{where}.{key}")
            yield from _close(
                m.get("actual"), n.get("actual"), n.get("precision"), f"{where}.actual"
            )
        old_o, new_o = a.get("observations"), b.get("observations") or {}
        if not isinstance(old_o, dict) or set(old_o) != set(new_o):
            yield Drift(f"{base}.observations", _brief(old_o), _brief(sorted(new_o)))
            continue
        kinds = b.get("observation_precision") or {}
        for name in new_o:
            where = f"{base}.observations.{name}"
            yield from _close(old_o[name], new_o[name], kinds.get(name), where)


def _faults(old: Any, new: Any, precision: dict[str, str]) -> Iterator[Drift]:
    if old is None and new is None:
        return
    if not isinstance(old, dict) or not isinstance(new, dict):
        yield Drift("$.faults", _brief(old), _brief(new))
        return
    yield from _exact(old.get("matrix"), new.get("matrix"), "$.faults.matrix")
    yield from _exact(old.get("score"), new.get("score"), "$.faults.score")
    old_v, new_v = old.get("variants"), new.get("variants") or []
    if not isinstance(old_v, list) or len(old_v) != len(new_v):
        yield Drift("$.faults.variants", _brief(old_v), f"{len(new_v)} variants")
        return
    for i, (a, b) in enumerate(zip(old_v, new_v, strict=True)):
        base = f"$.faults.variants[{i}]"
        if not isinstance(a, dict):
            yield Drift(base, _brief(a), "a variant")
            continue
        for key in (
            "id",
            "replaces",
            "catchers",
            "claims_broken",
            "caught",
            "observed_as_declared",
        ):
            yield from _exact(a.get(key), b.get(key), f"{base}.{key}")
        facts_a, facts_b = a.get("observed_signal"), b.get("observed_signal") or []
        if not isinstance(facts_a, list) or len(facts_a) != len(facts_b):
            yield Drift(f"{base}.observed_signal", _brief(facts_a), f"{len(facts_b)} facts")
            continue
        for j, (f, g) in enumerate(zip(facts_a, facts_b, strict=True)):
            where = f"{base}.observed_signal[{j}]"
            if not isinstance(f, dict):
                yield Drift(where, _brief(f), "a fact")
                continue
            yield from _exact(f.get("fact"), g.get("fact"), f"{where}.fact")
            yield from _exact(f.get("held"), g.get("held"), f"{where}.held")
            old_values, new_values = f.get("values"), g.get("values") or {}
            if not isinstance(old_values, dict) or set(old_values) != set(new_values):
                yield Drift(f"{where}.values", _brief(old_values), _brief(sorted(new_values)))
                continue
            for ref, value in new_values.items():
                yield from _close(
                    old_values[ref], value, precision.get(ref), f"{where}.values[{ref}]"
                )


def _precisions(doc: dict[str, Any]) -> dict[str, str]:
    """ "claim/measure" -> its precision class, from the fresh run."""
    out: dict[str, str] = {}
    for claim in doc.get("claims") or []:
        for m in claim.get("measurements", []):
            out[f"{claim['id']}/{m['name']}"] = m.get("precision", "value")
            out[f"metric:{m['metric']}"] = m.get("precision", "value")
        for name, kind in (claim.get("observation_precision") or {}).items():
            out[f"{claim['id']}/{name}"] = kind
    return out


# -- comparing values -------------------------------------------------------------------------
def _exact(a: Any, b: Any, path: str) -> Iterator[Drift]:
    """Where ``a`` and ``b`` differ, as deep as they share a shape: the key of an object that
    changed (the claim pack's code digest, not the whole pack), an item of lists of one
    length; a key only one side has, or lists of two lengths, where they part."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in dict.fromkeys([*a, *b]):
            where = f"{path}.{key}" if _NAME.fullmatch(str(key)) else f"{path}[{json.dumps(key)}]"
            if key not in a or key not in b:
                yield Drift(where, _brief(a[key]) if key in a else ABSENT,
                            _brief(b[key]) if key in b else ABSENT)  # fmt: skip
            else:
                yield from _exact(a[key], b[key], where)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from _exact(x, y, f"{path}[{i}]")
    elif not _same(a, b, "exact"):
        yield Drift(path, _brief(a), _brief(b))


def _close(a: Any, b: Any, kind: Any, path: str) -> Iterator[Drift]:
    if kind == "rounding":
        return
    if not _same(a, b, kind if kind in ("residue", "memory") else "value"):
        yield Drift(path, _brief(a), _brief(b))


# The reproduction precision of each class (see the module), as the comparison engine's
# policies: JSON data, so keys exactly, lists, and numbers as numbers (an int and a float alike,
# a bool not one); a NaN or an infinity reproduces nothing, except as an exact value.
_EXACT = Policy(Exact(), numbers="typed", nonfinite="same_inf")
PRECISION: dict[str, Policy] = {
    "exact": _EXACT,
    "value": Policy(Near(rel=REL), numbers="values"),
    "residue": Policy(Near(abs=RESIDUE_ABS), numbers="values"),
    "memory": Policy(Near(rel=MEMORY_REL, integers_exactly=False), numbers="values"),
}


def _same(a: Any, b: Any, kind: str) -> bool:
    return same(a, b, PRECISION[kind])


def _get(doc: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(doc, dict):
            return None
        doc = doc.get(key)
    return doc


def _brief(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)[:80]
    except (TypeError, ValueError):
        return repr(value)[:80]
