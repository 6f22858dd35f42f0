"""A problem: where it is, and what (a message as data).

Claim files and learner submissions both report every problem they hold, at once. A claim
file's problem is at a place in a file (``claims/x/1.yaml:7: claim softmax.sum: inputs:
…``), a submission's at a JSON path into its data (``$.metrics[1].actual: …``). One type
holds either place; the message is said in the reader's language only when the problem is
rendered, on one printable line, whatever the file or the submission put into it.

This module imports nothing of the judge at import time (the exceptions that carry problems
are imported by every part of the engine, the learner's worker included).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from runner.i18n import Catalog, Msg


@dataclass(frozen=True)
class Problem:
    """One problem: where (``file`` and ``line``, with the ``claim`` or fault and its
    ``field``; or ``path``, a JSON path into data) and what (``message``)."""

    message: Msg
    file: str | None = None
    line: int | None = None
    claim: str | None = None
    field: str | None = None
    kind: str = "claim"  # or "fault": what ``claim`` names
    path: str | None = None

    @classmethod
    def in_file(
        cls,
        file: str,
        line: int | None,
        message: Msg,
        claim: str | None = None,
        field: str | None = None,
        kind: str = "claim",
    ) -> Problem:
        """A problem in a claim file (or a module's folder), at ``line`` when known."""
        return cls(message, file=file, line=line, claim=claim, field=field, kind=kind)

    @classmethod
    def at(cls, path: str, message: Msg) -> Problem:
        """A problem at a JSON path into data (``$.metrics[1].actual``)."""
        return cls(message, path=path)

    def where(self, words: Catalog) -> list[str]:
        """The place, outermost first: ``["f.yaml:7", "claim x", "inputs"]`` or ``["$.a"]``."""
        if self.path is not None:
            return [self.path]
        parts = [f"{self.file}:{self.line}" if self.line else str(self.file)]
        if self.claim:
            parts.append(f"{words('problem.' + self.kind)} {self.claim}")
        if self.field:
            parts.append(self.field)
        return parts

    def render(self, words: Catalog) -> str:
        """``where: what`` on one printable line, whatever the file or the data held: control
        characters (an escape sequence in a claim id, a file name or a submitted key) are
        shown, not acted on by a terminal."""
        line = ": ".join([*self.where(words), say(words, self.message)])
        from runner.text import printable_line

        return printable_line(line)

    def as_json(self, words: Catalog) -> dict[str, Any]:
        """The place, the message in ``words``, and the message as data."""
        from runner.text import printable_line

        if self.path is not None:
            place: dict[str, Any] = {"path": self.path}
        else:
            place = {"file": self.file, "line": self.line, "claim": self.claim, "field": self.field}
        return {
            **place,
            "message": printable_line(say(words, self.message)),
            **message_data(self.message),
        }

    def sort_key(self) -> tuple[str, int, str]:
        return (self.file or self.path or "", self.line or 0, self.message.code)


def say(words: Catalog, message: Msg) -> str:
    """The message in ``words``; a code no catalogue knows still gives a line, not a crash
    (the judge's details come from the core, whose catalogue may lag behind it)."""
    try:
        return words.say(message)
    except (KeyError, IndexError, ValueError):
        return f"{message.code} {json.dumps(message_data(message)['params'], ensure_ascii=False)}"


def message_data(message: Msg) -> dict[str, Any]:
    """A message as plain JSON data (no NaN; strings valid UTF-8 for whoever reads it)."""
    from runner.numbers import show
    from runner.text import printable_line

    def plain(value: Any) -> Any:
        if isinstance(value, Msg):
            return {"code": value.code, "params": {k: plain(v) for k, v in value.params.items()}}
        if isinstance(value, float) and not math.isfinite(value):
            return show(value)  # JSON has no NaN: a script reading this must not choke
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        if isinstance(value, str):
            return printable_line(value)  # valid UTF-8 for whoever reads the JSON
        return value

    return {"code": message.code, "params": {k: plain(v) for k, v in message.params.items()}}
