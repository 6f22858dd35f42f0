"""What every rule is given: the submission, and what it is judged against."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runner.submission.problems import DataPath

if TYPE_CHECKING:
    from runner.load import ClaimPack, LoadedClaim
    from runner.models import Expectation
    from runner.submission.gitobjects import GitObjects

MetricIndex = dict[str, tuple["LoadedClaim", "Expectation"]]  # metric name -> claim, expectation


@dataclass(frozen=True)
class Submission:
    """A submission's data (a mapping), and what the first pass over it noted."""

    data: dict[str, Any]
    placeholders: dict[DataPath, list[str]] = field(default_factory=dict)
    nonfinite: dict[DataPath, float] = field(default_factory=dict)

    def filled(self, at: DataPath) -> bool:
        """Whether ``at`` holds no unfilled ``<...>`` (its problem is said once, there)."""
        return at not in self.placeholders


@dataclass
class Context:
    """The claim packs, and the learner's repository when there is one."""

    packs: dict[str, ClaimPack]
    metrics: dict[str, MetricIndex]  # per module
    challenge: str | None = None
    challenge_metrics: dict[str, MetricIndex] = field(default_factory=dict)
    repo: Path | None = None  # resolved
    repo_shown: str = ""  # as the person named it
    objects: GitObjects | None = None
    now: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    # the files are the course's own evidence (a grader said so): reference and fault runs
    # are what they should be, not a learner's submission
    course_evidence: bool = False
