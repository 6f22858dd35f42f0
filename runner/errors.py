"""The runner's exceptions: one shallow tree, each carrying its message as data.

The command line renders the message in the reader's language and exits with
``exit_code``; no exception of the runner reaches a person as a traceback.
"""

from __future__ import annotations

from typing import Any

from runner.i18n import Catalog, Msg
from runner.problems import Problem


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


class InvalidClaims(ClaimsError):
    """Claim files that cannot be run; ``problems`` lists all of them, in file order."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems, key=Problem.sort_key)
        super().__init__("claims.problems", n=len(self.problems))
