"""The runner's own evidence lists its claims: each of them must have passed."""

from __future__ import annotations

from collections.abc import Iterator

from runner.i18n import Msg, msg
from runner.submission.context import Context, Submission
from runner.submission.problems import Finding, printable

NOT_PASSED = ("failed", "error", "skipped")


def claim_statuses(doc: Submission, ctx: Context) -> Iterator[Finding]:
    claims = doc.data.get("claims")
    if not isinstance(claims, list):
        return
    for i, claim in enumerate(claims):
        if not isinstance(claim, dict) or claim.get("status") not in NOT_PASSED:
            continue
        status = claim["status"]
        name = printable(str(claim.get("id"))[:200])
        error = claim.get("error")  # the runner's first format: a sentence
        reason = Msg.from_data(claim.get("reason"))  # since format 2: a code and its numbers
        at = ("claims", i, "status")
        if reason is not None:
            yield (
                at,
                msg("sub.claim_status_why", claim=name, status=msg(f"status.{status}"), why=reason),
            )
        elif isinstance(error, str) and error:
            why = printable(error[:200])
            yield (
                at,
                msg("sub.claim_status_why", claim=name, status=msg(f"status.{status}"), why=why),
            )
        else:
            yield at, msg("sub.claim_status", claim=name, status=msg(f"status.{status}"))
