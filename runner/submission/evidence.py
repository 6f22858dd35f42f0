"""The runner's own evidence: a learner's run, and each of its claims passed."""

from __future__ import annotations

from collections.abc import Iterator

from runner.i18n import Msg, msg
from runner.submission.context import Context, Submission
from runner.submission.problems import Finding
from runner.text import printable_line

NOT_PASSED = ("failed", "error", "skipped")
# what the runner records for the course's own runs: never a learner's work
COURSE_KINDS = ("reference", "fault")


def implementation_kind(doc: Submission, ctx: Context) -> Iterator[Finding]:
    """Evidence of the course's reference or of a fault is not a learner's submission (a
    copy of ours would otherwise pass as the learner's own), unless the grader says these
    files are the course's evidence (``validate --course-evidence``)."""
    implementation = doc.data.get("implementation")
    if ctx.course_evidence or not isinstance(implementation, dict):
        return
    kind = implementation.get("kind")
    if isinstance(kind, str) and kind in COURSE_KINDS:
        yield ("implementation", "kind"), msg("sub.course_kind", kind=kind)


def claim_statuses(doc: Submission, ctx: Context) -> Iterator[Finding]:
    claims = doc.data.get("claims")
    if not isinstance(claims, list):
        return
    for i, claim in enumerate(claims):
        if not isinstance(claim, dict) or claim.get("status") not in NOT_PASSED:
            continue
        status = claim["status"]
        name = printable_line(str(claim.get("id"))[:200])
        error = claim.get("error")  # the runner's first format: a sentence
        reason = Msg.from_data(claim.get("reason"))  # since format 2: a code and its numbers
        at = ("claims", i, "status")
        if reason is not None:
            yield (
                at,
                msg("sub.claim_status_why", claim=name, status=msg(f"status.{status}"), why=reason),
            )
        elif isinstance(error, str) and error:
            why = printable_line(error[:200])
            yield (
                at,
                msg("sub.claim_status_why", claim=name, status=msg(f"status.{status}"), why=why),
            )
        else:
            yield at, msg("sub.claim_status", claim=name, status=msg(f"status.{status}"))
