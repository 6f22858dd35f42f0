"""The data of a run: verdicts, and why, as data.

Nothing here is a sentence. A failure's reason is a :class:`Detail` (a message code and its
parameters), rendered by whichever reporter shows it, in the language it is given.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from runner.i18n import Msg
from runner.models.claims import ClaimKind, Status, Text, Unit, Verdict, Visibility


class Detail(BaseModel):
    """A message as data: what happened and its particulars."""

    code: str
    params: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def of(cls, code: str, **params: Any) -> Detail:
        return cls(code=code, params=params)

    @classmethod
    def from_msg(cls, message: Msg) -> Detail:
        return cls(code=message.code, params=dict(message.params))

    def msg(self) -> Msg:
        return Msg(self.code, self.params)


# a measurement's reasons that only say again what its expected and actual values show (the
# actual value of a call that raised reads "raised TypeError: ..."): a reporter that shows
# the two values beside each other leaves these out; the data keeps them for scripts
RESTATES_VALUES = frozenset({"judge.raised", "judge.raises_other", "judge.raises_returned"})


# A run's results are built when a run first makes one, not when this module is imported:
# what only reads a Detail (validating submissions) does not pay for them.
_BUILT_WHEN_USED = ConfigDict(defer_build=True)


class MeasurementResult(BaseModel):
    model_config = _BUILT_WHEN_USED

    name: str
    metric: str
    expected: Any
    actual: Any
    tolerance: dict[str, Any]
    verdict: Verdict
    detail: Detail | None = None
    unit: Unit | None = None
    source: str
    # computed from the claim's inputs alone: context beside the evidence, not evidence
    context: bool = False


class MistakeMatch(BaseModel):
    """A known mistake whose outputs the learner's function reproduces on every input."""

    model_config = _BUILT_WHEN_USED

    id: str
    replaces: str | None = None  # the chapter function the mistake is made in
    explanation: Text
    where: Text


class Diagnosis(BaseModel):
    """Which known mistake a failing function behaves like (issue: tell the learner what)."""

    model_config = _BUILT_WHEN_USED

    function: str
    calls: int  # the inputs the claim gave it, on all of which the matches agree
    matches: list[MistakeMatch] = Field(default_factory=list)
    # when nothing matches: the first input where the function differs from the reference
    first_difference: dict[str, Any] | None = None
    complete: bool = True  # False: too many calls were made to keep them all


class ClaimResult(BaseModel):
    model_config = _BUILT_WHEN_USED

    id: str
    proposition: int
    stage: Text
    statement: Text
    check: str
    status: Status
    duration_ms: float
    measurements: list[MeasurementResult] = Field(default_factory=list)
    observations: dict[str, Any] = Field(default_factory=dict)
    reason: Detail | None = None  # why the claim is an error or skipped
    notes: Text | None = None
    points: float = 1.0
    visibility: Visibility = "visible"
    kind: ClaimKind = "proposition"
    output: str | None = None  # what a learner's code printed while this claim ran, trimmed
    output_dropped: int = 0
    diagnosis: list[Diagnosis] = Field(default_factory=list)

    @property
    def score(self) -> float:
        return self.points if self.status == "passed" else 0.0


def build_before_fork() -> None:
    """Build the results' models now, in a process about to fork the ones that run claims:
    built after the fork, each child pays for them (~10 ms of CPU) and so does this process
    when it reads their results back."""
    for model in (MeasurementResult, MistakeMatch, Diagnosis, ClaimResult):
        model.model_rebuild()
