"""Validate: every claim can run before any claim runs.

Finds the pack each module names (:mod:`runner.pack.find`), then checks that each claim's
check exists in that pack (or among the engine's generic checks), its inputs bind to the
check's signature with the right types, each expected measurement is one the check returns,
and ids and metric names are unique. One module's problems are that module's:
:func:`load_modules` returns the modules that can run beside the problems of the others;
:func:`load_runnable` raises :class:`InvalidClaims` listing every problem.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import inspect
import typing
from collections.abc import Mapping, Set
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter, ValidationError

from runner.errors import InvalidClaims
from runner.facts import UNITS, bad_specs, template_refs
from runner.i18n import Msg, msg
from runner.load import MODULE_FILE, ClaimPack, LoadedClaim, LoadedFault, display_path, read_modules
from runner.models import Raises
from runner.pack import CheckSpec, Pack, Registry, UnknownName
from runner.pack.registry import INJECTED
from runner.problems import Problem

InputProblem = tuple[str, Msg, tuple[str, ...]]  # (field, message, path in the claim)
# module.yaml's `pack:` -> a pack given by the caller, used before looking anywhere else
Packs = Mapping[str, Pack]


def load_runnable(paths: list[Path], packs: Packs | None = None) -> list[ClaimPack]:
    """Load and validate: format problems and pack problems are raised together, so a
    person fixes everything in one pass."""
    runnable, problems = load_modules(paths, packs)
    if problems:
        raise InvalidClaims(problems)
    return runnable


def load_modules(
    paths: list[Path], packs: Packs | None = None
) -> tuple[list[ClaimPack], list[Problem]]:
    """Every module named by ``paths`` that can run (its files valid, its pack found, every
    claim bound to a check of it), and the problems of those that cannot."""
    runnable: list[ClaimPack] = []
    problems: list[Problem] = []
    named: dict[str, tuple[Any, Path]] = {}  # a pack's name -> the pack, the module first with it
    for module in read_modules(paths):
        found = list(module.problems)
        claims = module.claims
        if claims is not None:
            claims = with_pack(claims, found, packs)
            if claims.pack is not None and _named_twice(claims, named, found):
                claims = dataclasses.replace(claims, pack=None)
            if claims.pack is not None:
                # a claim file that could not be read leaves claims out: what names them is
                # not a problem of its own then
                found += runnable_problems([claims], partial=bool(found))
        if found:
            problems += found
        elif claims is not None:
            runnable.append(claims)
    return runnable, problems


def _named_twice(
    claims: ClaimPack, named: dict[str, tuple[Any, Path]], problems: list[Problem]
) -> bool:
    """Whether ``claims``'s pack is another pack of a name an earlier module's pack has
    (errors, reports and ``list --format json`` name a pack by it): said as a problem of
    this module. One pack shared by two modules is fine."""
    code = claims.pack
    name = getattr(code, "name", None)
    if not isinstance(name, str):
        return False
    first = named.setdefault(name, (code, claims.directory))
    if first[0] is code or _files(first[0]) == _files(code):
        return False  # one pack, or its code imported again (a module copied, a link)
    where = display_path(first[1] / MODULE_FILE)
    problem = msg("claim.pack_name_twice", name=name, where=where)
    path = display_path(claims.directory / MODULE_FILE)
    problems.append(Problem.in_file(path, claims.pack_line, problem, field="pack"))
    return True


def _files(pack: Any) -> frozenset[str]:
    """The real paths of the files that define a pack's reference functions."""
    import os

    subjects = getattr(getattr(pack, "registry", None), "subjects", {})
    code = (getattr(s.fn, "__code__", None) for s in subjects.values())
    return frozenset(os.path.realpath(c.co_filename) for c in code if c is not None)


def with_pack(claims: ClaimPack, problems: list[Problem], packs: Packs | None) -> ClaimPack:
    """``claims`` with the pack its module.yaml names, or as it is with the reason why not."""
    from runner.pack.find import PackNotFound, find_pack

    name = claims.meta.pack
    try:
        pack = (packs or {}).get(name) or find_pack(name, claims.directory)
    except PackNotFound as exc:
        where = display_path(claims.directory / MODULE_FILE)
        problems.append(Problem.in_file(where, claims.pack_line, exc.message, field="pack"))
        return claims
    return dataclasses.replace(claims, pack=pack)


def ensure_runnable(packs: list[ClaimPack]) -> None:
    problems = runnable_problems(packs)
    if problems:
        raise InvalidClaims(problems)


def runnable_problems(packs: list[ClaimPack], partial: bool = False) -> list[Problem]:
    """Every problem of claims that have their shape (``partial``: some of the module's
    claim files could not be read, so its claims are not all there)."""
    problems: list[Problem] = []
    for pack in packs:
        unchecked: set[str] = set()  # claims whose check is unknown: said once, at the claim
        registry = pack.code.registry
        seen_ids: dict[str, LoadedClaim] = {}
        seen_metrics: dict[str, LoadedClaim] = {}
        for loaded in pack.claims:
            claim = loaded.claim

            def problem(
                message: Msg, field: str, at: tuple[int | str, ...], lc: LoadedClaim = loaded
            ) -> None:
                line = lc.line_of(*at)
                problems.append(Problem.in_file(lc.file, line, message, lc.claim.id, field))

            if claim.id in seen_ids:
                first = seen_ids[claim.id]
                where = f"{first.file}:{first.line}"
                problem(msg("claim.duplicate_id", where=where), "id", ("id",))
            seen_ids.setdefault(claim.id, loaded)
            here: dict[str, int] = {}  # this claim's metrics: evidence holds each once
            for i, exp in enumerate(claim.expect):
                metric = metric_name(claim.id, exp.measure, exp.metric)
                other = seen_metrics.get(metric)
                # a repeated id already repeats its default metric names: reported once, above
                if other is not None and other is not loaded and other.claim.id != claim.id:
                    problem(
                        msg("claim.metric_twice", metric=metric, other=other.claim.id),
                        f"expect[{i}].metric",
                        ("expect", i, "metric"),
                    )
                elif metric in here:
                    problem(
                        msg("claim.metric_twice_here", metric=metric, other=here[metric]),
                        f"expect[{i}].metric",
                        ("expect", i, "metric"),
                    )
                here.setdefault(metric, i)
                seen_metrics.setdefault(metric, loaded)
            try:
                spec = registry.resolve_check(claim.check)
            except UnknownName as exc:
                problem(
                    msg("claim.unknown_check", check=claim.check, hint=_closest(exc.close)),
                    "check",
                    ("check",),
                )
                unchecked.add(claim.id)
                continue
            for field, message, at in input_problems(spec, claim.inputs):
                problem(message, field, at)
            if claim.expect and all(e.measure in spec.context for e in claim.expect):
                # each is computed from the inputs alone: any implementation would pass it
                problem(
                    msg("claim.context_only", check=spec.name, measures=", ".join(
                        m for m in spec.measures if m not in spec.context) or "-"),
                    "expect",
                    ("expect",),
                )  # fmt: skip
            for field, message in named_problems(spec, claim.inputs, registry):
                problem(message, f"inputs.{field}", ("inputs", field))
            for i, exp in enumerate(claim.expect):
                if exp.measure not in spec.measures:
                    problem(
                        msg(
                            "claim.unknown_measure",
                            check=spec.name,
                            measure=exp.measure,
                            measures=", ".join(spec.measures),
                        ),
                        f"expect[{i}].measure",
                        ("expect", i, "measure"),
                    )
                if (
                    isinstance(exp.tolerance, Raises)
                    and exp.tolerance.error not in _exception_names()
                ):
                    close = difflib.get_close_matches(exp.tolerance.error, _exception_names(), n=1)
                    problem(
                        msg("claim.not_exception", error=exp.tolerance.error, hint=_closest(close)),
                        f"expect[{i}].tolerance.error",
                        ("expect", i, "tolerance", "error"),
                    )
        problems.extend(fault_problems(pack, registry, partial, unchecked))
        where = display_path(pack.directory / MODULE_FILE)
        for owner, name, close in registry.unknown_subjects():
            message = msg("pack.unknown_subject", owner=owner, name=name, hint=_closest(close))
            problems.append(Problem.in_file(where, pack.pack_line, message, field="pack"))
        from runner.pack.find import defined_at

        for twin, ours, theirs in registry.twins_off_signature():
            message = msg(
                "pack.twin_signature", kind=twin.kind, id=twin.id, at=defined_at(twin.fn),
                params=", ".join(ours), subject=twin.replaces, expected=", ".join(theirs),
            )  # fmt: skip
            problems.append(Problem.in_file(where, pack.pack_line, message, field="pack"))
    return problems


def fault_problems(
    pack: ClaimPack, registry: Registry, partial: bool = False, unchecked: Set[str] = frozenset()
) -> list[Problem]:
    """A fault must name a registered twin of the subject it says it replaces, and catchers
    and observed measurements that exist in the module. A claim missing from a ``partial``
    module, or one whose check is ``unchecked`` (unknown), has its own problem already."""

    def absent(claim_id: str) -> bool:  # a claim named that is not there, for a reason of its own
        return pack.claim(claim_id) is None and not partial

    out: list[Problem] = []
    seen: set[str] = set()
    for lf in pack.faults:
        fault = lf.fault

        def problem(message: Msg, field: str | None = None, lf: LoadedFault = lf) -> None:
            out.append(Problem.in_file(lf.file, lf.line, message, lf.fault.id, field, kind="fault"))

        if fault.id in seen:
            problem(msg("fault.duplicate_id"), "id")
        seen.add(fault.id)
        reached: frozenset[str] | None = None  # what the fault changes, once its twin is known
        try:
            twin = registry.resolve_twin(fault.id)
        except UnknownName as exc:
            problem(msg("fault.no_twin", hint=_closest(exc.close)), "id")
        else:
            if twin.kind == "fault" and twin.replaces == fault.replaces:
                reached = registry.reaching(twin.replaces)
            if twin.kind != "fault":  # a mistake the diagnosis names: no row of the fault table
                problem(msg("fault.is_mistake"), "id")
            if twin.replaces != fault.replaces:
                problem(
                    msg("fault.wrong_subject", twin=twin.replaces, declared=fault.replaces),
                    "replaces",
                )

        for i, catcher in enumerate(fault.catchers):
            if absent(catcher):
                problem(_no_claim(catcher, pack), f"catchers[{i}]")
            elif (said := _unreached(pack, registry, reached, unchecked, catcher)) is not None:
                problem(said, f"catchers[{i}]")
        for i, fact in enumerate(fault.observed):
            loaded = pack.claim(fact.claim)
            if loaded is None:
                if absent(fact.claim):
                    problem(_no_claim(fact.claim, pack), f"observed[{i}].claim")
                continue
            if (said := _unreached(pack, registry, reached, unchecked, fact.claim)) is not None:
                problem(said, f"observed[{i}].claim")
            spec = registry.find_check(loaded.claim.check)
            if spec is not None and fact.measure not in spec.measures:
                problem(
                    msg("fault.no_measure", check=spec.name, measure=fact.measure),
                    f"observed[{i}].measure",
                )
            for lang in ("zh", "en"):
                for placeholder in bad_specs(getattr(fact.fact, lang)):
                    problem(
                        msg("fault.bad_spec", ref=placeholder, units=sorted(UNITS)),
                        f"observed[{i}].fact.{lang}",
                    )
                for ref_claim, ref_measure in template_refs(getattr(fact.fact, lang)):
                    ref = pack.claim(ref_claim)
                    if ref_claim in unchecked or (ref is None and not absent(ref_claim)):
                        continue
                    ref_spec = registry.find_check(ref.claim.check) if ref else None
                    if ref_spec is None or ref_measure not in ref_spec.measures:
                        problem(
                            msg("fault.bad_ref", ref=f"{{{ref_claim}/{ref_measure}}}"),
                            f"observed[{i}].fact.{lang}",
                        )
    return out


def _unreached(
    pack: ClaimPack,
    registry: Registry,
    reached: frozenset[str] | None,
    unchecked: Set[str],
    claim_id: str,
) -> Msg | None:
    """A claim of the module that calls nothing the fault changes (``reached``): its run
    under the fault is the reference's, so it can neither catch it nor show it."""
    found = pack.claim(claim_id)
    spec = registry.find_check(found.claim.check) if found else None
    if reached is None or found is None or spec is None or claim_id in unchecked:
        return None
    try:
        needs = set(spec.needs_of(found.claim.inputs))
    except Exception:  # inputs that do not bind: said as the claim's own problem
        return None
    if needs & reached or not needs <= set(registry.subjects):
        return None  # reached, or needing what the pack lacks (the claim's own problem)
    return msg("fault.unreached", claim=claim_id, reached=", ".join(sorted(reached)))


def named_problems(
    spec: CheckSpec, inputs: dict[str, Any], registry: Registry
) -> list[tuple[str, Msg]]:
    """(input, message) for a subject or a generator that a generic check's inputs name and
    the pack does not have, or a generator made for another subject than the one named: on
    load, with the claim's line, not as the check's error when it runs."""
    out: list[tuple[str, Msg]] = []
    subject = inputs.get(spec.subject_input) if spec.subject_input else None
    if isinstance(subject, str) and subject not in registry.subjects:
        close = difflib.get_close_matches(subject, list(registry.subjects), n=3, cutoff=0.5)
        out.append((spec.subject_input or "", msg("claim.unknown_subject", name=subject,
                                                   hint=_closest(close))))  # fmt: skip
        subject = None  # its generator is not compared with a subject that is not there
    generator = inputs.get(spec.generator_input) if spec.generator_input else None
    if isinstance(generator, str):
        try:
            made = registry.resolve_generator(generator)
        except UnknownName as exc:
            message = msg("claim.unknown_generator", name=generator, hint=_closest(exc.close))
            out.append((spec.generator_input or "", message))
        else:
            if isinstance(subject, str) and made.subject != subject:
                message = msg(
                    "claim.generator_subject", name=generator, made=made.subject, named=subject
                )
                out.append((spec.generator_input or "", message))
    return out


def metric_name(claim_id: str, measure: str, metric: str | None) -> str:
    return metric or f"{claim_id}.{measure}"


def input_problems(spec: CheckSpec, inputs: dict[str, Any]) -> list[InputProblem]:
    """(field, message, path) for every way ``inputs`` fails to fit the check's signature."""
    every = spec.input_parameters()
    # a check taking **kwargs takes any name; *args binds none (inputs are passed by name)
    open_ended = any(p.kind is p.VAR_KEYWORD for p in every.values())
    params = {n: p for n, p in every.items() if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
    out: list[InputProblem] = []
    for name in inputs:
        if name in INJECTED:
            message = msg("claim.injected_input", name=name)
            out.append((f"inputs.{name}", message, ("inputs", name)))
        elif name not in params and not open_ended:
            expected: Msg | str = ", ".join(params) or msg("claim.no_inputs")
            out.append(
                (
                    f"inputs.{name}",
                    msg("claim.unknown_input", check=spec.name, name=name, expected=expected),
                    ("inputs", name),
                )
            )
    for name, param in params.items():
        if name not in inputs and param.default is inspect.Parameter.empty:
            out.append((f"inputs.{name}", msg("claim.missing_input", check=spec.name), ("inputs",)))
    hints, bounded = _hints(spec), _hints(spec, extras=True)
    for name, value in inputs.items():
        if name in params and name in hints:
            adapter = _adapter(bounded[name])
            if adapter is None:  # a type no claim file can hold (np.ndarray): the check's own
                continue
            try:
                adapter.validate_python(value, strict=True)
            except ValidationError as exc:
                err = exc.errors()[0]
                where = "".join(f"[{p}]" for p in err["loc"])
                out.append((f"inputs.{name}{where}", _input_message(err, hints[name], value),
                            ("inputs", name)))  # fmt: skip
    return out


# pydantic's constraint errors, as the bound they name (the checks' bounds: checks/inputs.py)
_BOUNDS = {
    "less_than_equal": ("≤", "le"),
    "greater_than_equal": ("≥", "ge"),
    "less_than": ("<", "lt"),
    "greater_than": (">", "gt"),
    "too_long": ("≤", "max_length"),
    "too_short": ("≥", "min_length"),
}


def _input_message(err: Any, annotation: Any, value: Any) -> Msg:
    from runner.safeyaml import number_as_text

    fixed = number_as_text(err.get("input"))
    if fixed is not None:  # YAML 1.1 read 1e-9 as text
        return msg("claim.number_as_text", got=err["input"], fixed=fixed)
    bound = _BOUNDS.get(err["type"])
    limit = (err.get("ctx") or {}).get(bound[1]) if bound else None
    if bound is not None and isinstance(limit, int | float) and not isinstance(limit, bool):
        counted = err["type"] in ("too_long", "too_short")
        got = len(value) if counted and isinstance(value, list) else err.get("input")
        key = "claim.input_length" if counted else "claim.input_bound"
        number = isinstance(got, int | float) and not isinstance(got, bool)
        return msg(key, op=bound[0], limit=limit, got=got if number else repr(got)[:120])
    return msg("claim.input_type", type=_type_name(annotation), got=repr(value)[:120])


@functools.cache
def _hints(spec: CheckSpec, extras: bool = False) -> dict[str, Any]:
    # once per check, not per claim: evaluating a check's annotations costs ~0.1 ms; with
    # extras, the bounds a check puts on its inputs (Annotated) come too. A pack's
    # annotation that cannot be evaluated (a name only imported under TYPE_CHECKING) leaves
    # the inputs unchecked by type, as an unannotated check does.
    try:
        return typing.get_type_hints(spec.fn, include_extras=extras)
    except Exception:
        return {}


@functools.cache
def _adapter(annotation: Any) -> TypeAdapter[Any] | None:
    """How pydantic validates ``annotation``; None for a type it cannot (np.ndarray)."""
    try:
        return TypeAdapter(annotation)
    except Exception:
        return None


def _type_name(annotation: Any) -> str:
    if typing.get_args(annotation):
        return str(annotation).replace("typing.", "")
    return str(getattr(annotation, "__name__", annotation))


@functools.cache
def _exception_names() -> frozenset[str]:
    import builtins

    return frozenset(
        n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)
    ) | {"MissingSubject"}


def _no_claim(claim_id: str, pack: ClaimPack) -> Msg:
    """A fault names a claim its module does not have: said with the closest ids it has."""
    close = _close_ids(claim_id, pack)
    return msg("fault.no_claim", claim=claim_id, module=pack.meta.id, hint=_closest(close))


def _close_ids(claim_id: str, pack: ClaimPack) -> list[str]:
    """The module's claim ids closest to a misspelt one."""
    import difflib  # only for a name that is misspelt

    ids = [c.claim.id for c in pack.claims]
    return difflib.get_close_matches(claim_id, ids, n=3, cutoff=0.6)


def _closest(names: list[str]) -> Msg | str:
    return msg("claim.closest", names=", ".join(names)) if names else ""
