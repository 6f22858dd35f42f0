"""The data of a claim pack (what YAML files say) and of a run (what happened).

Claim-pack models forbid unknown keys, so a misspelt field is an error at load time and
never a silently ignored expectation. ``schemas/claim-file.v1.json`` is generated from
:class:`PropositionFile` (see ``runner.schema_export``), so editors validate the same rules.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from runner.i18n import t

ID_PATTERN = r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$"
METRIC_PATTERN = r"^[a-z0-9_.\-]+$"

Status = Literal["passed", "failed", "error", "skipped"]
Verdict = Literal["passed", "failed"]
Unit = Literal["count", "log10", "orders", "MiB", "bytes", "ratio", "probability", "number"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Text(Strict):
    """A sentence in both of the course's languages."""

    zh: str = Field(min_length=1, description="Chinese, shown first")
    en: str = Field(min_length=1, description="English")


# -- tolerances ---------------------------------------------------------------------------
Bound = float | list[float]


class Exact(Strict):
    """Equal element by element (numbers, booleans, strings, or nested lists of them)."""

    kind: Literal["exact"]


class Close(Strict):
    """|actual - expected| <= max(abs, rel * |expected|), element by element.

    ``abs`` and ``rel`` may be a list with one entry per element of a 1-D expected value,
    for rows whose figures the chapter prints to different precision.
    """

    kind: Literal["close"]
    abs: Bound | None = Field(default=None, description="absolute tolerance (>= 0)")
    rel: Bound | None = Field(default=None, description="relative tolerance (>= 0)")

    @model_validator(mode="after")
    def _one_bound(self) -> Close:
        if self.abs is None and self.rel is None:
            raise ValueError(t("tol.close_bound"))
        for name in ("abs", "rel"):
            value = getattr(self, name)
            values = value if isinstance(value, list) else [] if value is None else [value]
            if any(not math.isfinite(v) or v < 0 for v in values):
                raise ValueError(t("tol.finite_bound", name=name))
        return self


class Range(Strict):
    """min <= actual <= max, element by element; either bound may be left out."""

    kind: Literal["range"]
    min: float | None = None
    max: float | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.min is None and self.max is None:
            raise ValueError(t("tol.range_bound"))
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(t("tol.range_order", min=self.min, max=self.max))
        for v in (self.min, self.max):
            if v is not None and not math.isfinite(v):
                raise ValueError(t("tol.range_finite"))
        return self


class Raises(Strict):
    """The call must raise this exception type (or a subclass)."""

    kind: Literal["raises"]
    error: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")


Tolerance = Annotated[Exact | Close | Range | Raises, Field(discriminator="kind")]


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _flatten(v: Any) -> list[Any]:
    return [x for item in v for x in _flatten(item)] if isinstance(v, list) else [v]


class Expectation(Strict):
    """One measurement a check returns, with the value the chapter leads us to expect."""

    measure: str = Field(description="name of a measurement the check returns")
    metric: str | None = Field(
        default=None,
        pattern=METRIC_PATTERN,
        description="name in the evidence's metrics; defaults to '<claim id>.<measure>'",
    )
    value: Any = Field(default=None, description="the expected value (absent for range/raises)")
    tolerance: Tolerance
    unit: Unit | None = Field(default=None, description="how to show the number")
    source: str = Field(
        min_length=1,
        description="where the expected value comes from: the chapter's stage or table, "
        "or how it is derived when the chapter does not give it",
    )

    @model_validator(mode="after")
    def _value_fits_tolerance(self) -> Expectation:
        tol = self.tolerance
        if isinstance(tol, Range | Raises):
            if self.value is not None:
                raise ValueError(t("tol.no_value", kind=tol.kind))
            return self
        if self.value is None:
            raise ValueError(t("tol.needs_value", kind=tol.kind))
        if isinstance(tol, Close):
            flat = _flatten(self.value)
            if not flat or not all(_is_number(x) and math.isfinite(x) for x in flat):
                raise ValueError(t("tol.close_value"))
            for name in ("abs", "rel"):
                bound = getattr(tol, name)
                if isinstance(bound, list) and (
                    not isinstance(self.value, list)
                    or len(bound) != len(self.value)
                    or any(isinstance(v, list) for v in self.value)
                ):
                    raise ValueError(t("tol.per_element", name=name))
        return self


class Claim(Strict):
    """One executable claim: a check, its inputs, and what it must measure."""

    id: str = Field(pattern=ID_PATTERN)
    statement: Text
    check: str = Field(description="name of a registered check")
    inputs: dict[str, Any] = Field(default_factory=dict)
    expect: list[Expectation] = Field(min_length=1)
    notes: Text | None = Field(
        default=None, description="context, and where the chapter's text differs from the run"
    )


class PropositionFile(Strict):
    """A claim file: one proposition of a chapter, and its claims."""

    proposition: int = Field(ge=1)
    stage: Text
    title: Text
    claims: list[Claim] = Field(min_length=1)


class ModuleMeta(Strict):
    """``module.yaml``: a chapter's claim pack."""

    id: str = Field(pattern=ID_PATTERN)
    title: Text
    version: int = Field(ge=1, description="bumped whenever an expectation changes")
    chapter: str = Field(min_length=1)
    seed: int = 0


class ObservedFact(Strict):
    """One fact the fault's run shows, judged like an expectation and stated as a sentence.

    ``fact`` is a template: ``{claim-id/measure}`` is replaced by that measurement of the
    injected run, optionally with a format (``{mask.prefix-softmax/row_sum_min:.2f}``) or a
    unit (``{operators.parameter-table/total:count}``).
    """

    claim: str = Field(pattern=ID_PATTERN)
    measure: str
    value: Any = None
    tolerance: Tolerance
    fact: Text

    def as_expectation(self) -> Expectation:
        return Expectation(
            measure=self.measure, value=self.value, tolerance=self.tolerance, source="fault"
        )


class Fault(Strict):
    """A known mistake from the chapter's fault table, and the claims that must catch it."""

    id: str = Field(pattern=ID_PATTERN)
    title: Text
    replaces: str = Field(description="the subject function the broken twin stands in for")
    expected_signal: Text = Field(description="the chapter's 预期失败信号, quoted")
    chapter_fix: Text | None = Field(default=None, description="the chapter's 修复后证据")
    catchers: list[str] = Field(min_length=1, description="claims that must fail under it")
    observed: list[ObservedFact] = Field(min_length=1)
    differs_from_chapter: Text | None = Field(
        default=None, description="how the observed signal differs from the chapter's text"
    )


class FaultsFile(Strict):
    """``faults.yaml``: a module's fault table."""

    faults: list[Fault] = Field(min_length=1)


# -- results ------------------------------------------------------------------------------
class MeasurementResult(BaseModel):
    name: str
    metric: str
    expected: Any
    actual: Any
    tolerance: dict[str, Any]
    verdict: Verdict
    detail: str | None = None
    unit: Unit | None = None
    source: str


class ClaimResult(BaseModel):
    id: str
    proposition: int
    stage: Text
    statement: Text
    check: str
    status: Status
    duration_ms: float
    measurements: list[MeasurementResult] = Field(default_factory=list)
    observations: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    notes: Text | None = None
