"""One submission file in, one report out: read, parse, then every rule, all problems at once.

A rule is a function ``(submission, context) -> problems`` that yields ``(path, message)``;
none of them raises for anything a file can hold, and the validator takes at most
``MAX_PROBLEMS + 1`` from each, so no file can make a report unbounded.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from runner.i18n import msg
from runner.load import ClaimPack, display_path
from runner.problems import Problem
from runner.submission import artifacts, evidence, filled, metrics, provenance, schema, values
from runner.submission.context import Context, MetricIndex, Submission
from runner.submission.files import SubmissionFile, read_submission
from runner.submission.parse import Parsed, parse_submission
from runner.submission.problems import MAX_PROBLEMS, Finding, Report, in_file_order
from runner.text import printable_line

Rule = Callable[[Submission, Context], Iterable[Finding]]

# In the order their problems are listed when two fall at the same place.
RULES: tuple[Rule, ...] = (
    values.placeholders,
    values.nonfinite,
    schema.schema,
    metrics.metrics,
    metrics.claim_measurements,
    evidence.implementation_kind,
    evidence.claim_statuses,
    provenance.commit,
    provenance.verified_at,
    provenance.environment,
    artifacts.artifacts,
    filled.template_filled,
)


class Validator:
    """Validates submissions against the schema and the claim packs; one per batch."""

    def __init__(
        self,
        packs: list[ClaimPack],
        repo: Path | None = None,
        challenge: str | None = None,
        now: dt.datetime | None = None,
        course_evidence: bool = False,
    ) -> None:
        self.context = Context(
            course_evidence=course_evidence,
            packs={p.meta.id: p for p in packs},
            metrics={p.meta.id: metrics.metric_index(list(p.claims)) for p in packs},
            challenge=challenge,
            now=now or dt.datetime.now(dt.UTC),
        )
        if challenge is not None:
            from runner.challenges import course_challenges  # numpy.random and the generators

            self.context.challenge_metrics = {
                module: metrics.metric_index(claims)
                for module, claims in course_challenges(list(packs), challenge).items()
            }
        if repo is not None:
            from runner.submission.gitobjects import GitObjects

            self.context.repo = repo.resolve()
            self.context.repo_shown = printable_line(display_path(repo))
            self.context.objects = GitObjects(self.context.repo)

    @property
    def metrics(self) -> dict[str, MetricIndex]:
        return self.context.metrics

    @property
    def challenge_metrics(self) -> dict[str, MetricIndex]:
        return self.context.challenge_metrics

    def validate_file(self, file: SubmissionFile | Path) -> Report:
        if isinstance(file, Path):
            file = SubmissionFile(file, file.parent)
        report = Report(file.shown)
        try:
            report.problems = self._problems(file)
        except Exception as exc:
            # Every file gets its verdict and the batch its summary, whatever one file holds:
            # a defect of ours in one file's rules is that file's problem, not the batch's end.
            report.problems = in_file_order([((), msg("sub.internal", error=_line(exc)))], None)
        return report

    def _problems(self, file: SubmissionFile) -> list[Problem]:
        raw = read_submission(file)
        if not isinstance(raw, bytes):
            return in_file_order([((), raw)], None)
        parsed = parse_submission(raw, json_syntax=file.path.suffix == ".json")
        if not parsed.readable:
            return in_file_order(parsed.problems, None)
        return in_file_order(self.findings(parsed), parsed.data)

    def findings(self, parsed: Parsed) -> Iterator[Finding]:
        """Every rule's problems with a parsed document (rule by rule, unsorted)."""
        if not isinstance(parsed.data, dict):
            yield (), msg("sub.not_mapping", kind=msg(f"sub.kind.{_kind(parsed.data)}"))
            return
        doc = Submission(parsed.data, parsed.placeholders, parsed.nonfinite)
        for rule in RULES:
            yield from itertools.islice(rule(doc, self.context), MAX_PROBLEMS + 1)

    def close(self) -> None:
        if self.context.objects is not None:
            self.context.objects.close()


def _kind(value: object) -> str:
    if isinstance(value, list):
        return "list"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "boolean"
    return "number"


def _line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return printable_line(
        f"{type(exc).__name__}: {lines[-1][:200]}" if lines else type(exc).__name__
    )
