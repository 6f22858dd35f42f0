"""The evidence a run records: ``learn-llm.evidence.v1``, as a versioned model.

The first block of fields is the chapter's learner template (what a learner hands in); the
rest is what the runner adds to its own evidence (all of it present once ``claims`` is).
``schemas/learn-llm.evidence.v1.json`` is generated from :class:`Evidence`
(``python -m runner.schema_export``), and a test keeps the committed file equal to it.

A change in the meaning of a field is a new version: of the template's fields, a new
``schema``; of the runner's, a new ``producer.format``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from runner.models.claims import ID_PATTERN, ClaimKind, Status, Text, Unit, Verdict, Visibility
from runner.models.evidence_format import EVIDENCE_SCHEMA

SHA256 = r"^[0-9a-f]{64}$"
NonEmpty = Annotated[str, Field(min_length=1)]
ISO_TIME = (
    r"^[0-9]{4}-[0-9]{2}-[0-9]{2}"
    r"([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$"
)


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Metric(_Record):
    """One measured value under the name the claim pack gives it."""

    name: str = Field(min_length=1, max_length=300)
    expected: JsonValue = Field(description="The claim pack's versioned expectation.")
    actual: JsonValue = Field(description="What the run measured.")
    claim: str | None = Field(default=None, description="Runner: the claim it belongs to.")
    tolerance: dict[str, JsonValue] | None = None
    verdict: Verdict | None = None
    unit: str | None = Field(default=None, description="How to show the number.")
    context: bool | None = Field(
        default=None,
        description="Runner: computed from the claim's inputs alone, not by the implementation.",
    )


class Cost(_Record):
    gross_usd: float = Field(ge=0)
    credit_usd: float = Field(ge=0)


class License(_Record):
    source: str = Field(min_length=1)
    version: str = Field(min_length=1)
    license: str = Field(min_length=1)
    attribution: str = Field(min_length=1)
    redistribution: str = Field(min_length=1)


class Producer(_Record):
    name: str
    version: str
    format: Literal[2] = Field(description="Version of the runner's own fields.")


class Reproduction(_Record):
    """How closely a fresh run must reproduce this evidence (``run --check``)."""

    rel: float = Field(description="measured values: relative, i.e. significant digits")
    residue_abs: float = Field(description="rounding residue of float64 arithmetic: absolute")
    memory_rel: float = Field(description="bytes allocated (depend on the NumPy version)")
    compared: list[str] = Field(description="what is compared; provenance never is")


class PackFile(_Record):
    path: str
    sha256: str = Field(pattern=SHA256)


class ClaimPackIdentity(_Record):
    module: str
    version: int = Field(ge=1)
    title: Text
    chapter: str
    pack: str | None = Field(
        default=None, description="Runner: the pack whose checks and reference ran (its name)."
    )
    files: list[PackFile]
    sha256: str = Field(pattern=SHA256)
    code_sha256: str | None = Field(
        default=None,
        pattern=SHA256,
        description="Runner: every file of the pack's own code (its packages), by path inside "
        "them: an installed pack's code is in no commit of the course, and changes no file of it.",
    )
    expectations_sha256: str = Field(
        pattern=SHA256, description="What the claims assert; evidence of a version keeps it."
    )


class ImplementationInfo(_Record):
    """Which functions were judged: the reference, a fault's broken twin, or a learner's file."""

    kind: Literal["reference", "fault", "learner"]
    name: str
    sha256: str | None = Field(default=None, pattern=SHA256)


class Counts(_Record):
    passed: int = Field(ge=0)
    failed: int = Field(ge=0)
    error: int = Field(ge=0)
    skipped: int = Field(ge=0)
    total: int = Field(ge=0)
    points: float = Field(ge=0)
    max_points: float = Field(ge=0)


class Summary(Counts):
    by_kind: dict[ClaimKind, Counts] | None = Field(
        default=None,
        description="Runner: the same counts for the chapter's propositions and for the "
        "functions' contracts, apart (a contract claim on the reference is a self-comparison)",
    )


class DetailRecord(_Record):
    """A message as data: shown in the reader's language by whatever displays it."""

    code: str
    params: dict[str, JsonValue] = Field(default_factory=dict)


class MeasurementRecord(_Record):
    name: str
    metric: str
    expected: JsonValue
    actual: JsonValue
    tolerance: dict[str, JsonValue]
    verdict: Verdict
    detail: DetailRecord | None = None
    unit: Unit | None = None
    source: str = Field(description="Where the expected value comes from.")
    context: bool = False
    precision: Literal["value", "residue", "memory", "rounding"] = "value"


class MistakeRecord(_Record):
    """A known mistake (a broken twin) whose outputs the learner's function reproduces."""

    id: str
    replaces: str | None = Field(
        default=None, description="The chapter function the mistake is made in."
    )
    explanation: Text
    where: Text = Field(description="The chapter's fault-table row or stage it belongs to.")


class DiagnosisRecord(_Record):
    """Which known mistakes a failing function reproduces on every call its claim made."""

    function: str
    calls: int = Field(ge=0, description="The calls the claim made to it, all compared.")
    matches: list[MistakeRecord] = Field(default_factory=list)
    first_difference: dict[str, JsonValue] | None = Field(
        default=None,
        description="When nothing matches: the first call where it differs from the reference "
        "(call: its index from 0, inputs, at: where in the output, expected, actual).",
    )
    complete: bool = Field(
        default=True, description="False: not every call or known mistake could be compared."
    )


class ClaimRecord(_Record):
    id: str = Field(pattern=ID_PATTERN)
    proposition: int = Field(ge=1)
    stage: Text
    statement: Text
    check: str
    status: Status
    duration_ms: float = Field(ge=0)
    measurements: list[MeasurementRecord]
    observations: dict[str, JsonValue]
    observation_precision: dict[str, Literal["value", "residue", "memory", "rounding"]] = Field(
        default_factory=dict
    )
    reason: DetailRecord | None = None
    notes: Text | None = None
    points: float = Field(default=1.0, ge=0)
    visibility: Visibility = "visible"
    kind: ClaimKind = "proposition"
    output: str | None = None
    output_dropped: int = Field(default=0, ge=0)
    diagnosis: list[DiagnosisRecord] = Field(default_factory=list)


class ObservedFactRecord(_Record):
    fact: Text = Field(description="A sentence template; {claim/measure} names a value below.")
    values: dict[str, JsonValue]
    held: bool
    detail: DetailRecord | None = None


class FaultVariant(_Record):
    id: str
    title: Text
    replaces: str
    expected_signal: Text
    observed_signal: list[ObservedFactRecord]
    observed_as_declared: bool
    differs_from_chapter: Text | None = None
    catchers: list[str]
    claims_broken: list[str]
    caught: bool


class FaultScore(_Record):
    caught: int = Field(ge=0)
    total: int = Field(ge=0)


class FaultSection(_Record):
    """Each of the chapter's faults run as a broken twin of the reference."""

    variants: list[FaultVariant]
    matrix: dict[str, dict[str, Status]]
    score: FaultScore


class Challenge(_Record):
    nonce: str = Field(min_length=1, max_length=200)
    inputs: dict[str, dict[str, JsonValue]]


class Evidence(_Record):
    """Evidence that a chapter's claims were checked by a real run."""

    # -- the chapter's learner template ---------------------------------------------------
    schema_: Literal["learn-llm.evidence.v1"] = Field(alias="schema")
    module: str = Field(pattern=ID_PATTERN, max_length=100)
    commit: str = Field(
        pattern=r"^[0-9a-f]{7,40}$",
        description="Hex sha of the commit whose code produced the values.",
    )
    verified_at: str = Field(pattern=ISO_TIME, description="ISO 8601 date or time of the run.")
    environment: NonEmpty | dict[str, str] = Field(
        description="Sanitized: no host name, user name or path."
    )
    seed: int
    commands: list[NonEmpty] = Field(min_length=1)
    metrics: list[Metric]
    artifacts: list[NonEmpty] = Field(description="Repository-relative paths the run wrote.")
    cost: Cost
    licenses: list[License]
    known_failures: list[str]
    # -- what the runner adds --------------------------------------------------------------
    producer: Producer | None = None
    commit_dirty: bool | None = None
    duration_ms: float | None = Field(default=None, ge=0)
    reproduction: Reproduction | None = None
    claim_pack: ClaimPackIdentity | None = None
    implementation: ImplementationInfo | None = None
    summary: Summary | None = None
    claims: list[ClaimRecord] | None = None
    challenge: Challenge | None = None
    faults: FaultSection | None = None

    model_config = ConfigDict(extra="forbid", populate_by_name=True)


RUNNER_FIELDS = (
    "producer",
    "commit_dirty",
    "duration_ms",
    "reproduction",
    "claim_pack",
    "implementation",
    "summary",
)


def evidence_json_schema() -> dict[str, Any]:
    """The JSON Schema of :class:`Evidence`, with the parts pydantic cannot say itself."""
    generated = Evidence.model_json_schema(by_alias=True)
    body = {k: v for k, v in generated.items() if k not in ("title", "description")}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://learn-llm.invalid/schemas/learn-llm.evidence.v1.json",
        "title": EVIDENCE_SCHEMA,
        "description": (
            "Evidence that a chapter's claims were checked by a real run. The first block of "
            "properties is the chapter's learner template; the rest is what the runner adds to "
            "its own evidence (all of it present once 'claims' is). Generated from "
            "runner.models.evidence.Evidence."
        ),
        **body,
        "dependentRequired": {"claims": list(RUNNER_FIELDS)},
    }
