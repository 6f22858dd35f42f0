"""Sentences about numbers: ``{claim-id/measure:spec}`` templates filled from a run.

``spec`` is a unit the chapter uses (``count``, ``log10``, ``MiB``, ``ratio``, …) or a Python
format spec (``.2f``), applied element by element to lists.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, get_args

from runner.models import Unit
from runner.numbers import show

PLACEHOLDER = re.compile(r"\{([a-z0-9][a-z0-9.\-]*)/([A-Za-z0-9_.]+)(?::([^{}]+))?\}")
UNITS = set(get_args(Unit))


def template_refs(template: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in PLACEHOLDER.finditer(template)]


def bad_specs(template: str) -> list[str]:
    """The placeholders of ``template`` whose spec is neither a unit nor a number format
    (``{claim/measure:furlongs}``, which would show the bare value)."""
    out = []
    for m in PLACEHOLDER.finditer(template):
        spec = m.group(3)
        if spec is None or spec in UNITS:
            continue
        try:
            format(1.5, spec)
        except (ValueError, TypeError):
            out.append(m.group(0))
    return out


def render(template: str, values: Mapping[str, Any]) -> str:
    """``template`` with each ``{claim/measure:spec}`` filled from ``values``, keyed
    ``"claim/measure"``; a value the run did not measure shows as ``?``."""

    def fill(match: re.Match[str]) -> str:
        key = f"{match.group(1)}/{match.group(2)}"
        if key not in values:
            return "?"
        return _format(values[key], match.group(3))

    return PLACEHOLDER.sub(fill, template)


def _format(value: Any, spec: str | None) -> str:
    if spec is None:
        return show(value)
    if spec in UNITS:
        return show(value, spec)  # type: ignore[arg-type]
    if isinstance(value, list):
        return "[" + ", ".join(_format(v, spec) for v in value) + "]"
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return format(value, spec)
        except ValueError:
            return show(value)
    return show(value)
