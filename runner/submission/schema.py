"""The evidence schema (``learn-llm.evidence.v1``, JSON Schema 2020-12), checked by
jsonschema-rs: every error with its path, in words of either language.

Each kind of error jsonschema-rs reports maps to a catalogue entry of its own; a kind
without one keeps the library's English words inside a bilingual frame.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from typing import Any

import jsonschema_rs

from runner import schemas
from runner.i18n import Msg, msg
from runner.numbers import show
from runner.submission.context import Context, Submission
from runner.submission.problems import Finding
from runner.text import printable_line

EVIDENCE_SCHEMA = "learn-llm.evidence.v1"


def evidence_schema() -> dict[str, Any]:
    """The schema generated from runner.models.evidence, shipped as package data."""
    return schemas.load(schemas.EVIDENCE)


@functools.cache
def _validator() -> jsonschema_rs.Validator:
    return jsonschema_rs.Draft202012Validator(evidence_schema())


def schema(doc: Submission, ctx: Context) -> Iterator[Finding]:
    for error in _validator().iter_errors(doc.data):
        at = tuple(error.instance_path)
        # an unfilled placeholder or a NaN is said better where it is (jsonschema-rs sees a
        # NaN as null)
        if doc.filled(at) and at not in doc.nonfinite:
            yield at, describe(error)


def describe(error: jsonschema_rs.ValidationError) -> Msg:
    """One schema error as a message: the failing value and the rule it broke."""
    kind = error.kind
    value = shown(error.instance)
    if isinstance(kind, Kind.Required):
        return msg("sub.schema.required", property=_brief(str(kind.property), 60))
    if isinstance(kind, Kind.AdditionalProperties):
        names = ", ".join(repr(_brief(str(n), 60)) for n in kind.unexpected[:10])
        return msg("sub.schema.additional", names=names, n=len(kind.unexpected))
    if isinstance(kind, Kind.Type):
        return msg("sub.schema.type", value=value, types=_types(kind.types))
    if isinstance(kind, Kind.OneOfNotValid | Kind.AnyOf):
        types = _branch_types(kind.context)
        if types:  # every branch wanted another type: say which, not "no branch matched"
            return msg("sub.schema.type", value=value, types=_types(types))
        return msg("sub.schema.no_branch", value=value)
    if isinstance(kind, Kind.Constant):
        return msg("sub.schema.const", expected=shown(kind.expected_value))
    if isinstance(kind, Kind.Enum):
        return msg("sub.schema.enum", value=value, options=", ".join(map(shown, kind.options)))
    if isinstance(kind, Kind.Pattern):
        return msg("sub.schema.pattern", value=value, pattern=kind.pattern)
    for limited, code in _LIMITS:
        if isinstance(kind, limited):
            limit = kind.limit
            if limit == 1 and isinstance(kind, Kind.MinItems | Kind.MinLength | Kind.MinProperties):
                return msg("sub.schema.empty", value=value)
            return msg(code, value=value, limit=limit)
    message = printable_line(_brief(error.message, 200))
    return msg("sub.schema.other", keyword=kind.name, message=message)


Kind = jsonschema_rs.ValidationErrorKind
_LIMITS: tuple[tuple[Any, str], ...] = (
    (Kind.Minimum, "sub.schema.minimum"),
    (Kind.Maximum, "sub.schema.maximum"),
    (Kind.ExclusiveMinimum, "sub.schema.exclusive_minimum"),
    (Kind.ExclusiveMaximum, "sub.schema.exclusive_maximum"),
    (Kind.MinItems, "sub.schema.min_items"),
    (Kind.MaxItems, "sub.schema.max_items"),
    (Kind.MinLength, "sub.schema.min_length"),
    (Kind.MaxLength, "sub.schema.max_length"),
    (Kind.MinProperties, "sub.schema.min_properties"),
    (Kind.MaxProperties, "sub.schema.max_properties"),
)


def _branch_types(context: list[list[jsonschema_rs.ValidationError]]) -> list[str]:
    """The types the branches of a oneOf/anyOf wanted, when each failed on its type alone."""
    types: list[str] = []
    for branch in context:
        kind = branch[0].kind if len(branch) == 1 else None
        if not isinstance(kind, Kind.Type) or branch[0].instance_path:
            return []
        types += [t for t in kind.types if t not in types]
    return types


def _types(types: list[str]) -> str:
    return ", ".join(repr(t) for t in types)


def shown(value: Any) -> str:
    """A value as a schema message shows it: strings quoted, JSON's true/false/null, numbers
    as the chapter shows them, anything long cut short."""
    if isinstance(value, str):
        return repr(_brief(value, 60))
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int | float):
        return show(value)
    if isinstance(value, list):
        return (
            "[]"
            if not value
            else f"[{len(value)} items]"
            if len(value) > 3
            else _brief("[" + ", ".join(shown(v) for v in value) + "]", 60)
        )
    if isinstance(value, dict):
        return "{}" if not value else "{…}"
    return _brief(repr(value), 60)


def _text(value: Any) -> str:
    return _brief(str(value), 60)


def _brief(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"
