"""One registry for everything a claim can name.

Three kinds of entries live here, each keyed by name:

* **subjects**: the chapter's functions (``softmax_temperature``, ...), i.e. what is judged.
  The reference versions are our NumPy code.
* **checks**: functions that take an :class:`Implementation` and inputs and return named
  measurements. Claims name checks; checks never import subjects directly.
* **twins**: broken alternatives of a subject, one per fault id. Injecting a fault is
  nothing more than building an implementation where the twin stands in for the subject.

An :class:`Implementation` is an immutable mapping from subject names to functions, so a
reference run, a fault run and a learner run are the same operation with a different map.
"""

from __future__ import annotations

import difflib
import functools
import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, TypeVar

SubjectFn = Callable[..., Any]
Measurements = dict[str, Any]
CheckFn = Callable[..., Measurements]
ImplKind = Literal["reference", "fault", "learner"]
F = TypeVar("F", bound=Callable[..., Any])


class MissingSubject(LookupError):
    """The implementation being judged does not provide a function a check needs."""

    def __init__(self, name: str, implementation: str) -> None:
        super().__init__(f"{implementation} does not implement {name}()")
        self.name = name


class UndeclaredSubject(RuntimeError):
    """A check called a subject it did not declare in ``needs`` (a bug in the check)."""


@dataclass(frozen=True)
class SubjectSpec:
    name: str
    fn: SubjectFn
    # Other subjects this reference function calls. They are passed as keyword-only
    # arguments of the same name, so a fault in one of them propagates to its callers
    # exactly as it would in real code, without any global state.
    uses: tuple[str, ...] = ()


@dataclass(frozen=True)
class CheckSpec:
    name: str
    fn: CheckFn
    needs: tuple[str, ...]
    measures: tuple[str, ...]

    @functools.cached_property
    def signature(self) -> inspect.Signature:
        return inspect.signature(self.fn)

    def input_parameters(self) -> dict[str, inspect.Parameter]:
        """The parameters a claim's ``inputs`` may bind (all but ``impl`` and ``rng``)."""
        return {
            name: p for name, p in self.signature.parameters.items() if name not in ("impl", "rng")
        }


@dataclass(frozen=True)
class TwinSpec:
    fault_id: str
    replaces: str
    fn: SubjectFn


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

    def __getitem__(self, name: str) -> SubjectFn:
        if self.allowed is not None and name not in self.allowed:
            raise UndeclaredSubject(f"the check calls {name}() without declaring it in needs")
        try:
            return self.functions[name]
        except KeyError:
            raise MissingSubject(name, self.describe()) from None

    def restricted(self, needs: tuple[str, ...]) -> Implementation:
        """The same implementation, refusing any subject outside ``needs``.

        Checks run against this view, so their ``needs`` are known to be complete, which is
        what lets fault injection skip the claims a fault cannot reach.
        """
        return replace(self, allowed=frozenset(needs))

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


class UnknownName(LookupError):
    """A name that is not registered; carries the closest registered names."""

    def __init__(self, kind: str, name: str, known: list[str]) -> None:
        self.kind = kind
        self.name = name
        self.close = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
        self.known = sorted(known)
        hint = f"; did you mean {', '.join(self.close)}?" if self.close else ""
        super().__init__(f"unknown {kind} {name!r}{hint}")


class Registry:
    def __init__(self) -> None:
        self.subjects: dict[str, SubjectSpec] = {}
        self.checks: dict[str, CheckSpec] = {}
        self.twins: dict[str, TwinSpec] = {}

    # -- registration -------------------------------------------------------------------
    def subject(self, name: str, *, uses: tuple[str, ...] = ()) -> Callable[[F], F]:
        def register(fn: F) -> F:
            _refuse_duplicate(self.subjects, name, "subject")
            self.subjects[name] = SubjectSpec(name, fn, uses)
            return fn

        return register

    def check(
        self, name: str, *, needs: tuple[str, ...], measures: tuple[str, ...]
    ) -> Callable[[F], F]:
        def register(fn: F) -> F:
            _refuse_duplicate(self.checks, name, "check")
            params = inspect.signature(fn).parameters
            if next(iter(params), None) != "impl":
                raise TypeError(f"check {name}: first parameter must be 'impl'")
            self.checks[name] = CheckSpec(name, fn, needs, measures)
            return fn

        return register

    def twin(self, fault_id: str, *, replaces: str) -> Callable[[F], F]:
        def register(fn: F) -> F:
            _refuse_duplicate(self.twins, fault_id, "fault twin")
            self.twins[fault_id] = TwinSpec(fault_id, replaces, fn)
            return fn

        return register

    # -- lookup -------------------------------------------------------------------------
    def resolve_check(self, name: str) -> CheckSpec:
        try:
            return self.checks[name]
        except KeyError:
            raise UnknownName("check", name, list(self.checks)) from None

    def resolve_twin(self, fault_id: str) -> TwinSpec:
        try:
            return self.twins[fault_id]
        except KeyError:
            raise UnknownName("fault", fault_id, list(self.twins)) from None

    # -- implementations ----------------------------------------------------------------
    def reference(self) -> Implementation:
        return Implementation("reference", "reference", self._bind({}))

    def with_fault(self, fault_id: str) -> Implementation:
        twin = self.resolve_twin(fault_id)
        functions = self._bind({twin.replaces: twin.fn})
        return Implementation("fault", fault_id, functions, replaced=(twin.replaces,))

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
            # An override is someone else's code: it calls what it calls. Only our own
            # reference functions receive their dependencies from the implementation.
            if spec.uses and name not in overrides:
                deps = {dep: resolve(dep, (*seen, name)) for dep in spec.uses}
                fn = functools.wraps(fn)(functools.partial(fn, **deps))
            bound[name] = fn
            return fn

        for name in raw:
            resolve(name, ())
        return bound

    def __iter__(self) -> Iterator[str]:
        return iter(self.checks)


def _refuse_duplicate(table: Mapping[str, object], name: str, kind: str) -> None:
    if name in table:
        raise ValueError(f"{kind} {name!r} is registered twice")


REGISTRY = Registry()
subject = REGISTRY.subject
check = REGISTRY.check
twin = REGISTRY.twin
