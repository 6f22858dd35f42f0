"""Feedback by function: which of a learner's functions are right, which are wrong (and on
what call they first leave the reference), which are not written yet; and the chapter's
propositions counted apart from the functions' contract.

Data only, read off the results a run returned and the pack's registry (which functions each
claim calls); nothing here judges again, and reporters render it in the reader's language.

A function is

* ``wrong`` when a claim that calls it failed or erred and the failure is laid at its door:
  its diagnosis names it (it left the reference on a logged call), the reason names it (it
  raised, timed out, returned what cannot cross), it is the subject of a contract claim, or
  it is one of the written functions of a claim nothing narrows further;
* ``not_written`` when a claim was skipped because the file lacks it or it still raises
  NotImplementedError;
* ``right`` when every claim calling it that ran passed (some may wait for others);
* ``waiting`` when it is written but every claim calling it waits for another function.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from runner.load import LoadedClaim
from runner.models import ClaimResult, Detail, Diagnosis, MistakeMatch
from runner.models.claims import ClaimKind
from runner.run import functions_of

if TYPE_CHECKING:
    from runner.api import PackRun

Verdict = Literal["wrong", "not_written", "right", "waiting", "unjudged"]
KINDS: tuple[ClaimKind, ...] = ("proposition", "contract")
# a skip for these reasons waits on a function the learner has not written yet
NOT_WRITTEN_REASONS = ("claim.not_implemented", "claim.not_written", "claim.not_written_called")


@dataclass(frozen=True)
class FirstCall:
    """The first call where a function leaves the reference: its inputs (summarized), what
    the reference returned and what the function did (plain data, shown by the reporter);
    ``label`` names the kind of input when a contract claim found it, ``at`` where inside
    the value the two part."""

    claim: str
    inputs: str  # the call as the diagnosis shows it, or the function's name alone ...
    expected: Any
    actual: Any
    label: Any = None  # a string, or {"zh": ..., "en": ...}
    at: str = ""
    # ... and its arguments as a contract claim summarized them ({"args", "kwargs"})
    arguments: Any = None


@dataclass
class FunctionFeedback:
    name: str
    verdict: Verdict
    claims: list[str] = field(default_factory=list)  # every claim of the run that calls it
    passed: list[str] = field(default_factory=list)
    failing: list[str] = field(default_factory=list)  # failed or erred, laid at its door
    waiting: list[str] = field(default_factory=list)  # skipped: a function not written yet
    first_call: FirstCall | None = None
    mistakes: list[MistakeMatch] = field(default_factory=list)
    # why a failing claim erred (it raised, timed out), when no differing call is known
    reason: Detail | None = None
    # the arguments a call changed in place (a contract claim saw it), when no call differs
    modified: list[str] = field(default_factory=list)
    result_shared: bool = False  # a call changed the result an earlier call returned
    # not written: a function of the file whose name is this one's, misspelt (softmaxx)
    near: str | None = None
    # functions the reference's version of this one uses that are wrong in this file too:
    # its own mistake may be theirs, and no known mistake is named through them (the
    # diagnosis replays twins with the reference's functions, never the learner's)
    wrong_uses: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class KindFeedback:
    """One kind of claims (the chapter's propositions, or the functions' contract)."""

    kind: ClaimKind
    counts: Mapping[str, int]
    points: float
    max_points: float

    @property
    def total(self) -> int:
        return sum(self.counts.values())


@dataclass
class PackFeedback:
    functions: list[FunctionFeedback]  # in the scaffold's order
    kinds: list[KindFeedback]  # only the kinds the run has claims of
    waiting: int  # claims skipped until a function not written yet is

    def having(self, verdict: Verdict) -> list[FunctionFeedback]:
        return [f for f in self.functions if f.verdict == verdict]


def pack_feedback(
    pack_run: PackRun,
    results: Sequence[ClaimResult] | None = None,
    course: Collection[str] = (),
) -> PackFeedback:
    """The feedback of one module's run (``results``: a part of its results, e.g. only those
    a learner may see now; all of them by default; ``course``: the functions every module
    of the run asks for, none of them a misspelling of another module's)."""
    chosen = list(pack_run.results if results is None else results)
    registry = pack_run.pack.code.registry
    loaded = {c.claim.id: c for c in (*pack_run.pack.claims, *pack_run.challenge)}
    calls = {r.id: _functions(loaded.get(r.id), registry) for r in chosen}
    order = _order(pack_run, calls)
    unwritten = {name for r in chosen for name in not_written(r)}
    found = {name: FunctionFeedback(name, "right") for name in order}
    for r in chosen:
        blames = _blames(loaded.get(r.id), registry)
        failing = r.status in ("failed", "error")
        blamed = blame(r, calls[r.id], unwritten, blames) if failing else ()
        for name in calls[r.id]:
            fb = found[name]
            fb.claims.append(r.id)
            if r.status == "passed":
                fb.passed.append(r.id)
            elif r.status == "skipped" and not_written(r):
                fb.waiting.append(r.id)
            elif name in blamed:
                fb.failing.append(r.id)
                _note_failure(fb, r)
    for fb in found.values():
        fb.verdict = _verdict(fb, unwritten)
    for fb in found.values():
        spec = registry.subjects.get(fb.name)
        if fb.verdict == "wrong" and not fb.mistakes and spec is not None:
            fb.wrong_uses = [g for g in spec.uses if g in found and found[g].verdict == "wrong"]
    # the file's own names, not the contract's: a function of the contract it defines is no
    # misspelling of another (adam_step beside an adamw_step that is written but waits)
    others = [d for d in pack_run.defined if d not in registry.subjects and d not in course]
    for fb in found.values():
        if fb.verdict == "not_written" and others and fb.name not in pack_run.defined:
            fb.near = misspelt(fb.name, others)
    waiting = sum(1 for r in chosen if r.status == "skipped" and not_written(r))
    return PackFeedback(list(found.values()), kinds(chosen), waiting)


def misspelt(name: str, defined: Sequence[str]) -> str | None:
    """The function of ``defined`` that ``name`` is most likely a misspelling of (the same
    letters but for case and underscores, or close: SoftMax, soft_max, sotfmax), or
    None."""
    import difflib

    def plain(text: str) -> str:
        return text.lower().replace("_", "")

    same = [d for d in defined if plain(d) == plain(name)]
    if same:
        return same[0]
    close = difflib.get_close_matches(name, list(defined), n=1, cutoff=0.8)
    return close[0] if close else None


def kinds(results: Iterable[ClaimResult]) -> list[KindFeedback]:
    results = list(results)
    out = []
    for kind in KINDS:
        some = [r for r in results if r.kind == kind]
        if not some:
            continue
        counts = {
            s: sum(r.status == s for r in some) for s in ("passed", "failed", "error", "skipped")
        }
        out.append(
            KindFeedback(kind, counts, sum(r.score for r in some), sum(r.points for r in some))
        )
    return out


def not_written(result: ClaimResult) -> list[str]:
    """The functions a skipped claim waits for (the file lacks them or they still raise
    NotImplementedError); empty for any other claim."""
    reason = result.reason
    if result.status != "skipped" or reason is None or reason.code not in NOT_WRITTEN_REASONS:
        return []
    if reason.code in ("claim.not_written", "claim.not_written_called"):
        return [str(reason.params.get("function", ""))]
    names = reason.params.get("functions") or []
    return [str(n).removesuffix("()") for n in names if isinstance(n, str)]


# reasons that are the check's own bug, whatever implementation it judged: no function of the
# learner's is blamed (it raises on the course's reference too, or its answer is malformed)
COURSE_REASONS = frozenset(
    {
        "claim.course_bug",
        "claim.course_bug_value",
        "claim.not_measurements",
        "claim.not_data",
        "claim.undeclared",
        "claim.no_measure",
    }
)


def blame(
    result: ClaimResult,
    calls: Sequence[str],
    unwritten: set[str],
    blames: Mapping[str, tuple[str, ...]] | None = None,
) -> tuple[str, ...]:
    """The functions a failed or erred claim is laid at: those its diagnosis found leaving
    the reference, else the one its reason names, else those its check lays its failing
    measures at (``blames``: when each failing measure has some), else the written
    functions it calls."""
    if result.reason is not None and result.reason.code in COURSE_REASONS:
        return ()  # the check's own bug: nobody's function
    failing = [m.name for m in result.measurements if m.verdict != "passed"]
    laid: set[str] | None = None
    if blames and failing and all(m in blames for m in failing):
        laid = {f for m in failing for f in blames[m]}
    # a function the diagnosis found wrong is not blamed for measures that are not its own
    diagnosed = tuple(
        d.function
        for d in result.diagnosis
        if d.function in calls and _decided(d) and (laid is None or d.function in laid)
    )
    if diagnosed:
        return diagnosed
    named = result.reason.params.get("function") if result.reason is not None else None
    if isinstance(named, str) and named in calls:
        return (named,)
    if laid is not None:
        return tuple(name for name in calls if name in laid and name not in unwritten)
    return tuple(name for name in calls if name not in unwritten)


def _decided(d: Diagnosis) -> bool:
    """A diagnosis that found the function leaving the reference (an incomplete one only
    says the log was too long to compare)."""
    return bool(d.matches or d.first_difference or (d.complete and d.calls))


def _note_failure(fb: FunctionFeedback, r: ClaimResult) -> None:
    """Keep the first differing call and the named mistakes a failing claim shows."""
    for d in r.diagnosis:
        if d.function != fb.name:
            continue
        if d.matches:
            fb.mistakes = list(d.matches)  # settled over the whole run: the latest is whole
        first = d.first_difference
        if fb.first_call is None and first:
            fb.first_call = FirstCall(
                claim=r.id,
                inputs=f"{fb.name}({first.get('inputs', '')})",
                expected=first.get("expected"),
                actual=first.get("actual"),
                at=str(first.get("at") or ""),
            )
    mismatch = r.observations.get("first_mismatch")
    if fb.first_call is None and isinstance(mismatch, dict):
        at, expected, actual = where_they_part(mismatch)
        fb.first_call = FirstCall(
            claim=r.id,
            inputs=fb.name,
            arguments=mismatch.get("inputs"),
            expected=expected,
            actual=actual,
            label=mismatch.get("label"),
            at=at,
        )
    modification = r.observations.get("first_modification")
    if not (fb.modified or fb.result_shared) and isinstance(modification, dict):
        fb.modified = [str(a) for a in modification.get("arguments") or []]
        fb.result_shared = modification.get("earlier_result") is True
    if fb.reason is None and r.status == "error" and r.reason is not None:
        fb.reason = r.reason


def _verdict(fb: FunctionFeedback, unwritten: set[str]) -> Verdict:
    if fb.failing:
        return "wrong"
    if fb.name in unwritten:
        return "not_written"
    if fb.passed:
        return "right"
    if fb.waiting:
        return "waiting"
    # every claim calling it erred for a reason not laid at it (a bug of the course, another
    # function's failure): it was not judged, and it does not wait for anything
    return "unjudged"


def _blames(loaded: LoadedClaim | None, registry: Any) -> Mapping[str, tuple[str, ...]]:
    if loaded is None:
        return {}
    spec = registry.find_check(loaded.claim.check)
    return spec.blames if spec is not None else {}


def _functions(loaded: LoadedClaim | None, registry: Any) -> tuple[str, ...]:
    return functions_of(loaded, registry) if loaded is not None else ()


def _order(pack_run: PackRun, calls: Mapping[str, Sequence[str]]) -> list[str]:
    """The functions the results call, in the order the scaffold declares them."""
    from runner.learner.scaffold import module_subjects

    called = {name for names in calls.values() for name in names}
    ordered = [name for name in module_subjects([pack_run.pack]) if name in called]
    return ordered + sorted(called - set(ordered))


def where_they_part(mismatch: dict[str, Any]) -> tuple[str, Any, Any]:
    """A contract claim's first mismatch as (where inside the value, the reference's value
    there, the function's): the first element that differs when the two have the same
    shape (two summaries of arrays alike say nothing), else ("", both values whole)."""
    why = mismatch.get("why")
    if isinstance(why, dict) and isinstance(why.get("at"), list) and "expected_at" in why:
        # inside a tuple or dict returned: which of its values, as Python would index it
        outer = f"[{why['key']!r}]" if "key" in why else ""
        outer += f"[{why['index']}]" if "index" in why else ""
        at = outer + "[" + ", ".join(str(i) for i in why["at"]) + "]"
        return at, why.get("expected_at"), why.get("actual_at")
    return "", mismatch.get("expected"), mismatch.get("actual")
