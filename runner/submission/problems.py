"""A submission's problems (:class:`~runner.problems.Problem`): where (a JSON path) and what.

Rules say where a problem is as a path into the data (``("metrics", 1, "actual")``); the
JSON path a person reads (``$.metrics[1].actual``) is made here, once, and problems are put
in the order of the file by walking those paths through the data, never by taking a
written path apart again (a key may hold any character: ``"a]"``, ``"[x"``, a quote).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from runner.i18n import LANGS, Catalog, Msg, catalog, msg
from runner.problems import Problem, message_data
from runner.text import printable_line

DataPath = tuple[str | int, ...]
Finding = tuple[DataPath, Msg]  # what a rule yields: where, and what
MAX_PROBLEMS = 100  # per file: a grader reads the first ones; the rest would bury them
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass
class Report:
    """One file's verdict: every problem found in it, in the order of the file."""

    file: str
    problems: list[Problem] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    def headline(self, words: Catalog) -> str:
        if self.valid:
            return words("validate.valid", file=self.file)
        return words("validate.invalid", file=self.file, n=len(self.problems))

    def as_json(self, words: Catalog) -> dict[str, Any]:
        return {
            "file": self.file,
            "valid": self.valid,
            "problems": [p.as_json(words) for p in self.problems],
        }


def sayable(message: Msg) -> bool:
    """Whether both catalogues can say ``message``: a code made in another room (the judge's)
    may not be in them yet, and a problem is better said without it than half in code."""
    if any(message.code not in catalog(lang).entries for lang in LANGS):
        return False
    return all(sayable(v) for v in message.params.values() if isinstance(v, Msg))


def json_path(path: DataPath) -> str:
    """``$.metrics[1].actual``; a key that is not an identifier in JSON's quotes."""
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _IDENTIFIER.fullmatch(part):
            out += f".{part}"
        else:  # JSON escapes quotes and control characters; printable_line() what JSON leaves raw
            out += "[" + printable_line(json.dumps(part, ensure_ascii=False)) + "]"
    return out


def in_file_order(findings: Iterable[Finding], data: Any) -> list[Problem]:
    """Problems without repeats, in the order of the file: by the position of the closest
    part of their path that exists (the document's own problems first), then by path; rules'
    order breaks the remaining ties. At most ``MAX_PROBLEMS``, then one line saying so."""
    seen: set[tuple[DataPath, str]] = set()
    unique: list[Finding] = []
    for at, message in findings:
        key = (at, repr(message_data(message)))
        if key not in seen:
            seen.add(key)
            unique.append((at, message))
    order: dict[int, dict[Any, int]] = {}  # a mapping's id -> its keys' positions

    def position(at: DataPath) -> tuple[tuple[int, ...], str]:
        out: list[int] = []
        node = data
        for part in at:
            if isinstance(node, dict) and part in node:
                keys = order.get(id(node))
                if keys is None:
                    keys = order[id(node)] = {k: i for i, k in enumerate(node)}
                out.append(keys[part])
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                out.append(part)
            else:
                break
            node = node[part]
        return tuple(out), json_path(at)

    # without data (it could not be read) the parser's order, which is the lines', stands
    ordered = unique if data is None else sorted(unique, key=lambda f: position(f[0]))
    problems = [Problem.at(json_path(at), message) for at, message in ordered[:MAX_PROBLEMS]]
    if len(ordered) > MAX_PROBLEMS:
        problems.append(Problem.at("$", msg("sub.more_problems", limit=MAX_PROBLEMS)))
    return problems
