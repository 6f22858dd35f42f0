"""The runner's exceptions: one shallow tree, each carrying a message fit for one line."""

from __future__ import annotations

from dataclasses import dataclass

from runner.i18n import t


class ClaimsError(Exception):
    """Base of every error the runner reports to a person (never as a traceback)."""

    exit_code = 2


class UsageError(ClaimsError):
    """The command was asked for something it cannot do (a path that does not exist, ...)."""


@dataclass(frozen=True)
class ClaimProblem:
    """One problem in a claim file: where it is and what was expected."""

    file: str
    line: int | None
    message: str
    claim: str | None = None
    field: str | None = None
    kind: str = "claim"  # or "fault"

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        parts = [where]
        if self.claim:
            parts.append(f"{t('problem.' + self.kind)} {self.claim}")
        if self.field:
            parts.append(self.field)
        return ": ".join(parts) + f": {self.message}"


class InvalidClaims(ClaimsError):
    """Claim files that cannot be run; ``problems`` lists all of them, in file order."""

    def __init__(self, problems: list[ClaimProblem]) -> None:
        self.problems = sorted(problems, key=lambda p: (p.file, p.line or 0, p.message))
        super().__init__("\n".join(str(p) for p in self.problems))


class EvidenceError(ClaimsError):
    """Evidence that may not be written (schema violation, a version's meaning changed)."""
