"""The runner's exceptions: one shallow tree, each carrying its message as data.

The command line renders the message in the reader's language and exits with
``exit_code``; no exception of the runner reaches a person as a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from runner.i18n import Catalog, Msg


class ClaimsError(Exception):
    """Base of every error the runner reports to a person (never as a traceback)."""

    exit_code = 2

    def __init__(self, code: str, /, **params: Any) -> None:
        self.message = Msg(code, params)
        super().__init__(f"{code}: {params}")

    def render(self, words: Catalog) -> str:
        return words.say(self.message)


class UsageError(ClaimsError):
    """The command was asked for something it cannot do (a path that does not exist, ...)."""


class EvidenceError(ClaimsError):
    """Evidence that may not be written or read (schema violation, a version's meaning
    changed, an unreadable file); exits 2 naming the path."""


@dataclass(frozen=True)
class ClaimProblem:
    """One problem in a claim file: where it is and what was expected."""

    file: str
    line: int | None
    message: Msg
    claim: str | None = None
    field: str | None = None
    kind: str = "claim"  # or "fault"

    def render(self, words: Catalog) -> str:
        """One line, whatever the file held: control characters (an escape sequence in a
        claim id or a file name) are shown, not acted on by a terminal."""
        from runner.text import printable_line

        where = f"{self.file}:{self.line}" if self.line else self.file
        parts = [where]
        if self.claim:
            parts.append(f"{words('problem.' + self.kind)} {self.claim}")
        if self.field:
            parts.append(self.field)
        line = ": ".join(parts) + f": {words.say(self.message)}"
        return printable_line(line)

    def sort_key(self) -> tuple[str, int, str]:
        return (self.file, self.line or 0, self.message.code)


class InvalidClaims(ClaimsError):
    """Claim files that cannot be run; ``problems`` lists all of them, in file order."""

    def __init__(self, problems: list[ClaimProblem]) -> None:
        self.problems = sorted(problems, key=ClaimProblem.sort_key)
        super().__init__("claims.problems", n=len(self.problems))
