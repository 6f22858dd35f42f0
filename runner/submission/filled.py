"""What the chapter's template asks a learner's submission to fill in, beyond the schema: the
lists it shows an item to replace (artifacts, licenses, known failures: "none" is an item)
hold at least one, and the seed is the module's (its claims' figures come from it). The
course's own evidence, and a run's (which the runner wrote), are judged by the schema
alone there: a run writes no artifact but its evidence."""

from __future__ import annotations

from collections.abc import Iterator

from runner.i18n import msg
from runner.submission.context import Context, Submission
from runner.submission.problems import Finding

FILLED_LISTS = ("artifacts", "licenses", "known_failures")


def template_filled(doc: Submission, ctx: Context) -> Iterator[Finding]:
    if ctx.course_evidence:
        return
    # a run's own evidence (runner run --impl) says what it did: it wrote no artifact but
    # itself, and its known failures are its failed claims, listed beside them
    written_by_a_run = isinstance(doc.data.get("claims"), list) and isinstance(
        doc.data.get("producer"), dict
    )  # both, as a run writes them (producer: null once skipped the rule)
    for key in () if written_by_a_run else FILLED_LISTS:
        if doc.data.get(key) == []:
            yield (key,), msg("sub.list_empty", key=key)
    seed, module = doc.data.get("seed"), doc.data.get("module")
    pack = ctx.packs.get(module) if isinstance(module, str) else None
    if pack is not None and type(seed) is int and seed != pack.meta.seed:
        yield (
            ("seed",),
            msg("sub.seed_not_module", seed=seed, module=module, expected=pack.meta.seed),
        )
