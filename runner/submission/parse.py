"""A submission's bytes as plain data, or the problems that stop it being read.

JSON (``*.json``) with duplicate keys reported; YAML otherwise, through ``safeyaml`` with
the submission policy (no anchors or aliases, keys are strings). Then one pass over the data
checks what the rules must be able to rely on: nesting at most ``MAX_DEPTH``, integers of at
most ``MAX_DIGITS`` digits, text that is Unicode (JSON can escape a lone surrogate); and it
notes where placeholders and non-finite numbers are, for the rules to use.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from runner import safeyaml
from runner.i18n import Msg, json_reason, msg
from runner.submission.files import MAX_SUBMISSION_BYTES
from runner.submission.problems import DataPath, Finding

# tuples built once, not unions built at every isinstance() (see runner.kinds)
_DICT_OR_LIST = (dict, list)

MAX_DEPTH = 64  # the runner's own evidence nests 7 levels deep
MAX_DIGITS = safeyaml.MAX_DIGITS
# the fewest bits of an integer that may have more than MAX_DIGITS digits (10**1000 has
# 3,322 bits, and so has 9.9e999): one that long has its digits counted
_MAX_BITS = math.floor(MAX_DIGITS * math.log2(10)) + 1
PLACEHOLDER = re.compile(r"<[^<>\n]{1,200}>")
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")  # how JSON writes a surrogate


@dataclass
class Parsed:
    """The data (None when it could not be read) and what stopped it, if anything."""

    data: Any = None
    problems: list[Finding] = field(default_factory=list)
    placeholders: dict[DataPath, list[str]] = field(default_factory=dict)
    nonfinite: dict[DataPath, float] = field(default_factory=dict)

    @property
    def readable(self) -> bool:
        return not self.problems


def parse_submission(raw: bytes, *, json_syntax: bool) -> Parsed:
    parsed = _parse_json(raw) if json_syntax else _parse_yaml(raw)
    if parsed.readable:
        _inspect(parsed, surrogates=json_syntax and bool(_SURROGATE_ESCAPE.search(raw)))
    return parsed


# -- the two syntaxes -----------------------------------------------------------------------------
class _Duplicates(dict[str, Any]):
    """A JSON object that repeated a key (the last value kept, as json does)."""

    duplicates: list[str]


def _parse_json(raw: bytes) -> Parsed:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return Parsed(problems=[((), msg("sub.not_utf8", byte=exc.start))])
    # Notepad's byte order mark: YAML allows one, and JSON files are read as YAML's are
    text = text.removeprefix("\ufeff")
    found: list[_Duplicates] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(items)
        if len(out) == len(items):
            return out
        dup = _Duplicates(out)
        seen: set[str] = set()
        dup.duplicates = [k for k, _ in items if k in seen or seen.add(k)]  # type: ignore[func-returns-value]
        found.append(dup)
        return dup

    try:
        try:
            data = json.loads(text, object_pairs_hook=pairs)
        except json.JSONDecodeError:
            raise
        except ValueError:  # an integer beyond Python's 4,300 digits: find it, do not convert
            data = json.loads(text, object_pairs_hook=pairs, parse_int=_bounded_int)
    except json.JSONDecodeError as exc:
        return Parsed(
            problems=[((), msg("sub.json_syntax", line=exc.lineno, message=json_reason(exc)))]
        )
    except RecursionError:
        return Parsed(problems=[((), msg("sub.too_deep", limit=MAX_DEPTH))])
    parsed = Parsed(data)
    if found:
        parsed.problems = [
            (at, msg("sub.duplicate_key", key=key))
            for at, value in walk(data)
            if isinstance(value, _Duplicates)
            for key in value.duplicates
        ]
    return parsed


class _LongInteger(int):
    """Stands in for an integer with too many digits; ``digits`` says how many."""

    digits: int


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) <= MAX_DIGITS:
        return int(text)
    out = _LongInteger(0)
    out.digits = len(text.lstrip("-"))
    return out


def _parse_yaml(raw: bytes) -> Parsed:
    try:
        doc = safeyaml.parse(
            raw,
            max_bytes=MAX_SUBMISSION_BYTES,
            aliases=False,  # a submission never needs them; refused, not expanded
            lines=False,
            string_keys=True,  # JSON's data model: the schema and the paths rely on it
            core_schema=True,  # numbers as JSON reads them: 1e3 is 1000.0, 017 is 17
        )
    except safeyaml.YamlError as exc:
        return Parsed(problems=[(p.path, _with_line(p)) for p in exc.problems])
    return Parsed(doc.data)


def _with_line(problem: safeyaml.Problem) -> Msg:
    if problem.line is None:
        return problem.message
    return msg("sub.yaml_line", line=problem.line, message=problem.message)


# -- one pass over the data -----------------------------------------------------------------------
def _inspect(parsed: Parsed, *, surrogates: bool) -> None:
    """A quick pass with no paths; only a document it finds something in is walked again,
    paths and all (a properly filled one never is)."""
    data = parsed.data
    suspect = surrogates or _suspect(data)
    containers: list[tuple[Any, int]] = [(data, 1)] if isinstance(data, _DICT_OR_LIST) else []
    while containers:  # only containers are stacked; a scalar is judged where it is met
        item, depth = containers.pop()
        if depth > MAX_DEPTH:
            parsed.problems = [((), msg("sub.too_deep", limit=MAX_DEPTH))]
            parsed.data = None
            return
        for child in item.values() if isinstance(item, dict) else item:
            kind = type(child)  # the common kinds inline: this runs for every value
            if kind is str:
                suspect = suspect or "<" in child
            elif kind is dict or kind is list or isinstance(child, dict):
                containers.append((child, depth + 1))
            elif not suspect:
                suspect = _suspect(child)
    if not suspect:
        return
    for at, value in walk(parsed.data):
        if surrogates and at and isinstance(at[-1], str) and not _unicode(at[-1]):
            parsed.problems.append((at, msg("sub.surrogate", text=at[-1][:60])))
        if isinstance(value, str):
            if surrogates and not _unicode(value):
                parsed.problems.append((at, msg("sub.surrogate", text=value[:60])))
            elif "<" in value:
                parsed.placeholders[at] = PLACEHOLDER.findall(value)
        elif isinstance(value, float) and not math.isfinite(value):
            parsed.nonfinite[at] = value
        elif isinstance(value, _LongInteger):
            parsed.problems.append(
                (at, msg("sub.digits", n=value.digits, limit=MAX_DIGITS, unit="count"))
            )
        elif type(value) is int and _too_long(value):
            digits = len(str(abs(value)))  # fewer than Python's 4,300: json converted it
            parsed.problems.append(
                (at, msg("sub.digits", n=digits, limit=MAX_DIGITS, unit="count"))
            )
    if parsed.problems:
        parsed.data = None  # the rules may not meet what they could neither show nor compare


def _suspect(value: Any) -> bool:
    """A scalar worth a second look: a "<", a non-finite float, too many digits."""
    kind = type(value)
    if kind is str:
        return "<" in value
    if kind is float:
        return not math.isfinite(value)
    if kind is int:
        return _too_long(value)
    return kind is _LongInteger


def _too_long(value: int) -> bool:
    return value.bit_length() >= _MAX_BITS and len(str(abs(value))) > MAX_DIGITS


def _unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def walk(value: Any, path: DataPath = ()) -> Iterator[tuple[DataPath, Any]]:
    """Every (path, value) in document order; a stack, not nested generators (which cost a
    frame per level per value)."""
    stack: list[tuple[DataPath, Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        yield where, item
        if isinstance(item, dict):
            stack.extend(((*where, k), v) for k, v in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend(((*where, i), v) for i, v in reversed(list(enumerate(item))))
