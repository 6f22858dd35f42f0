"""The data of a claim pack: what its YAML files say.

Claim-pack models forbid unknown keys, so a misspelt field is an error at load time and
never a silently ignored expectation. ``schemas/claim-file.v1.json`` is generated from
:class:`PropositionFile` (see ``runner.schema_export``), so editors validate the same rules.
The models' own rules raise errors with a code (``tol.close_bound``) and no words: the
words are chosen where the problem is shown, in the reader's language.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictFloat, model_validator
from pydantic_core import PydanticCustomError

from runner.compare import leaves
from runner.safeyaml import number_as_text

ID_PATTERN = r"^[a-z0-9]+(?:[.-][a-z0-9]+)*$"
METRIC_PATTERN = r"^[a-z0-9_.\-]+$"
MAX_TEXT = 10_000  # characters of any sentence in a claim file
MAX_VERSION = 1_000_000
MAX_SEED = 2**63 - 1

Status = Literal["passed", "failed", "error", "skipped"]
Verdict = Literal["passed", "failed"]
Unit = Literal["count", "log10", "orders", "MiB", "bytes", "ratio", "probability", "number"]
# What a claim is about: a proposition of the chapter (a statement a run decides), or the
# contract of a function (the implementation being judged against the reference across its
# whole signature: on the reference itself a self-comparison, evidence of no statement).
ClaimKind = Literal["proposition", "contract"]
# Gradescope's visibilities: a hidden claim is shown to the learner only after grading.
Visibility = Literal["visible", "hidden", "after_due_date", "after_published"]


def _problem(code: str, **ctx: Any) -> PydanticCustomError:
    # The English template is pydantic's fallback only; problems are shown from the code.
    return PydanticCustomError(code, code, ctx)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Text(Strict):
    """A sentence in both of the course's languages."""

    zh: str = Field(min_length=1, max_length=MAX_TEXT, description="Chinese, shown first")
    en: str = Field(min_length=1, max_length=MAX_TEXT, description="English")


# -- tolerances ---------------------------------------------------------------------------
# strict: a number, never text that reads as one (YAML 1.1 reads `1e-12` as text, and inputs
# refuse it; a tolerance took it as a number)
Bound = StrictFloat | list[StrictFloat]


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
            raise _problem("tol.close_bound")
        for name in ("abs", "rel"):
            value = getattr(self, name)
            values = value if isinstance(value, list) else [] if value is None else [value]
            if any(not math.isfinite(v) or v < 0 for v in values):
                raise _problem("tol.finite_bound", name=name)
        return self


class Range(Strict):
    """min <= actual <= max, element by element; either bound may be left out."""

    kind: Literal["range"]
    min: StrictFloat | None = None
    max: StrictFloat | None = None

    @model_validator(mode="after")
    def _ordered(self) -> Range:
        if self.min is None and self.max is None:
            raise _problem("tol.range_bound")
        for v in (self.min, self.max):
            if v is not None and not math.isfinite(v):
                raise _problem("tol.range_finite")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise _problem("tol.range_order", min=self.min, max=self.max)
        return self


class Raises(Strict):
    """The call must raise this exception type (or a subclass)."""

    kind: Literal["raises"]
    error: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$", max_length=100)


Tolerance = Annotated[Exact | Close | Range | Raises, Field(discriminator="kind")]


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


class Expectation(Strict):
    """One measurement a check returns, with the value the chapter leads us to expect."""

    measure: str = Field(max_length=200, description="name of a measurement the check returns")
    metric: str | None = Field(
        default=None,
        pattern=METRIC_PATTERN,
        max_length=200,
        description="name in the evidence's metrics; defaults to '<claim id>.<measure>'",
    )
    value: Any = Field(default=None, description="the expected value (absent for range/raises)")
    tolerance: Tolerance
    unit: Unit | None = Field(default=None, description="how to show the number")
    source: str = Field(
        min_length=1,
        max_length=MAX_TEXT,
        description="where the expected value comes from: the chapter's stage or table, "
        "or how it is derived when the chapter does not give it",
    )

    @model_validator(mode="after")
    def _value_fits_tolerance(self) -> Expectation:
        tol = self.tolerance
        if isinstance(tol, Range | Raises):
            if self.value is not None:
                raise _problem("tol.no_value", kind=tol.kind)
            return self
        if self.value is None:
            raise _problem("tol.needs_value", kind=tol.kind)
        flat = leaves(self.value)
        for x in flat:
            fixed = number_as_text(x)
            if fixed is not None:  # 1e-9 in YAML 1.1 is a string
                raise _problem("claim.number_as_text", got=x, fixed=fixed)
        if any(_is_number(x) and not _finite_number(x) for x in flat):
            raise _problem("tol.finite_value")
        if isinstance(tol, Close):
            if not flat or not all(_is_number(x) for x in flat):
                other = next((x for x in flat if not _is_number(x)), self.value)
                raise _problem("tol.close_value", got=repr(other)[:60])
            for name in ("abs", "rel"):
                bound = getattr(tol, name)
                if isinstance(bound, list) and (
                    not isinstance(self.value, list)
                    or len(bound) != len(self.value)
                    or any(isinstance(v, list) for v in self.value)
                ):
                    raise _problem("tol.per_element", name=name)
        return self


def _finite_number(x: int | float) -> bool:
    """Finite, and small enough to meet a float (a 400-digit integer is not a figure)."""
    if isinstance(x, int):
        return x.bit_length() <= 1023
    return math.isfinite(x)


class Claim(Strict):
    """One executable claim: a check, its inputs, and what it must measure."""

    id: str = Field(pattern=ID_PATTERN, max_length=200)
    statement: Text
    check: str = Field(max_length=200, description="name of a registered check")
    inputs: dict[str, Any] = Field(default_factory=dict)
    expect: list[Expectation] = Field(min_length=1)
    notes: Text | None = Field(
        default=None, description="context, and where the chapter's text differs from the run"
    )
    points: StrictFloat = Field(
        default=1.0, ge=0, le=1000, description="what the claim is worth in a grade"
    )
    visibility: Visibility = Field(
        default="visible", description="when a learner sees this claim's result (Gradescope)"
    )
    kind: ClaimKind = Field(
        default="proposition",
        description="proposition: a statement of the chapter a run decides; contract: a "
        "function's whole contract against the reference (about the implementation judged, "
        "counted apart, never support for a statement of the chapter)",
    )


class PropositionFile(Strict):
    """A claim file: one proposition of a chapter, and its claims."""

    proposition: int = Field(ge=1, le=1000)
    stage: Text
    title: Text
    claims: list[Claim] = Field(min_length=1)


class ModuleMeta(Strict):
    """``module.yaml``: a chapter's claim pack."""

    id: str = Field(pattern=ID_PATTERN, max_length=100)
    title: Text
    # strict: 1.0 is no version (it was taken as 1, silently; 1.5 was refused)
    version: int = Field(
        ge=1, le=MAX_VERSION, strict=True, description="bumped whenever an expectation changes"
    )
    chapter: str = Field(
        min_length=1,
        max_length=200,
        pattern=r"^[A-Za-z0-9_.\-]+$",
        description="the chapter's text, a file beside module.yaml",
    )
    pack: str = Field(
        min_length=1,
        max_length=300,
        pattern=r"^[A-Za-z0-9_.\-/]+$",
        description="the pack holding the module's checks: a path beside the claims"
        " ('./pack', '../shared/pack.py'), the name of an installed pack (an entry point of"
        " the group learn_llm_claims.packs), or an importable module holding a Pack as 'pack'",
    )
    seed: int = Field(default=0, ge=0, le=MAX_SEED)
    required_metrics: tuple[Annotated[str, Field(min_length=1, max_length=200)], ...] = Field(
        default=(),
        max_length=1000,
        description="metrics every learner submission must report (the chapter template's);"
        " each one a metric of the pack's claims",
    )


class ObservedFact(Strict):
    """One fact the fault's run shows, judged like an expectation and stated as a sentence.

    ``fact`` is a template: ``{claim-id/measure}`` is replaced by that measurement of the
    injected run, optionally with a format (``{softmax.rows/sum_min:.2f}``) or a unit
    (``{model.parameters/total:count}``).
    """

    claim: str = Field(pattern=ID_PATTERN, max_length=200)
    measure: str = Field(max_length=200)
    value: Any = None
    tolerance: Tolerance
    fact: Text

    def as_expectation(self) -> Expectation:
        return Expectation(
            measure=self.measure, value=self.value, tolerance=self.tolerance, source="fault"
        )


class Fault(Strict):
    """A known mistake from the chapter's fault table, and the claims that must catch it."""

    id: str = Field(pattern=ID_PATTERN, max_length=200)
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
