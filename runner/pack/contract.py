"""The engine's generic check ``matches_reference``: the implementation against the pack's
reference, on seeded cases that cover a function's whole signature (a generator the pack
registers, see :class:`Case`). Every pack's claims may name it.

The chapter's other claims ask one question each on a few inputs; a function can answer
those and still be wrong everywhere else (a scale, an axis, a tie rule, an ignored
argument). This check calls the function being judged and the reference on every case of a
registered generator and counts the cases where they disagree. The rules of agreement are
the contract a pack writes down for its functions (for chapter 23, the signature table and
the scaffold's docstrings):

* an array: the same shape and dtype (float64, except where a function keeps its input's
  dtype), finite wherever the reference is finite, and max|actual − expected| ≤
  atol + rtol · max|expected| (``dtype_rtol`` replaces rtol for float32/float16 results);
* a count: an integer (Python or NumPy, never a float or bool) equal to the exact count;
* a real number: within atol + rtol · |expected|;
* a dict: every key of the reference's, each value by these rules;
* where the reference raises ValueError (an invalid argument), the function must raise
  ValueError (or a subclass) too; raising anything else, or returning, is a mismatch.

Apart from agreeing, a function must leave its arguments as it found them (callers reuse
their arrays): every call is compared with a copy of its arguments taken before it, where
the function runs, and ``inputs_modified`` counts the calls that changed one.

A few cases are called **again** right after themselves, each time with one floating-point
array argument reordered (reversed along its last axis; the first such argument also along
its first, or rolled by one): the same shapes, other values; between two of these, the case
itself is called once more, as it was. A result kept from the first
call under a key that leaves that argument's values out (its shape, its id, another
argument's bytes) is handed out for the second and disagrees; so does a buffer reused from
call to call (three calls of one shape in a row reach a second buffer used in turn). Right
after such a case (and after the case with most floating arrays that are not float64, and the
last such; where no case has a floating array, the last with an array of numbers), its arrays
are reordered in place, in the very objects the case was called with (each reversed along its
last axis, its rows rolled by one), and the function called on them again
(:mod:`runner.in_place`): a result kept under an argument's ``id()``, with the argument held so
that the id stays its own, is handed out for other contents and disagrees. The smallest case
called again is also called as it was and then with its float64 arrays' same bytes read as
int64 (a result kept by bytes and shapes, not dtypes), where integer arrays are part of the
contract. (A matrix given as a vector is not asked by the engine: a function may read it as
NumPy would, and a pack's generator says where its contract refuses it.) They are answered by the
reference like any case and counted in ``mismatches`` and ``inputs_modified``; ``cases``
counts the generator's cases only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, NamedTuple, TypeVar

import numpy as np
from pydantic import Field

from runner.compare import (
    UNCHANGED,
    Difference,
    Elements,
    Policy,
    Raised,
    Scaled,
    first_difference,
)
from runner.kinds import BOOLS, INTS, NUMBERS, REALS, SEQUENCES
from runner.pack.outcome import PackRefused, PackRefusedValue, attempt
from runner.pack.registry import (
    Bilingual,
    CheckSpec,
    Implementation,
    Measurements,
    Registry,
    _copy,
)
from runner.returned import EARLIER_RESULT

# tuples built once, not unions built at every isinstance() (see runner.kinds)
_BOOL_OR_STR = (bool, str)

SMALL = 12  # arrays up to this many elements are recorded whole in a mismatch
MAPPING, TEXT = 64, 200  # a returned dict's keys recorded whole, and a text's characters
LABELS = 20  # distinct labels of mismatching cases kept
MAX_CASES = 10_000  # each case costs two calls or more
Count = Annotated[int, Field(ge=1, le=MAX_CASES)]
# the NumPy names of the floating dtypes a result may have (long double: float96 or float128)
FloatDtype = Literal["float16", "float32", "float64", "float96", "float128"]


# What kind of input a case is: a plain string, or the same words in each language
# ({"zh": ..., "en": ...}), recorded as given and shown in the reader's language.
Label = str | Bilingual


class Case(NamedTuple):
    """One call a generator makes: positional arguments, keyword arguments, and what kind of
    input it is (the label a mismatch is reported under: "float16 at T = 1e-5", or a
    mapping of that label in each language)."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    label: Label


def _course_bug(generator: Callable[..., Any], what: str) -> RuntimeError:
    """The reference refused a case of the pack's generator (a case it cannot take, or a bug
    of the reference's): said at the generator's line, not the engine's."""
    from runner.pack.find import defined_at

    exc = RuntimeError(f"the reference's {what}: a case it cannot take, or a bug of its own")
    exc.pack_line = defined_at(generator)  # type: ignore[attr-defined]
    return exc


def _asked(reference: Any, one: Case) -> Any:
    """The reference's answer to ``one`` (a value, or the exception it raised), on copies
    of its arguments: a case is kept to be asked again."""
    return attempt(reference, *_copy(one.args), **_copy(one.kwargs))


class InPlace(Case):
    """A case called on the objects of the call before it, their arrays written over with
    this case's contents (:mod:`runner.in_place`)."""

    __slots__ = ()


C = TypeVar("C", bound=Case)  # a case, or a case called in place


def case(label: Label, *args: Any, **kwargs: Any) -> Case:
    return Case(args, kwargs, label)


def matches_reference(
    impl: Implementation,
    registry: Registry,
    subject: str,
    generator: str,
    cases: Count,
    rng: np.random.Generator,
    rtol: float,
    atol: float = 0.0,
    dtype_rtol: dict[FloatDtype, float] | None = None,
) -> Measurements:
    """Any pack function: the same results as the pack's reference on the generator's cases.

    ``cases`` and ``invalid_cases`` (how many of them the contract answers with ValueError)
    come from the generator alone; ``mismatches`` counts the calls where the implementation
    disagrees with the reference: the generator's cases and the engine's own calls of some
    of them again (as they were, at once with an input reversed, on their own arrays written
    over, or with float64 bytes read as int64: see the module), so it may exceed ``cases``;
    ``mismatch_labels`` says which kinds of input, and ``first_mismatch`` shows the first
    one: its inputs (summarized), what the reference returned, what the implementation
    returned, and why they differ. ``inputs_modified`` counts the calls (the same calls) that
    changed one of its arguments (an array written in place) or an earlier call's result (a
    buffer written and handed out again: the caller's earlier result changes under it), and
    ``first_modification`` names the first such case, the arguments it changed and whether
    it changed an earlier result (``earlier_result``).
    """
    tolerance = agreement(rtol, atol, dtype_rtol)
    made, answers, again = oracle(registry, subject, generator, cases, rng)
    mismatches = 0
    invalid = 0
    labels: list[Label] = []
    first: dict[str, Any] | None = None
    modified = 0
    first_modification: dict[str, Any] | None = None
    # the calls, together, and which of its arguments each changed (compared where it ran)
    # each case, then the cases called again right after it (index: the generator's case)
    following: dict[int, list[tuple[Case, Any]]] = {}
    for i, one, expected in again:
        following.setdefault(i, []).append((one, expected))
    calls: list[tuple[int, Case, Any]] = []
    for i, (one, expected) in enumerate(zip(made, answers, strict=True)):
        calls.append((i, one, expected))
        calls.extend((i, o, e) for o, e in following.get(i, ()))
    fresh = [Case(_copy(one.args), _copy(one.kwargs), one.label) for _, one, _ in calls]
    over = [k for k, (_, one, _) in enumerate(calls) if isinstance(one, InPlace)]
    answered = impl.attempt_each(subject, fresh, in_place=over)
    repeated = {id(one) for _, one, _ in again}
    for (index, one, expected), answer in zip(calls, answered, strict=True):
        if isinstance(expected, Raised) and id(one) not in repeated:
            invalid += 1
        actual = answer if isinstance(answer, Raised) else answer[0]
        if not isinstance(answer, Raised) and answer[1]:
            modified += 1
            if first_modification is None:
                first_modification = {
                    "case": index,
                    "label": one.label,
                    "arguments": [a for a in answer[1] if a != EARLIER_RESULT],
                    # the call changed what an earlier call returned
                    "earlier_result": EARLIER_RESULT in answer[1],
                }
        why = _differ(expected, actual, tolerance)
        if why is None:
            continue
        mismatches += 1
        if one.label not in labels and len(labels) < LABELS:
            labels.append(one.label)
        if first is None:
            first = {
                "case": index,
                "label": one.label,
                "inputs": {
                    "args": [_summary(a) for a in one.args],
                    "kwargs": {k: _summary(v) for k, v in one.kwargs.items()},
                },
                "expected": _summary(expected),
                "actual": _summary(actual),
                "why": why,
            }
    return {
        "cases": len(made),
        "invalid_cases": invalid,
        "mismatches": mismatches,
        "mismatch_labels": labels,
        "first_mismatch": first,
        "inputs_modified": modified,
        "first_modification": first_modification,
    }


Again = list[tuple[int, Case, Any]]  # (the case it follows, the case, the reference's answer)


def oracle(
    registry: Registry, subject: str, generator: str, cases: int, rng: np.random.Generator
) -> tuple[list[Case], list[Any], Again]:
    """The generator's cases and the reference's answer to each (a value, or the ValueError
    it raised), and the cases called again (see the module). They depend only on the pack,
    the claim and its seed, so they are computed once per registry, whatever is judged (a
    fault's run, every learner of a class), and kept on it: what is kept is never handed
    out to be changed (every call gets a copy of the case's arguments; answers are only
    compared)."""
    state = rng.bit_generator.state
    key = f"{subject}|{generator}|{cases}|{state}"
    kept: tuple[list[Case], list[Any], Again] | None = registry.oracle.get(key)
    if kept is not None:
        return kept
    spec = registry.resolve_generator(generator)
    if spec.subject != subject:
        raise PackRefusedValue(
            "packdef.gen_subject", generator=generator, made_for=spec.subject, subject=subject
        )
    reference = registry.reference()[subject]
    made_by_generator = spec.fn(rng, cases)
    try:
        made = _cases(made_by_generator, generator, cases)
    except (TypeError, ValueError) as exc:
        from runner.pack.find import defined_at

        # refused here, in the engine: its author is told where the generator is
        exc.pack_line = defined_at(spec.fn)  # type: ignore[union-attr]
        raise
    answers = []
    for index, one in enumerate(made):
        expected = _asked(reference, one)
        if isinstance(expected, Raised) and "ValueError" not in expected.names:
            # our own generator or reference is wrong: said at the generator's line
            raise _course_bug(spec.fn, f"{subject}() {expected} on case {index} ({one.label})")
        answers.append(expected)
    if made and all(isinstance(a, Raised) for a in answers):
        from runner.pack.find import defined_at

        # a function that always raises ValueError would agree with every case
        refused = PackRefusedValue("packdef.gen_all_invalid", generator=generator, n=len(made))
        refused.pack_line = defined_at(spec.fn)  # type: ignore[attr-defined]
        raise refused
    again: Again = []

    def answer(one: Case) -> Any:
        expected = _asked(reference, one)
        if isinstance(expected, Raised) and "ValueError" not in expected.names:
            raise _course_bug(spec.fn, f"{subject}() {expected} on {one.label}")
        return expected

    eligible = _eligible(made, answers, _reorderable)
    called_again = _called_again(made, eligible)
    for index in sorted({*called_again, *_written_over(made, answers, eligible)}):
        original = made[index]
        # first, right after the case: its own arrays, reordered in place
        over = _reversed_all(original)
        if over is not None:
            expected = _asked(reference, over)
            if _fair(expected):  # reordered ids or bytes may be refused: a ValueError
                again.append((index, over, expected))
        if index not in called_again:
            continue
        # between two reordered calls, the case itself again: a cache that holds only its
        # last entry holds the case's when each reordered call comes
        repeat = Case(original.args, original.kwargs, _label_repeat(original.label))
        for at, one in enumerate(_reordered(original, reference)):
            if at:
                again.append((index, repeat, answers[index]))
            again.append((index, one, answer(one)))
    if called_again:
        again.extend(_variants(made, answers, called_again, eligible, reference))
    registry.oracle[key] = (made, answers, again)
    return made, answers, again


def _variants(
    made: list[Case],
    answers: list[Any],
    called_again: list[int],
    eligible: list[int],
    reference: Any,
) -> Again:
    """The engine's other calls of one case (the smallest called again that tells, else the
    smallest other that does): that case as it was and then its same bytes as int64 in the
    arguments the generator also gives as integer arrays (answered with a value), where the
    reference answers the bytes with finite numbers or a ValueError (a fair question): a
    result kept by the arguments' bytes and shapes, not their dtypes, is handed out again."""
    names = _names(reference)
    integers = _integer_arguments(made, answers, names)
    # the smallest whose twin the reference answers otherwise (a case of d = 1 normalizes
    # every row to 0, whatever its bytes: a result kept for them would be right), then any
    # other (the cases called again may hold no float64 array: a softmax's are float32)
    others = [i for i in eligible if i not in called_again]

    def size(i: int) -> int:
        return _weight(made[i])

    for index in [*sorted(called_again, key=size), *sorted(others, key=size)]:
        original = made[index]
        twin = _same_bytes_as_int64(original, names, integers)
        if twin is None:
            continue
        expected = _asked(reference, twin)
        if _fair(expected) and _differ(answers[index], expected, UNCHANGED) is not None:
            repeat = Case(original.args, original.kwargs, _label_repeat(original.label))
            return [(index, repeat, answers[index]), (index, twin, expected)]
    return []


def _named(one: Case, names: list[str]) -> list[tuple[str, Any]]:
    """Each argument of ``one`` with its parameter's name (``#i`` past the names known)."""
    given = [(names[i] if i < len(names) else f"#{i}", a) for i, a in enumerate(one.args)]
    return given + list(one.kwargs.items())


def _integer_arguments(made: list[Case], answers: list[Any], names: list[str]) -> set[str]:
    """The parameters some case gives as an integer array the reference answers with a
    value: where integers are part of the contract (another, such as a float-only gain,
    may be refused by a correct function whatever the reference does)."""
    return {
        name
        for one, expected in zip(made, answers, strict=True)
        if not isinstance(expected, Raised)
        for name, a in _named(one, names)
        if isinstance(a, np.ndarray) and a.dtype.kind in "iu"
    }


def _same_bytes_as_int64(one: Case, names: list[str], integers: set[str]) -> Case | None:
    """``one`` with each float64 array argument of ``integers`` read as int64 (the same
    bytes and shape); None where there is none."""

    def read(name: str, a: Any) -> Any:
        if name in integers and isinstance(a, np.ndarray) and a.dtype == np.float64 and a.size:
            return np.ascontiguousarray(a).view(np.int64)
        return a

    turned = [read(name, a) for name, a in _named(one, names)]
    zh = "其 float64 数组的同样字节按 int64 读（缓存须按 dtype 区分）"
    en = "its float64 arrays' same bytes read as int64 (a cache keyed by dtype)"
    return _rebuilt(one, turned, zh, en, Case)


def _rebuilt(one: Case, new: list[Any], zh: str, en: str, kind: type[C]) -> C | None:
    """``one`` with its arguments ``new`` (positional ones first, as :func:`_arguments`
    lists them), labelled as ``one`` and then what was done to it; None where every
    argument is the one given."""
    if all(a is b for a, b in zip(_arguments(one), new, strict=True)):
        return None
    args, values = new[: len(one.args)], new[len(one.args) :]
    said = _bilingual(one.label)
    label = {"zh": f"{said['zh']}，{zh}", "en": f"{said['en']}, {en}"}
    return kind(tuple(args), dict(zip(one.kwargs, values, strict=True)), label)


def _fair(expected: Any) -> bool:
    """Whether an answer of the reference's to an input the engine made is one to hold a
    function to: a ValueError, or a value whose numbers are all finite."""
    if isinstance(expected, Raised):
        return "ValueError" in expected.names
    return _finite(expected)


def _finite(value: Any) -> bool:
    if isinstance(value, np.ndarray):
        return value.dtype.kind not in "fc" or bool(np.all(np.isfinite(value)))
    if isinstance(value, float | np.floating):
        return math.isfinite(value)
    if isinstance(value, list | tuple):
        return all(_finite(v) for v in value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    return True


def _names(reference: Any) -> list[str]:
    """The reference's parameter names, to say an argument given by position."""
    import inspect

    try:
        return list(inspect.signature(reference).parameters)
    except (TypeError, ValueError):  # pragma: no cover - a reference Python cannot read
        return []


AGAIN = 2  # cases called again: the last with a floating array argument, and the largest
# a case of more than this is not called again: each is called at least three times more
# (a (1,025, 1,025) case called again tripled its claim's time)
AGAIN_MAX_BYTES = 2 * 1024 * 1024


def _called_again(made: list[Case], eligible: list[int]) -> list[int]:
    """Which cases are called again: of those the reference answers with a value and that
    have a floating array argument (and arrays of AGAIN_MAX_BYTES at most), the last (a
    random one: the edges come first) and the one whose arrays are largest (a buffer kept
    only for large inputs)."""
    if not eligible:
        return []
    largest = max(eligible, key=lambda i: _weight(made[i]))
    return sorted({*eligible[-(AGAIN - 1) :], largest})


def _eligible(made: list[Case], answers: list[Any], fits: Callable[[Any], bool]) -> list[int]:
    """The cases the reference answers with a value that have an argument ``fits`` takes
    (a floating array, to be reordered) and arrays of AGAIN_MAX_BYTES at most."""
    return [
        i
        for i, (one, expected) in enumerate(zip(made, answers, strict=True))
        if not isinstance(expected, Raised)
        and any(fits(a) for a in _arguments(one))
        and _weight(one) <= AGAIN_MAX_BYTES
    ]


def _weight(one: Case) -> int:
    """The bytes of a case's array arguments."""
    return sum(_nbytes(a) for a in _arguments(one))


def _written_over(made: list[Case], answers: list[Any], eligible: list[int]) -> list[int]:
    """Which cases are also called on their own arrays written over, beside those called
    again: of those with floating arrays that are not float64, the first with most of them and
    the last (a function that keeps a float64 copy of an argument under its id() keeps the
    argument itself when it is float64, and that one changes with it); where no case has a
    floating array, the last with an array of numbers (bytes, token ids)."""

    def others(i: int) -> int:
        return sum(_reorderable(a) and a.dtype != np.float64 for a in _arguments(made[i]))

    typed = [i for i in eligible if others(i)]
    chosen = {max(typed, key=lambda i: (others(i), -i)), typed[-1]} if typed else set()
    if not eligible:  # no floating array (bytes, token ids): the last case with numbers
        chosen |= set(_eligible(made, answers, _writable_over)[-1:])
    return sorted(chosen)


def _arguments(one: Case) -> list[Any]:
    return [*one.args, *one.kwargs.values()]


def _nbytes(value: Any) -> int:
    return value.nbytes if isinstance(value, np.ndarray) else 0


def _reorderable(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.size >= 2


def _reordered(one: Case, reference: Any) -> list[Case]:
    """``one`` again, once per floating array argument with that argument reversed along
    its last axis, and once more with the first such argument reversed along its first axis
    (a vector: rolled by one), skipping any that leaves the values as they were."""
    names = _names(reference)
    where = [(i, None) for i in range(len(one.args))] + [(None, k) for k in one.kwargs]
    out: list[Case] = []
    first = True
    for position, keyword in where:
        value = one.args[position] if position is not None else one.kwargs[keyword or ""]
        if not _reorderable(value):
            continue
        name = keyword or (names[position] if position is not None and position < len(names)
                           else f"#{position}")  # fmt: skip
        ways = [(np.flip(value, axis=-1), "reversed", "倒序")]
        if first:
            other = np.flip(value, axis=0) if value.ndim >= 2 else np.roll(value, 1, axis=-1)
            ways.append((other, "reordered", "换序"))
            first = False
        for changed, en, zh in ways:
            changed = np.ascontiguousarray(changed)
            if np.array_equal(changed, value, equal_nan=True):
                continue  # the same values: nothing a cache could get wrong
            args = list(one.args)
            kwargs = dict(one.kwargs)
            if position is not None:
                args[position] = changed
            else:
                kwargs[keyword or ""] = changed
            label = _label_again(one.label, name, en, zh)
            out.append(Case(tuple(args), kwargs, label))
    return out


def _bilingual(label: Label) -> Bilingual:
    """A case's label in each language (a plain label is the same in both)."""
    return {"zh": label, "en": label} if isinstance(label, str) else label


def _label_repeat(label: Label) -> Bilingual:
    said = _bilingual(label)
    return {"zh": f"{said['zh']}，原样再调用一次", "en": f"{said['en']}, called again as it was"}


def _label_again(label: Label, name: str, en: str, zh: str) -> Bilingual:
    said = _bilingual(label)
    return {
        "zh": f"{said['zh']}，紧接着再调用一次，{name} {zh}",
        "en": f"{said['en']}, called again at once with {name} {en}",
    }


def _reversed_all(one: Case) -> InPlace | None:
    """``one`` with each of its numeric array arguments reordered: reversed along its last
    axis and, with rows, its rows rolled by one (each row's values change, not only their
    order: a mean or a norm kept per row shows then), to be written into the arrays ``one``
    was called with (None where no value would change)."""

    def turned(a: Any) -> Any:
        if not _writable_over(a):
            return a
        b = np.flip(a, -1)
        b = np.roll(b, 1, axis=0) if a.ndim >= 2 else b
        return a if np.array_equal(a, b, equal_nan=True) else np.ascontiguousarray(b)

    new = [turned(a) for a in _arguments(one)]
    zh = "再写入同一批数组（各数组倒序、行轮换）后调用"
    en = "called again on the same arrays, each reordered in place"
    return _rebuilt(one, new, zh, en, InPlace)


def _writable_over(value: Any) -> bool:
    """An array whose values a call on the same objects can reorder: numbers, two or more."""
    return isinstance(value, np.ndarray) and value.dtype.kind in "iuf" and value.size >= 2


def _cases(made: Any, generator: str, n: int) -> list[Case]:
    """A generator's answer as cases, or a check error naming the generator: exactly ``n``
    calls, each a :class:`Case` or an ``(args, kwargs)`` pair (a contract of fewer cases
    than its claim says would pass on less, and on none at all)."""
    if not isinstance(made, SEQUENCES):
        raise PackRefused("packdef.gen_not_list", generator=generator, type=type(made).__name__)
    out: list[Case] = []
    for index, one in enumerate(made):
        if isinstance(one, Case):
            label: Any = one.label
            texts = [label] if isinstance(label, str) else None
            if isinstance(label, dict) and set(label) == {"zh", "en"}:
                texts = list(label.values())
            if texts is None or not all(isinstance(t, str) for t in texts):
                # shown in the reader's language: text, or text in each language
                raise PackRefused(
                    "packdef.gen_label", generator=generator, index=index, label=repr(label)[:80]
                )
            out.append(one)
        elif (
            isinstance(one, SEQUENCES)
            and len(one) == 2
            and isinstance(one[0], SEQUENCES)
            and isinstance(one[1], dict)
        ):
            out.append(Case(tuple(one[0]), dict(one[1]), "case"))
        elif isinstance(one, SEQUENCES) and len(one) == 2 and isinstance(one[1], dict):
            # (x, {}): the arguments are a tuple of them, ((x,), {})
            raise PackRefused(
                "packdef.gen_args_not_tuple",
                generator=generator,
                index=index,
                type=type(one[0]).__name__,
            )
        else:
            raise PackRefused(
                "packdef.gen_not_case", generator=generator, index=index, type=type(one).__name__
            )
    if len(out) != n:
        raise PackRefusedValue("packdef.gen_count", generator=generator, made=len(out), asked=n)
    return out


def agreement(
    rtol: float, atol: float = 0.0, dtype_rtol: Mapping[Any, float] | None = None
) -> Policy:
    """The contract's rules of agreement (see the module) as the comparison engine's policy."""
    return Policy(
        Scaled(rtol, atol, dict(dtype_rtol or {})),
        numbers="counts",
        nonfinite="same_inf",  # finite where the reference is; its infinities the same
        keys="expected",
        sequences="or_array",
        lists_as_arrays="numbers",
        dtypes="any_integer",
        zero_d="actual",
        raised="ValueError",
    )


def _differ(expected: Any, actual: Any, policy: Policy) -> dict[str, Any] | None:
    """None when ``actual`` agrees with ``expected`` under the contract, else why not (the
    key and the index of the place, outermost, beside the reason)."""
    found = first_difference(expected, actual, policy)
    if found is None:
        return None
    why = _why(found)
    for step, name in reversed(found.path):
        why = {**why, step: name}
    return why


def _why(d: Difference) -> dict[str, Any]:
    """The reason for one difference, as the evidence records it."""
    e, a, got = d.expected, d.actual, d.read_as
    if d.kind == "raised":
        if not isinstance(e, Raised):
            return {"why": "raised", "raised": a.error, "message": a.message}
        if isinstance(a, Raised):
            return {"why": "other_error", "raised": a.error, "message": a.message}
        return {"why": "no_error", "expected": "ValueError"}
    if d.kind == "missing_key":
        return {"why": "missing_key"}
    if d.kind == "type":
        listed = isinstance(e, np.ndarray) and isinstance(a, list)
        got_kind = "a list that is not an array" if listed else _kind(a)
        return {"why": "type", "expected": _expected_kind(e), "got": got_kind}
    if d.kind == "length":
        return {"why": "length", "expected": len(e), "got": len(a)}
    if isinstance(e, np.ndarray):
        assert got is not None  # an array's shape, dtype and values are compared as read
        if d.kind == "shape":
            return {"why": "shape", "expected": list(e.shape), "got": list(got.shape)}
        if d.kind == "dtype":
            wanted = "an integer dtype" if e.dtype.kind in "iu" else e.dtype.name
            return {"why": "dtype", "expected": wanted, "got": got.dtype.name}
        return _array_why(d.kind, e, got, d.elements)
    if isinstance(e, INTS):  # a count
        return {"why": "count", "difference": int(a) - int(e)}
    if d.kind == "not_finite":
        return {"why": "not_finite", "got": _number(_float_or_int(a))}
    if isinstance(e, REALS):
        return {"why": "value", "difference": float(a) - e, "allowed": d.allowed}
    return {"why": "value"}


def _array_why(
    kind: str, e: np.ndarray[Any, Any], got: np.ndarray[Any, Any], el: Elements | None
) -> dict[str, Any]:
    if el is None:  # arrays of something else than numbers
        return {"why": "value"}
    if kind == "not_finite":
        at = el.first_not_finite or el.first
        return {
            "why": "not_finite",
            "count": el.not_finite,
            "at": list(at),
            "got": _number(float(got[at])),
            # the two values where they part, as a value mismatch shows them (NaN against
            # -1.34 says what two summaries of same-shaped arrays cannot)
            "expected_at": _number(float(e[at])),
            "actual_at": _number(float(got[at])),
        }
    if el.worst is None or e.dtype.kind != "f":  # integer ids and flags: the first
        return {
            "why": "value",
            "at": list(el.first),
            "expected_at": int(e[el.first]),
            "actual_at": int(got[el.first]),
        }
    return {
        "why": "value",
        "max_abs_difference": el.deviation,
        "allowed": el.allowed,
        "at": list(el.worst),
        "expected_at": float(e[el.worst]),
        "actual_at": float(got[el.worst]),
    }


def _expected_kind(e: Any) -> str:
    if isinstance(e, dict):
        return "dict"
    if isinstance(e, np.ndarray):
        return "array"
    if isinstance(e, SEQUENCES):
        return "sequence"
    if isinstance(e, BOOLS):
        return "bool"
    if isinstance(e, INTS):
        return "int"
    if isinstance(e, REALS):
        return "float"
    return _kind(e)


def _float_or_int(x: Any) -> Any:
    try:
        return float(x)
    except OverflowError:  # an integer too large for a float: shown whole
        return x


# -- summaries: plain data for the evidence ---------------------------------------------------
def _summary(value: Any) -> Any:
    """A value as plain, finite JSON data: small arrays whole, large ones by shape and range."""
    if isinstance(value, Raised):
        return {"raised": value.error, "message": value.message}
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "biuf":
            return {"array": list(value.shape), "dtype": value.dtype.name}
        if value.size <= SMALL:
            return {
                "array": [_number(x) for x in value.ravel().tolist()],
                "shape": list(value.shape),
                "dtype": value.dtype.name,
            }
        finite = value[np.isfinite(value)] if value.dtype.kind == "f" else value
        out: dict[str, Any] = {"shape": list(value.shape), "dtype": value.dtype.name}
        if finite.size:
            out["min"], out["max"] = _number(finite.min().item()), _number(finite.max().item())
        if value.dtype.kind == "f":
            out["non_finite"] = int(value.size - finite.size)
        return out
    if isinstance(value, np.generic):
        return {"numpy": value.dtype.name, "value": _number(value.item())}
    if isinstance(value, dict):
        if len(value) > MAPPING:
            return {"mapping": len(value)}
        return {_short(str(k)): _summary(v) for k, v in value.items()}
    if isinstance(value, SEQUENCES):
        if len(value) > SMALL:
            return {"sequence": len(value)}
        return [_summary(v) for v in value]
    if isinstance(value, str):
        return _short(value)
    if isinstance(value, _BOOL_OR_STR) or value is None:
        return value
    if isinstance(value, NUMBERS):
        return _number(value)
    return {"type": _kind(value)}


def _short(text: str) -> str:
    """A learner's text as a record keeps it: its first TEXT characters (a dict returned
    with 1,000 keys of 1,000 characters each put 10 MB into one claim's record)."""
    return text if len(text) <= TEXT else text[:TEXT] + "…"


def _number(x: Any) -> Any:
    if isinstance(x, float) and not math.isfinite(x):
        return repr(x)  # 'nan', 'inf', '-inf': evidence is JSON without NaN
    if isinstance(x, int) and not isinstance(x, bool) and x.bit_length() > 62:
        return str(x)  # exact, whatever reads the evidence
    return x


def _kind(value: Any) -> str:
    cls = type(value)
    return (
        cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"
    )


def _builtin_checks() -> dict[str, CheckSpec]:
    # the decorator packs use, applied here: the table is built once and never grows
    table = Registry()
    table.check(
        "matches_reference",
        needs=(),
        measures=(
            "cases",
            "invalid_cases",
            "mismatches",
            "mismatch_labels",
            "first_mismatch",
            "inputs_modified",
            "first_modification",
        ),
        context=("cases", "invalid_cases"),
        subject_input="subject",
        generator_input="generator",
    )(matches_reference)
    return dict(table.checks)


# The engine's generic checks, by name: what a pack's claims may name beside its own checks.
BUILTIN_CHECKS: Mapping[str, CheckSpec] = _builtin_checks()
