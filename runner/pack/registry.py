"""A pack's registry: everything its claims can name, and the implementations claims judge.

Its entries, each keyed by name:

* **subjects**: the chapter's functions (``softmax``, ...), i.e. what is judged.
  The reference versions are the pack's NumPy code.
* **checks**: functions that take an :class:`Implementation` and inputs and return named
  measurements. Claims name checks; checks never import subjects directly.
* **twins**: broken versions of a subject, written the way people make the mistake. A
  module's fault table is a set of twins (injecting a fault is building an implementation
  where the twin stands in for the subject); the others are mistakes learners commonly make,
  used to tell a learner which one they made.
* **generators**: seeded inputs across a subject's whole signature, for claims that compare
  an implementation with the reference on many inputs (the engine's ``matches_reference``).
* **challenges**: inputs derived from a grader's nonce, per module.

Every pack has a registry of its own (:class:`runner.pack.Pack` holds it), so two packs may
register the same names. An :class:`Implementation` is an immutable mapping from subject
names to functions, so a reference run, a fault run and a learner run are the same operation
with a different map.
"""

from __future__ import annotations

import functools
import inspect
import tracemalloc
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar

import numpy as np

from runner.compare import unchanged
from runner.i18n import Msg, msg
from runner.pack.outcome import PackRefused, PackRefusedValue
from runner.returned import EARLIER_RESULT, LastResults

SubjectFn = Callable[..., Any]
Measurements = dict[str, Any]
CheckFn = Callable[..., Measurements]
ImplKind = Literal["reference", "fault", "learner"]
Bilingual = Mapping[str, str]  # {"zh": ..., "en": ...}
F = TypeVar("F", bound=Callable[..., Any])
# The parameters of a check the engine fills in; a claim's inputs bind the others.
INJECTED = ("impl", "rng", "registry")
# How closely a measurement must reproduce on another machine (see runner.record.drift):
# "value" to nine significant digits; "residue" (the rounding error of float64 arithmetic,
# e.g. the difference of two computations of one function) to an absolute 1e-12;
# "memory" (bytes allocated, which depend on the NumPy version) to 25%; "rounding" (a count
# decided by last-bit rounding, such as how many sums are exactly 1.0) is not compared.
Precision = Literal["value", "residue", "memory", "rounding"]
PRECISIONS: tuple[str, ...] = ("value", "residue", "memory", "rounding")


def _names(names: Any, what: str) -> None:
    """Refuse anything but a tuple (or list) of names: ``needs="softmax"`` is seven names of
    one letter, ``needs=(1,)`` none at all."""
    if isinstance(names, str) or not isinstance(names, tuple | list):
        raise PackRefused("packdef.names_tuple", what=what, value=repr(names)[:200])
    bad = [n for n in names if not isinstance(n, str) or not n]
    if bad:
        raise PackRefused("packdef.not_names", what=what, bad=repr(bad)[:200])


def bilingual(text: Any, what: str) -> None:
    """Refuse a text a pack brings unless it is ``{"zh": ..., "en": ...}``, both non-empty
    strings: it is shown in the reader's language, and a missing one would surface only
    when a learner's run needs it."""
    if not isinstance(text, Mapping):
        raise PackRefused("packdef.bilingual_type", what=what, type=type(text).__name__)
    missing = [lang for lang in ("zh", "en") if not isinstance(text.get(lang), str)]
    empty = [lang for lang in ("zh", "en") if lang not in missing and not text[lang].strip()]
    if missing or empty:
        raise PackRefused("packdef.no_text", what=what, langs=" / ".join(missing + empty))


class MissingSubject(LookupError):
    """The implementation being judged does not provide a function a check needs."""

    def __init__(self, name: str, implementation: str) -> None:
        super().__init__(f"{implementation} does not implement {name}()")
        self.name = name


class MistakeUndefined(ValueError):
    """A twin has no value of its own at these inputs (log10 0 where the reference guards
    with 0.0 and a learner who makes the mistake may get ValueError, 0.0 or -inf). A twin
    raises this there (a ValueError, as the plain computation would); the diagnosis counts
    such a call neither for nor against the mistake."""


class UndeclaredSubject(RuntimeError):
    """A check called a subject it did not declare in ``needs`` (a bug in the check)."""

    def __init__(self, name: str) -> None:
        super().__init__(f"the check calls {name}() without declaring it in needs")
        self.said = msg("packdef.undeclared", function=name)


@dataclass(frozen=True)
class SubjectSpec:
    name: str
    fn: SubjectFn
    # Other subjects this reference function calls. They are passed as keyword-only
    # arguments of the same name, so a fault in one of them propagates to its callers
    # exactly as it would in real code, without any global state.
    uses: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)  # identity: specs are registered once, and cached by
class CheckSpec:
    name: str
    fn: CheckFn
    needs: tuple[str, ...]
    measures: tuple[str, ...]
    # measurements computed from the inputs alone, without calling the implementation:
    # context beside the evidence, never evidence about the implementation
    context: tuple[str, ...] = ()
    precision: Mapping[str, Precision] = field(default_factory=dict)
    # the input that names the subject a generic check judges (e.g. ``subject``): that
    # subject is needed too, whichever it is
    subject_input: str | None = None
    # the input that names the generator whose cases it runs (e.g. ``generator``): checked
    # on load, as a check's name is, and against the subject named beside it
    generator_input: str | None = None
    # measure -> the subjects a failure of it is laid at (a memory exponent at the function
    # measured): a claim whose failing measures all have one names only those functions
    blames: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def needs_of(self, inputs: Mapping[str, Any]) -> tuple[str, ...]:
        """The subjects this check calls with these inputs."""
        named = inputs.get(self.subject_input) if self.subject_input else None
        if isinstance(named, str) and named not in self.needs:
            return (*self.needs, named)
        return self.needs

    @functools.cached_property
    def signature(self) -> inspect.Signature:
        return inspect.signature(self.fn)

    def input_parameters(self) -> dict[str, inspect.Parameter]:
        """The parameters a claim's ``inputs`` may bind (all but those the engine passes)."""
        return {name: p for name, p in self.signature.parameters.items() if name not in INJECTED}

    def call(
        self,
        impl: Implementation,
        inputs: Mapping[str, Any],
        *,
        rng: np.random.Generator | None,
        registry: Registry,
    ) -> Any:
        """Run the check on ``impl`` with a claim's ``inputs``, and what the engine passes to
        the checks that ask for it: ``rng`` (the claim's own generator) and ``registry``
        (the pack's, for generic checks such as ``matches_reference``)."""
        kwargs = dict(inputs)
        params = self.signature.parameters
        if "rng" in params:
            kwargs["rng"] = rng if rng is not None else np.random.default_rng(0)
        if "registry" in params:
            kwargs["registry"] = registry
        return self.fn(impl, **kwargs)


@dataclass(frozen=True)
class TwinSpec:
    """A broken version of one subject.

    ``fault`` twins are the chapter's fault table (declared in the module's faults.yaml);
    ``mistake`` twins are other mistakes learners make. Both explain themselves in both
    languages and name the chapter's fault-table row or stage they belong to.
    """

    id: str
    replaces: str
    fn: SubjectFn
    explanation: Bilingual
    where: Bilingual  # the chapter's fault-table row, or its stage
    kind: Literal["fault", "mistake"] = "fault"


@dataclass(frozen=True)
class GeneratorSpec:
    """Seeded cases for one subject: each an (args, kwargs) pair of its whole signature."""

    name: str
    subject: str
    fn: Callable[[np.random.Generator, int], list[tuple[tuple[Any, ...], dict[str, Any]]]]


@dataclass(frozen=True)
class CallRecord:
    """One call a check made: the inputs, and what came back (a value or ``Raised``)."""

    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    outcome: Any


@dataclass
class CallLog:
    """The calls a claim's check made to the implementation, to diagnose a failure with.

    Inputs and outcomes are copied, so a check that reuses an array changes no record;
    past ``budget`` scalars the log stops and says it is incomplete.
    """

    budget: int = 4_000_000
    calls: list[CallRecord] = field(default_factory=list)
    complete: bool = True
    used: int = 0

    def add(self, name: str, args: tuple[Any, ...], kwargs: dict[str, Any], outcome: Any) -> None:
        if not self.complete:
            return
        self.used += _size(args) + _size(kwargs) + _size(outcome)
        if self.used > self.budget:
            self.complete = False
            self.calls.clear()
            return
        self.calls.append(CallRecord(name, _copy(args), _copy(kwargs), _copy(outcome)))


def _size(value: Any) -> int:
    """What a value costs the log, in scalars: text by its length (8 characters a scalar),
    a dict's keys too (a learner's dict of long keys was logged as one scalar a key)."""
    if isinstance(value, np.ndarray):
        return int(value.size)
    if isinstance(value, str | bytes):
        return 1 + len(value) // 8
    if isinstance(value, list | tuple):
        if not any(isinstance(v, _DEEP) for v in value):
            return len(value) + 1  # numbers (most lists a check sends): one each
        return sum(_size(v) for v in value) + 1
    if isinstance(value, dict):
        return sum(_size(k) + _size(v) for k, v in value.items()) + 1
    return 1


_DEEP = (np.ndarray, str, bytes, list, tuple, dict)  # what _size or _copy looks inside


def _copy(value: Any) -> Any:
    """A deep copy of the arrays in ``value`` (lists, tuples and dicts rebuilt), so that no
    call sees what another one did to them."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, list | tuple) and not any(isinstance(v, _DEEP) for v in value):
        return list(value) if isinstance(value, list) else tuple(value)  # numbers only
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_copy(v) for v in value)
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


def measure_locally(fn: SubjectFn, *args: Any, **kwargs: Any) -> tuple[Any, int | None]:
    """Call ``fn`` in this process; return its value and the peak bytes it allocated beyond
    what existed before (NumPy reports its arrays to tracemalloc)."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    try:
        value = fn(*args, **kwargs)
        return value, tracemalloc.get_traced_memory()[1] - base
    finally:
        if started:
            tracemalloc.stop()


def modified_locally(fn: SubjectFn, *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
    """Call ``fn`` in this process; return its value and the names of the arguments the call
    modified (an array written in place, a list or dict changed), by a copy taken before."""
    before = _copy((args, kwargs))
    value = fn(*args, **kwargs)
    changed = changed_arguments(fn, before, (args, kwargs))
    return value, [*changed, EARLIER_RESULT] if _RETURNED.changed_by(fn, value) else changed


_RETURNED = LastResults()  # our functions' last results, for calls whose arguments are watched


def changed_arguments(
    fn: SubjectFn,
    before: tuple[tuple[Any, ...], dict[str, Any]],
    after: tuple[tuple[Any, ...], dict[str, Any]],
) -> list[str]:
    """The arguments that differ between two snapshots of one call's (args, kwargs), by the
    name ``fn``'s signature gives them (``#i`` for a positional one it does not name)."""
    (args0, kwargs0), (args1, kwargs1) = before, after
    positions = [
        i for i, (a, b) in enumerate(zip(args0, args1, strict=True)) if not unchanged(a, b)
    ]
    keys = [k for k in kwargs0 if not unchanged(kwargs0[k], kwargs1.get(k))]
    if not positions:  # keywords name themselves: the signature (40 µs to read) is not needed
        return keys
    try:
        signature: inspect.Signature | None = inspect.signature(fn)
    except (TypeError, ValueError):  # no signature to read
        signature = None
    return argument_names(signature, positions, keys)


def argument_names(
    signature: inspect.Signature | None, positions: list[int], keys: list[str]
) -> list[str]:
    """Positional argument indices by the parameter names ``signature`` gives them (``#i``
    where it names none), then the keyword names."""
    params = [
        p.name
        for p in (signature.parameters.values() if signature is not None else ())
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    return [params[i] if i < len(params) else f"#{i}" for i in positions] + keys


@dataclass(frozen=True)
class Implementation:
    """The functions being judged, by the chapter's names."""

    kind: ImplKind
    name: str
    functions: Mapping[str, SubjectFn]
    sha256: str | None = None
    replaced: tuple[str, ...] = field(default=())
    source: str | None = None  # a learner's file, to name it (and its line) in errors

    # What a check may call; None means everything. Set by :meth:`restricted`.
    allowed: frozenset[str] | None = None
    log: CallLog | None = None  # set by :meth:`recording`
    # the subjects a check looked up through this view (set by :meth:`restricted`): one that
    # looked up none judged nothing of the implementation
    reached: set[str] | None = field(default=None, compare=False)

    def __getitem__(self, name: str) -> SubjectFn:
        fn = self._function(name)
        if self.log is None:
            return fn
        return _Recorded(name, fn, self.log)

    def _function(self, name: str) -> SubjectFn:
        if self.allowed is not None and name not in self.allowed:
            raise UndeclaredSubject(name)
        if self.reached is not None:
            self.reached.add(name)
        try:
            return self.functions[name]
        except KeyError:
            raise MissingSubject(name, self.describe()) from None

    def measured(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, int | None]:
        """Call ``name`` and measure the peak memory of the call: in the learner's worker for
        a learner's function, here for ours. The cost is measured, never taken on trust."""
        fn = self._function(name)
        remote = getattr(fn, "measured", None)
        if remote is not None:
            value, peak = remote(*args, **kwargs)
        else:
            value, peak = measure_locally(fn, *args, **kwargs)
        if self.log is not None:
            self.log.add(name, args, kwargs, value)
        return value, peak

    def modifies(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
        """Call ``name``; return its value and the names of the arguments the call modified
        (none under the contract: callers reuse their arrays). Compared with a copy taken
        before the call, in the learner's worker for a learner's function, here for ours."""
        fn = self._function(name)
        remote = getattr(fn, "modifies", None)
        try:
            if remote is not None:
                value, changed = remote(*args, **kwargs)
            else:
                value, changed = modified_locally(fn, *args, **kwargs)
        except Exception as exc:  # recorded as an outcome, as a plain call records it
            if self.log is not None:
                from runner.pack.outcome import attempt

                self.log.add(name, args, kwargs, attempt(_reraise, exc))
            raise
        if self.log is not None:
            self.log.add(name, args, kwargs, value)
        return value, changed

    def each(self, name: str, calls: Iterable[Sequence[Any]]) -> list[Any]:
        """Call ``name`` once per item of ``calls``, in order; their values. An item is a
        tuple of positional arguments, or a :class:`~runner.pack.Case` (its args and kwargs).

        The way to call a function many times on inputs that do not depend on its answers:
        a learner's function answers the calls together, in one exchange with its worker
        instead of one per call. What a loop of single calls would do, it does: the first
        call that raises raises here, and the calls after it do not run.
        """
        fn = self._function(name)
        cases = [_arguments(item) for item in calls]
        remote = getattr(fn, "each", None)
        if remote is None:
            call = self[name]  # recorded in the log, if there is one
            return [call(*args, **kwargs) for args, kwargs in cases]
        values: list[Any]
        error: Exception | None
        values, error = remote(cases)
        if self.log is not None:
            from runner.pack.outcome import attempt

            for (args, kwargs), value in zip(cases, values, strict=False):
                self.log.add(name, args, kwargs, value)
            if error is not None:
                args, kwargs = cases[len(values)]
                self.log.add(name, args, kwargs, attempt(_reraise, error))
        if error is not None:
            raise error
        return values

    def attempt_each(
        self, name: str, calls: Iterable[Sequence[Any]], in_place: Collection[int] = ()
    ) -> list[Any]:
        """:meth:`modifies` on each item of ``calls``, as :func:`~runner.pack.outcome.attempt`
        would call it: per item, (value, names of the arguments the call modified), or the
        :class:`~runner.pack.outcome.Raised` it raised, which does not stop the calls after
        it. NotImplementedError and a failure of the boundary are not outcomes: they raise
        here, and no call after them is judged. A learner's function answers the calls together,
        in one exchange with its worker instead of one per call.

        ``in_place``: the positions of the items a learner's function is called with on the
        objects of the item before them, their arrays written over with the item's contents
        (:mod:`runner.in_place`). Ours are called on new objects: they keep nothing under an
        argument's id(), and a value one returned may be a view of its argument, still held
        here to be judged."""
        from runner.pack.outcome import attempt

        fn = self._function(name)
        cases = [_arguments(item) for item in calls]
        remote = getattr(fn, "attempt_each", None)
        if remote is None:
            return [attempt(self.modifies, name, *args, **kwargs) for args, kwargs in cases]
        outcomes: list[Any] = []
        over = frozenset(i for i in in_place if 0 < i < len(cases))  # each after another
        answered, error = remote(cases, over)
        for at, ((args, kwargs), one) in enumerate(zip(cases, answered, strict=False)):
            if isinstance(one, Exception):
                outcome = logged = attempt(_reraise, one)
            else:
                outcome, logged = one, one[0]  # the log holds the value, not what changed
            outcomes.append(outcome)
            # a call on objects written over is not logged: replayed on new objects (the
            # diagnosis), its arguments would show a difference no fresh call reproduces
            if self.log is not None and at not in over:
                self.log.add(name, args, kwargs, logged)
        if error is not None:  # not an outcome (attempt would raise it too): not logged
            raise error
        return outcomes

    def restricted(self, needs: tuple[str, ...]) -> Implementation:
        """The same implementation, refusing any subject outside ``needs``.

        Checks run against this view, so their ``needs`` are known to be complete, which is
        what lets fault injection skip the claims a fault cannot reach. The view says which
        of them were looked up (``reached``).
        """
        return replace(self, allowed=frozenset(needs), reached=set())

    def recording(self, log: CallLog) -> Implementation:
        """The same implementation, recording every call (inputs and outcome) in ``log``."""
        return replace(self, log=log)

    def __contains__(self, name: object) -> bool:
        return name in self.functions

    def missing(self, names: tuple[str, ...]) -> list[str]:
        return [n for n in names if n not in self.functions]

    def describe(self) -> str:
        if self.kind == "reference":
            return "the reference implementation"
        if self.kind == "fault":
            return f"fault {self.name}"
        return f"learner file {self.name}"


def _arguments(item: Sequence[Any]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """One item of :meth:`Implementation.each` as (args, kwargs)."""
    args, kwargs = getattr(item, "args", None), getattr(item, "kwargs", None)
    if isinstance(args, tuple) and isinstance(kwargs, dict):  # a Case
        return args, kwargs
    return tuple(item), {}


class _Recorded:
    """A function of an implementation that records each call in a :class:`CallLog`."""

    def __init__(self, name: str, fn: SubjectFn, log: CallLog) -> None:
        self.name = name
        self.fn = fn
        self.log = log
        self.__signature__ = inspect.signature(fn)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from runner.pack.outcome import attempt  # what the call did, raising included

        try:
            value = self.fn(*args, **kwargs)
        except Exception as exc:
            outcome = attempt(_reraise, exc)
            self.log.add(self.name, args, kwargs, outcome)
            raise
        self.log.add(self.name, args, kwargs, value)
        return value


def _reraise(exc: Exception) -> None:
    raise exc


class UnknownName(LookupError):
    """A name that is not registered; carries the closest registered names."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        self.kind = kind
        self.name = name
        import difflib  # only for a name that is not registered

        self.close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
        self.known = sorted(known)
        hint = f"; did you mean {', '.join(self.close)}?" if self.close else ""
        super().__init__(f"unknown {kind} {name!r}{hint}")


class Registry:
    def __init__(self) -> None:
        self.subjects: dict[str, SubjectSpec] = {}
        self.checks: dict[str, CheckSpec] = {}
        self.twins: dict[str, TwinSpec] = {}
        self.generators: dict[str, GeneratorSpec] = {}
        self.challenges: dict[str, Callable[[np.random.Generator], list[dict[str, Any]]]] = {}
        # the reference's answers to generated cases (runner.pack.contract.oracle): they
        # depend on nothing that is judged, so they are computed once per process
        self.oracle: dict[str, Any] = {}
        # ... and what each claim's check measures on the reference (runner.run: whether a
        # learner's failure is the course's bug), for the same reason
        self.reference_outcomes: dict[str, Any] = {}

    # -- registration -------------------------------------------------------------------
    def subject(self, name: str, *, uses: tuple[str, ...] = ()) -> Callable[[F], F]:
        def register(fn: F) -> F:
            _refuse_duplicate(self.subjects, name, "subject")
            _names(uses, f"subject {name!r}: uses")
            self.subjects[name] = SubjectSpec(name, fn, uses)
            return fn

        return register

    def check(
        self,
        name: str,
        *,
        needs: tuple[str, ...],
        measures: tuple[str, ...],
        context: tuple[str, ...] = (),
        precision: Mapping[str, Precision] | None = None,
        subject_input: str | None = None,
        blames: Mapping[str, tuple[str, ...]] | None = None,
        generator_input: str | None = None,
    ) -> Callable[[F], F]:
        def register(fn: F) -> F:
            _refuse_duplicate(self.checks, name, "check")
            for field_name, names in (
                ("needs", needs),
                ("measures", measures),
                ("context", context),
            ):
                _names(names, f"check {name!r}: {field_name}")
            for measure, subjects in (blames or {}).items():
                _blame(name, measure, subjects, measures, needs)
            params = inspect.signature(fn).parameters
            if next(iter(params), None) != "impl":
                raise PackRefused("packdef.first_impl", check=name)
            unknown = (set(context) | set(precision or {})) - set(measures)
            if unknown:
                raise PackRefused(
                    "packdef.not_measures", check=name, names=repr(sorted(unknown))[:200]
                )
            kinds = {m: k for m, k in (precision or {}).items() if k not in PRECISIONS}
            if kinds:
                raise PackRefused(
                    "packdef.precision", check=name, kinds=repr(kinds)[:200], known=list(PRECISIONS)
                )
            self.checks[name] = CheckSpec(
                name,
                fn,
                needs,
                measures,
                context,
                precision or {},
                subject_input,
                generator_input,
                {m: tuple(s) for m, s in (blames or {}).items()},
            )
            return fn

        return register

    def twin(
        self,
        twin_id: str,
        *,
        replaces: str,
        explanation: Bilingual,
        where: Bilingual,
        kind: Literal["fault", "mistake"] = "fault",
    ) -> Callable[[F], F]:
        def register(fn: F) -> F:
            _refuse_duplicate(self.twins, twin_id, "twin")
            _names((replaces,), f"{kind} {twin_id!r}: replaces")
            bilingual(explanation, f"{kind} {twin_id!r}: explanation")
            bilingual(where, f"{kind} {twin_id!r}: where")
            self.twins[twin_id] = TwinSpec(twin_id, replaces, fn, explanation, where, kind)
            return fn

        return register

    def mistake(
        self, twin_id: str, *, replaces: str, explanation: Bilingual, where: Bilingual
    ) -> Callable[[F], F]:
        return self.twin(
            twin_id, replaces=replaces, explanation=explanation, where=where, kind="mistake"
        )

    def generator(self, name: str, *, subject: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            _refuse_duplicate(self.generators, name, "generator")
            _names((subject,), f"generator {name!r}: subject")
            self.generators[name] = GeneratorSpec(name, subject, fn)
            return fn

        return register

    def challenge(self, module_id: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            _refuse_duplicate(self.challenges, module_id, "challenge")
            self.challenges[module_id] = fn
            return fn

        return register

    def unknown_subjects(self) -> list[tuple[Msg, str, list[str]]]:
        """(what names it, the name, the closest registered subjects) for each subject that
        a check's ``needs``, a subject's ``uses``, a twin's ``replaces`` or a generator's
        ``subject`` names and no ``@subject`` registers (known once the pack is imported)."""
        import difflib

        known = list(self.subjects)
        named = [
            *(
                (msg("pack.owner.needs", name=c.name), n)
                for c in self.checks.values()
                for n in c.needs
            ),
            *(
                (msg("pack.owner.uses", name=s.name), n)
                for s in self.subjects.values()
                for n in s.uses
            ),
            *(
                (msg("pack.owner.replaces", kind=t.kind, name=t.id), t.replaces)
                for t in self.twins.values()
            ),
            *((msg("pack.owner.for", name=g.name), g.subject) for g in self.generators.values()),
        ]
        return [
            (owner, name, difflib.get_close_matches(name, known, n=3, cutoff=0.5))
            for owner, name in named
            if name not in self.subjects
        ]

    def twins_off_signature(self) -> list[tuple[TwinSpec, list[str], list[str]]]:
        """(twin, its parameters, its subject's) for each twin that cannot be called as its
        subject is (by position, or every argument by name; leaving out the subjects it may
        take by keyword, as the reference does): it would raise TypeError in every claim
        and catch nothing for its fault's reason."""
        out = []
        for twin in self.twins.values():
            subject = self.subjects.get(twin.replaces)
            if subject is None:
                continue  # said as an unknown subject
            try:
                theirs = inspect.signature(subject.fn)
                ours = inspect.signature(twin.fn)
            except (TypeError, ValueError):
                continue
            names = [
                p for p in theirs.parameters.values()
                if not (p.kind is p.KEYWORD_ONLY and p.name in subject.uses)
            ]  # fmt: skip
            positional = [p.name for p in names if p.kind is not p.KEYWORD_ONLY]
            keywords = {p.name: p.name for p in names if p.kind is p.KEYWORD_ONLY}
            uses = {u: u for u in subject.uses if u in ours.parameters}
            # and called with its required arguments alone: a parameter the subject gives a
            # default must have one in the twin (a caller leaving it out gets the default)
            required = [p for p in names if p.default is p.empty]
            bare = [p.name for p in required if p.kind is not p.KEYWORD_ONLY]
            bare_keywords = {p.name: p.name for p in required if p.kind is p.KEYWORD_ONLY}
            try:
                ours.bind(*positional, **keywords, **uses)
                ours.bind(**{p.name: p.name for p in names}, **uses)
                ours.bind(*bare, **bare_keywords, **uses)
            except TypeError:
                out.append((twin, list(ours.parameters), [p.name for p in names]))
        return out

    # -- lookup -------------------------------------------------------------------------
    def resolve_check(self, name: str) -> CheckSpec:
        """The pack's own check of that name, else the engine's generic one."""
        found = self.find_check(name)
        if found is None:
            raise UnknownName("check", name, [*self.checks, *_builtin_checks()]) from None
        return found

    def find_check(self, name: str) -> CheckSpec | None:
        return self.checks.get(name) or _builtin_checks().get(name)

    def resolve_twin(self, twin_id: str) -> TwinSpec:
        try:
            return self.twins[twin_id]
        except KeyError:
            faults = [t.id for t in self.twins.values() if t.kind == "fault"]
            raise UnknownName("fault", twin_id, faults) from None

    def resolve_generator(self, name: str) -> GeneratorSpec:
        try:
            return self.generators[name]
        except KeyError:
            raise UnknownName("generator", name, list(self.generators)) from None

    def twins_of(self, subject: str) -> list[TwinSpec]:
        return [t for t in self.twins.values() if t.replaces == subject]

    # -- implementations ----------------------------------------------------------------
    def reference(self) -> Implementation:
        return Implementation("reference", "reference", self._bind({}))

    def with_fault(self, twin_id: str) -> Implementation:
        twin = self.resolve_twin(twin_id)
        functions = self._bind({twin.replaces: twin.fn})
        return Implementation("fault", twin_id, functions, replaced=(twin.replaces,))

    def reaching(self, name: str) -> frozenset[str]:
        """Every subject whose reference behaviour changes when ``name`` is replaced:
        ``name`` itself and, transitively, the reference functions that use it."""
        reached = {name}
        grew = True
        while grew:
            grew = False
            for spec in self.subjects.values():
                if spec.name not in reached and reached.intersection(spec.uses):
                    reached.add(spec.name)
                    grew = True
        return frozenset(reached)

    def _bind(self, overrides: Mapping[str, SubjectFn]) -> dict[str, SubjectFn]:
        """Reference functions with ``overrides`` in place and dependencies bound to them."""
        raw = {name: overrides.get(name, spec.fn) for name, spec in self.subjects.items()}
        bound: dict[str, SubjectFn] = {}

        def resolve(name: str, seen: tuple[str, ...]) -> SubjectFn:
            if name in bound:
                return bound[name]
            if name in seen:
                raise RuntimeError(f"subjects depend on each other in a cycle: {(*seen, name)}")
            spec = self.subjects[name]
            fn = raw[name]
            # The reference functions receive what they use from the implementation; a twin
            # or a mistake does too when it takes them as the reference does (keyword-only,
            # same names), else it calls what it calls.
            wanted = spec.uses if name not in overrides else _keyword_only(fn, spec.uses)
            if wanted:
                deps = {dep: resolve(dep, (*seen, name)) for dep in wanted}
                fn = functools.wraps(fn)(functools.partial(fn, **deps))
            bound[name] = fn
            return fn

        for name in raw:
            resolve(name, ())
        return bound

    def __iter__(self) -> Iterator[str]:
        return iter(self.checks)


def _keyword_only(fn: Callable[..., Any], names: tuple[str, ...]) -> tuple[str, ...]:
    """Which of ``names`` ``fn`` takes as keyword-only parameters."""
    try:
        parameters = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return ()
    kw = inspect.Parameter.KEYWORD_ONLY
    return tuple(n for n in names if n in parameters and parameters[n].kind is kw)


def _builtin_checks() -> Mapping[str, CheckSpec]:
    """The engine's generic checks, which every pack's claims may name (see
    :mod:`runner.pack.contract`); imported on first use."""
    from runner.pack.contract import BUILTIN_CHECKS

    return BUILTIN_CHECKS


def _blame(
    check: str, measure: str, subjects: Any, measures: tuple[str, ...], needs: tuple[str, ...]
) -> None:
    """One entry of a check's ``blames``, refused with the part that is wrong."""
    where = f"check {check}: blames={{{measure!r}: {subjects!r}}}"
    if measure not in measures:
        raise PackRefused(
            "packdef.blame_measure", where=where, measure=measure, measures=list(measures)
        )
    if isinstance(subjects, str) or not isinstance(subjects, (tuple, list)) or not subjects:
        # a bare string would be read letter by letter
        raise PackRefused("packdef.blame_tuple", where=where, example=f"({subjects!r},)")
    unknown = [s for s in subjects if s not in needs]
    if unknown:
        raise PackRefused(
            "packdef.blame_unknown",
            where=where,
            unknown=", ".join(map(repr, unknown)),
            needs=list(needs),
        )


def _refuse_duplicate(table: Mapping[str, object], name: str, kind: str) -> None:
    if name in table:
        raise PackRefusedValue("packdef.twice", kind=kind, name=name)
