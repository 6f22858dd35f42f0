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
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from typing import Annotated, Any, NamedTuple

import numpy as np
from pydantic import Field

from runner.pack.outcome import Raised, attempt
from runner.pack.registry import Bilingual, CheckSpec, Implementation, Measurements, Registry

SMALL = 12  # arrays up to this many elements are recorded whole in a mismatch
LABELS = 20  # distinct labels of mismatching cases kept
MAX_CASES = 10_000  # each case costs two calls or more
Count = Annotated[int, Field(ge=1, le=MAX_CASES)]


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
    dtype_rtol: dict[str, float] | None = None,
) -> Measurements:
    """Any pack function: the same results as the pack's reference on the generator's cases.

    ``cases`` and ``invalid_cases`` (how many of them the contract answers with ValueError)
    come from the generator alone; ``mismatches`` counts the cases where the implementation
    disagrees with the reference, ``mismatch_labels`` says which kinds of input, and
    ``first_mismatch`` shows the first one: its inputs (summarized), what the reference
    returned, what the implementation returned, and why they differ. ``inputs_modified``
    counts the cases whose call changed one of its arguments (an array written in place),
    and ``first_modification`` names the first such case and the arguments it changed.
    """
    spec = registry.resolve_generator(generator)
    if spec.subject != subject:
        raise ValueError(f"generator {generator!r} makes cases for {spec.subject}, not {subject}")
    reference = registry.reference()[subject]
    tolerance = _Tolerance(rtol, atol, dict(dtype_rtol or {}))
    made = [c if isinstance(c, Case) else Case(c[0], c[1], "case") for c in spec.fn(rng, cases)]
    mismatches = 0
    invalid = 0
    labels: list[Label] = []
    first: dict[str, Any] | None = None
    modified = 0
    first_modification: dict[str, Any] | None = None
    for index, one in enumerate(made):
        expected = attempt(reference, *_fresh(one.args), **_fresh(one.kwargs))
        if isinstance(expected, Raised):
            if "ValueError" not in expected.names:  # our own generator or reference is wrong
                raise RuntimeError(
                    f"the reference raised {expected} on case {index} ({one.label!r})"
                )
            invalid += 1
        # the call, and which of its arguments it changed (compared where it ran)
        answer = attempt(impl.modifies, subject, *_fresh(one.args), **_fresh(one.kwargs))
        actual = answer if isinstance(answer, Raised) else answer[0]
        if not isinstance(answer, Raised) and answer[1]:
            modified += 1
            if first_modification is None:
                first_modification = {"case": index, "label": one.label, "arguments": answer[1]}
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


class _Tolerance:
    def __init__(self, rtol: float, atol: float, by_dtype: dict[str, float]) -> None:
        if not (math.isfinite(rtol) and math.isfinite(atol)) or rtol < 0 or atol < 0:
            raise ValueError("rtol and atol must be finite and >= 0")
        self.rtol, self.atol, self.by_dtype = rtol, atol, by_dtype

    def rtol_for(self, dtype: np.dtype[Any]) -> float:
        return self.by_dtype.get(dtype.name, self.rtol)


def _differ(expected: Any, actual: Any, tol: _Tolerance) -> dict[str, Any] | None:
    """None when ``actual`` agrees with ``expected`` under the contract, else why not."""
    if isinstance(expected, Raised):
        if isinstance(actual, Raised):
            if "ValueError" in actual.names:
                return None
            return {"why": "other_error", "raised": actual.error, "message": actual.message}
        return {"why": "no_error", "expected": "ValueError"}
    if isinstance(actual, Raised):
        return {"why": "raised", "raised": actual.error, "message": actual.message}
    if isinstance(actual, np.ndarray) and actual.ndim == 0 and not isinstance(expected, np.ndarray):
        actual = actual[()]  # a 0-d array is its scalar
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return {"why": "type", "expected": "dict", "got": _kind(actual)}
        for key, value in expected.items():
            if key not in actual:
                return {"why": "missing_key", "key": key}
            why = _differ(value, actual[key], tol)
            if why is not None:
                return {**why, "key": key}
        return None
    if isinstance(expected, np.ndarray):
        return _differ_array(expected, actual, tol)
    if isinstance(expected, list | tuple):  # a sequence of values (BPE's merges): element-wise
        if not isinstance(actual, list | tuple | np.ndarray):
            return {"why": "type", "expected": "sequence", "got": _kind(actual)}
        items = list(actual)
        if len(items) != len(expected):
            return {"why": "length", "expected": len(expected), "got": len(items)}
        for i, (e, a) in enumerate(zip(expected, items, strict=True)):
            why = _differ(e, a, tol)
            if why is not None:
                return {**why, "index": i}
        return None
    if isinstance(expected, int):  # a count: exact, and an integer
        if isinstance(actual, bool | np.bool_) or not isinstance(actual, int | np.integer):
            return {"why": "type", "expected": "int", "got": _kind(actual)}
        if int(actual) != expected:
            return {"why": "count", "difference": int(actual) - expected}
        return None
    if isinstance(expected, float):
        if isinstance(actual, bool | np.bool_) or not isinstance(
            actual, int | float | np.integer | np.floating
        ):
            return {"why": "type", "expected": "float", "got": _kind(actual)}
        got = float(actual)
        if math.isinf(expected) and got == expected:
            return None
        if not math.isfinite(got):
            return {"why": "not_finite", "got": _number(got)}
        allowed = tol.atol + tol.rtol * abs(expected)
        if abs(got - expected) > allowed:
            return {"why": "value", "difference": got - expected, "allowed": allowed}
        return None
    raise RuntimeError(
        f"the reference returned a {_kind(expected)}, which this check cannot compare"
    )


def _differ_array(expected: np.ndarray, actual: Any, tol: _Tolerance) -> dict[str, Any] | None:
    got: np.ndarray | None
    if isinstance(actual, np.ndarray):
        got = actual
    elif isinstance(actual, list):  # a list of numbers is an array written out
        got = _listed_array(actual, integer=expected.dtype.kind in "iu")
    else:  # a tuple is (output, something else): the contract returns the output only
        return {"why": "type", "expected": "array", "got": _kind(actual)}
    if got is None:
        return {"why": "type", "expected": "array", "got": "a list that is not an array"}
    if got.shape != expected.shape:
        return {"why": "shape", "expected": list(expected.shape), "got": list(got.shape)}
    if expected.dtype.kind in "iu":  # integer ids: any integer dtype, the exact values
        if got.dtype.kind not in "iu":
            return {"why": "dtype", "expected": "an integer dtype", "got": got.dtype.name}
        if not np.array_equal(got, expected):
            at = np.unravel_index(int(np.argmax(got != expected)), expected.shape)
            return {
                "why": "value",
                "at": [int(i) for i in at],
                "expected_at": int(expected[at]),
                "actual_at": int(got[at]),
            }
        return None
    if got.dtype != expected.dtype:
        return {"why": "dtype", "expected": expected.dtype.name, "got": got.dtype.name}
    finite = np.isfinite(expected)
    broken = finite & ~np.isfinite(got)
    if broken.any():
        at = np.unravel_index(int(np.argmax(broken)), expected.shape)
        return {
            "why": "not_finite",
            "count": int(broken.sum()),
            "at": [int(i) for i in at],
            "got": _number(float(got[at])),
        }
    if not np.array_equal(np.isfinite(got), finite) or np.any(got[~finite] != expected[~finite]):
        return {"why": "not_finite", "count": int((~finite).sum())}
    if not finite.any():
        return None
    wide_e = expected[finite].astype(np.float64)
    wide_a = got[finite].astype(np.float64)
    difference = np.abs(wide_a - wide_e)
    allowed = tol.atol + tol.rtol_for(expected.dtype) * float(np.max(np.abs(wide_e)))
    worst = int(np.argmax(difference))
    if float(difference[worst]) > allowed:
        at = np.unravel_index(int(np.flatnonzero(finite.ravel())[worst]), expected.shape)
        return {
            "why": "value",
            "max_abs_difference": float(difference[worst]),
            "allowed": allowed,
            "at": [int(i) for i in at],
            "expected_at": float(wide_e[worst]),
            "actual_at": float(wide_a[worst]),
        }
    return None


def _listed_array(items: list[Any], integer: bool) -> np.ndarray | None:
    """A (nested) list of numbers as the array it writes out, None when it is not one.

    Ids stay integers: where the contract returns integer ids (a tokenizer's), a list of
    Python or NumPy ints is an integer array, and a list holding a float or a bool is read
    as float64 (which the dtype rule then refuses); elsewhere numbers are read as float64."""
    ids = integer and all(
        isinstance(x, int | np.integer) and not isinstance(x, bool) for x in _flat(items)
    )
    try:
        return np.asarray(items, dtype=np.int64 if ids else np.float64)
    except (TypeError, ValueError, OverflowError):  # ragged, not numbers, ids beyond int64
        return None


def _flat(items: list[Any]) -> Iterator[Any]:
    """The numbers of a nested list, depth first."""
    for x in items:
        if isinstance(x, list):
            yield from _flat(x)
        else:
            yield x


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
        return {str(k): _summary(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if len(value) > SMALL:
            return {"sequence": len(value)}
        return [_summary(v) for v in value]
    if isinstance(value, bool | str) or value is None:
        return value
    if isinstance(value, int | float):
        return _number(value)
    return {"type": _kind(value)}


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


def _fresh(value: Any) -> Any:
    """A deep copy of the arrays in ``value``, so no call sees what another one did to them."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_fresh(v) for v in value)
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    return value


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
    )(matches_reference)
    return dict(table.checks)


# The engine's generic checks, by name: what a pack's claims may name beside its own checks.
BUILTIN_CHECKS: Mapping[str, CheckSpec] = _builtin_checks()
