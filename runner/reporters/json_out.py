"""JSON for scripts: the same results as data, each message also rendered in the language
asked for (``message``), beside its code and parameters (``detail``/``reason``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from runner.api import Run
from runner.i18n import Catalog
from runner.record import Drift, to_json_data
from runner.reporters.text import load_failure_line


def emit(payload: Any, out: TextIO | None = None) -> None:
    """One JSON document: indented for a person at a terminal, compact for a script (json's
    C encoder does not indent, so compact is also several times faster)."""
    stream = out or sys.stdout
    indent = 2 if stream.isatty() else None
    print(json.dumps(payload, ensure_ascii=False, indent=indent, allow_nan=False), file=stream)


def claims_data(run: Run, words: Catalog) -> list[dict[str, Any]]:
    out = []
    for pack_run in run.packs:
        claims = []
        for result in pack_run.results:
            data: dict[str, Any] = to_json_data(result)
            if result.reason is not None:
                data["message"] = words.say(result.reason.msg())
            for m, model in zip(data["measurements"], result.measurements, strict=True):
                if model.detail is not None:
                    m["message"] = words.say(model.detail.msg())
            claims.append(data)
        out.append({"module": pack_run.pack.meta.id, "claims": claims})
    return out


def run_payload(
    run: Run,
    words: Catalog,
    evidence: list[dict[str, Any]],
    written: list[str],
    drifted: list[tuple[str, Drift]],
    code: int,
    notes: list[str] | None = None,
    unchanged: list[str] | None = None,
) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "implementation": run.implementation,
        "results": claims_data(run, words),
        "evidence": evidence,
        "written": written,
        "unchanged": unchanged or [],  # evidence that already recorded what the run asserts
        "drift": [
            {"file": f, "path": d.path, "committed": d.committed, "now": d.fresh}
            for f, d in drifted
        ],
        "notes": notes or [],
        "exit_code": code,
    }
    return payload | learner_extras(run, words)


def learner_extras(run: Run, words: Catalog) -> dict[str, Any]:
    """What a learner's run adds when there is any: why its file could not be used, what it
    printed while it was imported, and what its worker's sandbox could not guarantee."""
    extras: dict[str, Any] = {}
    if run.load_failure is not None:
        extras["load_failure"] = load_failure_data(run, words)
    if run.load_output:
        extras["load_output"] = run.load_output
    if run.sandbox is not None:
        extras["sandbox"] = run.sandbox
    return extras


def load_failure_data(run: Run, words: Catalog) -> dict[str, Any]:
    """Why a learner's file could not be used: code, parameters, and the message."""
    failure = run.load_failure
    assert failure is not None
    return {
        "code": failure.code,
        "params": to_json_data(failure.params),
        "message": load_failure_line(run, words),
    }


def class_entry(name: str, run: Run, words: Catalog) -> dict[str, Any]:
    """One learner of a class: its counts, points and results."""
    got, most = run.points()
    entry: dict[str, Any] = {
        "file": name,
        "implementation": run.implementation,
        "counts": run.counts(),
        "points": got,
        "max_points": most,
        "exit_code": run.exit_code(),
        "results": claims_data(run, words),
    }
    return entry | learner_extras(run, words)


def class_document(
    entries: Iterable[dict[str, Any]], rest: dict[str, Any], indent: int | None
) -> Iterator[str]:
    """``{"learners": [...entries], **rest}`` in parts, each learner's entry as it comes, the
    same text ``json.dumps`` writes for the whole (a class need not be in memory at once)."""

    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, indent=indent, allow_nan=False)

    tail = dumps(rest)[1:]  # the rest's members and the closing brace, after its "{"
    if indent is None:
        yield '{"learners": ['
        for i, entry in enumerate(entries):
            yield (", " if i else "") + dumps(entry)
        yield "], " + tail
        return
    pad = " " * indent
    yield "{\n" + pad + '"learners": ['
    empty = True
    for entry in entries:
        lines = dumps(entry).split("\n")
        yield ("\n" if empty else ",\n") + "\n".join(pad * 2 + line for line in lines)
        empty = False
    yield ("]" if empty else "\n" + pad + "]") + "," + tail
