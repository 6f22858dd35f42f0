"""Values no rule may meet as they are: unfilled ``<...>`` placeholders and numbers that are
not finite (NaN and the infinities never pass anything)."""

from __future__ import annotations

from collections.abc import Iterator

from runner.i18n import msg
from runner.submission.context import Context, Submission
from runner.submission.problems import Finding
from runner.text import printable_line


def placeholders(doc: Submission, ctx: Context) -> Iterator[Finding]:
    for at, found in doc.placeholders.items():
        for placeholder in found:
            yield at, msg("sub.placeholder", placeholder=printable_line(placeholder))


def nonfinite(doc: Submission, ctx: Context) -> Iterator[Finding]:
    for at, value in doc.nonfinite.items():
        yield at, msg("sub.nonfinite", value=value)
