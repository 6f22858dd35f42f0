"""Every twin makes exactly one mistake (issue 15: the diagnosis names a learner's mistake only
if the twin differs from the reference in nothing else).

Each twin (the chapter's faults in ``checks/faults.py``, the other known mistakes in
``checks/mistakes.py``) is run against the reference on the whole-function generators' seeded
cases for the function it replaces (``checks/generators.py``: every parameter's range and
edges, NumPy integers, dtypes, ties, extreme magnitudes, invalid arguments). Wherever it
differs, by the diagnosis's own comparison (:func:`runner.diagnose.same`), the case must be
one where its mistake can show: :data:`SHOWS` states that condition for each twin, from its
explanation. A twin not listed there may differ on any case the reference accepts, and never
on an invalid one (it refuses what the reference refuses).

The learner files of ``tests/learners/mistakes/`` make each mistake on its own too: they
agree with their twin on every case of every function the twin reaches (except where the
twin's mistake has no value of its own, :class:`~checks.twin_args.MistakeUndefined`).
"""

from __future__ import annotations

import copy
import functools
import inspect
import math
import types
import warnings
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pytest

from checks.twin_args import MistakeUndefined
from runner.diagnose import same
from runner.pack.outcome import Raised, attempt
from tests.conftest import REGISTRY
from tests.test_diagnose import TWIN_FILES, learner_source

CASES = 120  # per seed: every generator's edges and a hundred random cases or so
SEEDS = (0, 1)
GENERATORS = {g.subject: g for g in REGISTRY.generators.values()}

Shows = Callable[[tuple[Any, ...], dict[str, Any]], bool]


def _t(args: tuple[Any, ...]) -> int:
    """T of a (T, ...) first argument."""
    return int(np.shape(args[0])[0])


def _mask_t(args: tuple[Any, ...], _: dict[str, Any]) -> bool:
    return int(np.shape(args[0])[-1]) > 1


def _largest(args: tuple[Any, ...]) -> float:
    return float(np.max(np.abs(np.asarray(args[0], dtype=np.float64))))


def _heads(args: tuple[Any, ...]) -> tuple[int, int, int]:
    """H, hs and d of a multi_head_attention call."""
    h = int(args[5])
    width = int(np.shape(args[1])[1])
    return h, width // h, int(np.shape(args[0])[1])


def _tie_at_k(args: tuple[Any, ...], _: dict[str, Any]) -> bool:
    p, k = np.asarray(args[0], dtype=np.float64), int(args[1])
    ranked = np.sort(p)[::-1]
    return k < p.size and bool(ranked[k - 1] == ranked[k])


def _overflows(args: tuple[Any, ...], _: dict[str, Any]) -> bool:
    """exp(z / T) without the max leaves the dtype's range (or the sum does)."""
    z = np.asarray(args[0])
    dtype = z.dtype if np.issubdtype(z.dtype, np.floating) else np.dtype(np.float64)
    reach = float(np.max(np.abs(z.astype(np.float64)))) / float(args[1])
    return reach > math.log(float(np.finfo(dtype).max)) - math.log(z.shape[-1]) - 1.0


def _moe_k(args: tuple[Any, ...]) -> tuple[int, int]:
    """top_k and E of a moe_layer call."""
    return int(args[4]), int(np.shape(args[1])[1])


def _moe_tie(args: tuple[Any, ...]) -> bool:
    """Some token's router scores tie at its top_k boundary (the tie rule decides)."""
    k, n_experts = _moe_k(args)
    if k >= n_experts:
        return False
    scores = np.sort(np.asarray(args[0]) @ np.asarray(args[1]), axis=1)[:, ::-1]  # (T, E)
    return bool(np.any(scores[:, k - 1] == scores[:, k]))


SHOWS: dict[str, Shows] = {
    # stage 1
    "support-natural-log": lambda a, kw: int(a[0]) > 1 and int(a[1]) > 0,
    "support-float-power": lambda a, kw: int(a[1]) * math.log10(int(a[0])) > 308,
    "nll-log2": lambda a, kw: np.shape(a[0])[0] > 1,
    "nll-sign": lambda a, kw: np.shape(a[0])[0] > 1,
    "nll-positions-independent": lambda a, kw: np.ndim(a[0]) > 1,
    "giant-mlp-missing-input-width": lambda a, kw: int(a[1]) != 1,
    # stage 2
    "average-whole-sequence": lambda a, kw: _t(a) > 1,
    "average-prefix-sum": lambda a, kw: _t(a) > 1,
    # stage 5
    "mask-no-max-subtraction": lambda a, kw: _largest(a) > 700,
    "mask-finite-fill": lambda a, kw: _largest(a) >= 9000,
    "mask-multiply-zero": _mask_t,
    "mask-no-renormalize": _mask_t,
    "mask-one-future-visible": _mask_t,
    "mask-hides-past": _mask_t,
    "mask-softmax-wrong-axis": _mask_t,
    # stage 4
    "mha-no-scale": lambda a, kw: _heads(a)[1] > 1,
    "mha-scale-by-hs": lambda a, kw: _heads(a)[1] > 1,
    "mha-scale-by-d-model": lambda a, kw: _heads(a)[1] != _heads(a)[2],
    "mha-heads-interleaved": lambda a, kw: _heads(a)[0] > 1 and _heads(a)[1] > 1,
    "mha-merge-without-transpose": lambda a, kw: _heads(a)[0] > 1 and _t(a) > 1,
    "mha-keys-from-query-weights": lambda a, kw: _t(a) > 1,
    "mha-no-mask": lambda a, kw: _t(a) > 1,
    "attention-params-one-head": lambda a, kw: int(a[1]) > 1,
    "heads-as-copies": lambda a, kw: int(a[1]) > 1,
    # stage 3: the table
    "params-ignore-untied": lambda a, kw: not kw.get("tied", True),
    "params-head-counted-twice": lambda a, kw: bool(kw.get("tied", True)),
    "params-layernorm-gain-only": lambda a, kw: bool(kw.get("layernorm", False)),
    "params-no-final-norm": lambda a, kw: bool(kw.get("layernorm", False)),
    "params-fixed-positions-counted": lambda a, kw: (
        kw.get("positions", "none") in ("sinusoidal", "rope") and int(a[4]) > 0
    ),
    "params-include-context": lambda a, kw: int(a[4]) > 0,
    # stage 6
    "temperature-zero": lambda a, kw: not (math.isfinite(a[1]) and a[1] > 0),
    "temperature-multiplied": lambda a, kw: a[1] != 1 and np.shape(a[0])[-1] > 1,
    "temperature-no-max-subtraction": _overflows,
    "temperature-softmax-axis0": lambda a, kw: np.ndim(a[0]) > 1,
    # float16, float32 and a long double that is not a double: each its own dtype
    "temperature-always-float64": lambda a, kw: (
        np.asarray(a[0]).dtype.kind == "f" and np.asarray(a[0]).dtype != np.float64
    ),
    "low-temperature-underflow": lambda a, kw: np.asarray(a[0]).dtype.name != "float16",
    "topk-keeps-ties": _tie_at_k,
    "topk-tie-keeps-higher-index": _tie_at_k,
    "topk-keeps-smallest": lambda a, kw: int(a[1]) < np.size(a[0]),
    "topk-softmax-of-probs": lambda a, kw: int(a[1]) > 1,
    # without the rescaling there is no sum to find 0: the k kept being all 0 is not refused
    # (every other case: the sum is not 1 unless the k kept were all the mass)
    "topk-no-renormalize": lambda a, kw: True,
    # stage 7
    "logits-fixed-fp32": lambda a, kw: int(a[3] if len(a) > 3 else 4) != 4,
    "logits-ignores-batch": lambda a, kw: int(a[0]) != 1,
    # beyond
    "flash-no-scale": lambda a, kw: _t(a) > 1,
    "flash-no-mask": lambda a, kw: _t(a) > 1,
    "flash-diagonal-tile-unmasked": lambda a, kw: _t(a) > 1 and int(a[3]) > 1,
    "flash-no-rescale": lambda a, kw: int(a[3]) < _t(a),
    "linear-attention-global-sums": lambda a, kw: _t(a) > 1,
    "moe-no-gates": lambda a, kw: _moe_k(a)[0] > 1,
    # the last k of an ascending argsort: the higher index wins a tie at the boundary too
    "moe-gates-misaligned": lambda a, kw: _moe_k(a)[0] > 1 or _moe_tie(a),
    "moe-gates-not-renormalized": lambda a, kw: _moe_k(a)[0] < _moe_k(a)[1],
    "moe-params-one-expert": lambda a, kw: int(a[2]) > 1,
    # running every expert reads the weights of those no token chose: 0·NaN where they are NaN
    "moe-dense-experts": lambda a, kw: not np.all(np.isfinite(a[2])),
    # -- the mistakes the contract names (checks/mistakes_contract.py) ----------------------
    "support-t0-shortcut": lambda a, kw: int(a[1]) == 0,
    "support-v1-shortcut": lambda a, kw: int(a[0]) == 1,
    "support-numpy-minimum-unchecked": lambda a, kw: _numpy_below(a[0], 1) or _numpy_below(a[1], 0),
    "nll-nan-for-impossible": lambda a, kw: bool(np.any(np.asarray(a[0]) == 0)),
    "nll-isclose-sum": lambda a, kw: _sum_off(a[0]) > 1e-6,
    "nll-shape-from-size": lambda a, kw: len(set(np.shape(a[0]))) > 1,
    "nll-negative-token-wraps": lambda a, kw: min(int(t) for t in a[1]) < 0,
    "nll-divides-by-table-sum": lambda a, kw: _sum_off(a[0]) > 1e-9,
    "giant-mlp-with-biases": lambda a, kw: int(a[1]) * math.log10(int(a[0])) < 12,
    "params-flags-truthy": lambda a, kw: _not_bool_flag(kw),
    "params-positions-case-folded": lambda a, kw: (
        isinstance(kw.get("positions"), str) and kw["positions"] != kw["positions"].lower()
    ),
    "params-positions-aliases": lambda a, kw: kw.get("positions") in ("rotary", "absolute"),
    "params-positions-none-as-default": lambda a, kw: "positions" in kw and kw["positions"] is None,
    "params-n-head-sign-unchecked": lambda a, kw: kw.get("n_head") is not None and kw["n_head"] < 0,
    "params-vocab-zero-accepted": lambda a, kw: int(a[0]) == 0,
    "params-flags-python-bool-only": lambda a, kw: any(
        isinstance(kw.get(f), np.bool_) for f in ("biases", "layernorm", "tied")
    ),
    "params-n-head-default-12": lambda a, kw: kw.get("n_head") is None and int(a[1]) % 12 != 0,
    "attention-params-sign-unchecked": lambda a, kw: int(a[1]) < 0,
    "mask-finfo-min": lambda a, kw: _smallest(a) < -1e307,
    "mask-fill-minus-1e9": lambda a, kw: _largest(a) >= 1e9,
    "mha-split-interleaved": lambda a, kw: _heads(a)[0] > 1 and _heads(a)[1] > 1,
    "mha-scale-by-width": lambda a, kw: _heads(a)[0] > 1,
    "temperature-divides-before-max": lambda a, kw: _divided_overflows(a),
    "temperature-one-max-per-batch": lambda a, kw: _rows_apart(a) > 50,
    # a T below the logits' own dtype's range: 0 there, and 0/0 for the max entry
    "temperature-divides-in-own-dtype": lambda a, kw: (
        (np.asarray(a[0]).dtype == np.float16 and float(a[1]) < 6e-8)
        or (np.asarray(a[0]).dtype == np.float32 and float(a[1]) < 1e-45)
    ),
    "temperature-uint-wraps": lambda a, kw: np.asarray(a[0]).dtype.kind in "iu",
    "temperature-finite-via-sum": lambda a, kw: _sum_overflows(a[0]),
    "topk-divides-by-inf-sum": lambda a, kw: _sum_overflows(
        np.sort(np.asarray(a[0]))[-int(a[1]) :]
    ),
    "topk-finite-via-sum": lambda a, kw: _sum_overflows(a[0]),
    "topk-numpy-k-unchecked": lambda a, kw: _numpy_below(a[1], 1),
    "topk-answer-in-probs-dtype": lambda a, kw: np.asarray(a[0]).dtype != np.float64,
    "logits-int64-product": lambda a, kw: (
        math.prod(int(x) for x in _with_default(a, 4, 4)) >= 2**63
    ),
    "logits-common-sizes-only": lambda a, kw: int(_with_default(a, 4, 4)[3]) not in (1, 2, 4, 8),
    "logits-sizes-at-least-1": lambda a, kw: 0 in [int(x) for x in a[:3]],
    "flash-max-starts-at-zero": lambda a, kw: _visible_max(a) < -700,
    "flash-mask-finfo-min": lambda a, kw: _smallest(a) < -1e307,
    "flash-dv0-accepted": lambda a, kw: np.shape(a[2])[1] == 0,
    "linear-scaled-q": lambda a, kw: _t(a) > 1,
    "linear-phi-exp": lambda a, kw: _t(a) > 1 and bool(np.any(np.asarray(a[1]) > 0)),
    "moe-ties-higher-index": lambda a, kw: _moe_tie(a),
    "moe-gates-no-max": lambda a, kw: _router_reach(a) > 700,
    "moe-top-k-unchecked": lambda a, kw: _moe_k(a)[0] > _moe_k(a)[1],
    "top-p-ties-higher-index": lambda a, kw: np.unique(np.asarray(a[0])).size < np.size(a[0]),
    "top-p-divides-by-inf-sum": lambda a, kw: _sum_overflows(a[0]),
    "top-p-zeros-give-uniform": lambda a, kw: not np.any(np.asarray(a[0])),
    "top-p-one-by-running-sum": lambda a, kw: float(a[1]) == 1.0,
    "top-p-finite-via-sum": lambda a, kw: _sum_overflows(a[0]),
    "greedy-last-of-ties": lambda a, kw: _top_ties(np.asarray(a[0])),
    "greedy-float32-cast": lambda a, kw: _top_ties(_as32(a[0])),
    "greedy-float64-cast": lambda a, kw: _top_ties(np.asarray(a[0]).astype(np.float64)),
    "greedy-nan-float64-only": lambda a, kw: (
        np.asarray(a[0]).dtype.kind == "f" and np.asarray(a[0]).dtype != np.float64
    ),
    "greedy-nan-via-sum": lambda a, kw: bool(
        np.any(np.asarray(a[0]) == np.inf) and np.any(np.asarray(a[0]) == -np.inf)
    ),
    "layer-norm-broadcasts": lambda a, kw: (1,) in (np.shape(a[1]), np.shape(a[2])),
    "layer-norm-size-not-shape": lambda a, kw: np.shape(a[1]) != (np.shape(a[0])[-1],),
    "embedding-float-ids-cast": lambda a, kw: np.asarray(a[0]).dtype.kind == "f",
    "embedding-bool-ids-accepted": lambda a, kw: np.asarray(a[0]).dtype == np.bool_,
    "embedding-scalar-id-accepted": lambda a, kw: np.ndim(a[0]) == 0,
    "embedding-empty-float-refused": lambda a, kw: np.size(a[0]) == 0,
    "embedding-negative-ids-wrap": lambda a, kw: np.size(a[0]) > 0 and np.min(a[0]) < 0,
    "embedding-keeps-table-dtype": lambda a, kw: np.asarray(a[1]).dtype != np.float64,
    "output-head-width-broadcast": lambda a, kw: 1 in (np.shape(a[0])[1], np.shape(a[1])[1]),
    "sinusoidal-halves": lambda a, kw: int(a[1]) >= 4 and int(a[0]) > 0,
    "rotary-rotate-half": lambda a, kw: np.shape(a[0])[1] >= 4,
    "rotary-positions-float32": lambda a, kw: int(_with_default(a, 1, 0)[1]) + _t(a) > 2**24,
    "rotary-numpy-offset-unchecked": lambda a, kw: _numpy_below(_with_default(a, 1, 0)[1], 0),
    "kv-cache-int64-product": lambda a, kw: (
        2 * math.prod(int(x) for x in _with_default(a, 4, 4)) >= 2**63
    ),
    "kv-cache-common-sizes-only": lambda a, kw: int(_with_default(a, 4, 4)[4]) not in (1, 2, 4, 8),
    "kv-cache-sizes-at-least-1": lambda a, kw: 0 in [int(x) for x in a[:4]],
    "bpe-encode-rank-dict": lambda a, kw: len({tuple(m) for m in a[1]}) < len(a[1]),
    "bpe-encode-unvalidated-merges": lambda a, kw: (
        not all(0 <= int(x) < 256 + i for i, m in enumerate(a[1]) for x in m)
    ),
}


def _numpy_below(value: Any, minimum: int) -> bool:
    """A NumPy integer below ``minimum`` (which only a check on Python ints lets through)."""
    return isinstance(value, np.integer) and int(value) < minimum


def _sum_off(joint: Any) -> float:
    return abs(float(np.asarray(joint, dtype=np.float64).sum()) - 1.0)


def _not_bool_flag(kw: dict[str, Any]) -> bool:
    return any(
        f in kw and not isinstance(kw[f], bool | np.bool_) for f in ("biases", "layernorm", "tied")
    )


def _smallest(args: tuple[Any, ...]) -> float:
    return float(np.min(np.asarray(args[0], dtype=np.float64)))


def _divided_overflows(args: tuple[Any, ...]) -> bool:
    """z / T leaves the logits' dtype's range (before any max is subtracted)."""
    z = np.asarray(args[0])
    dtype = z.dtype if np.issubdtype(z.dtype, np.floating) else np.dtype(np.float64)
    return float(np.max(np.abs(z.astype(np.float64)))) / float(args[1]) > float(np.finfo(dtype).max)


def _rows_apart(args: tuple[Any, ...]) -> float:
    """How far below the batch's max a row's max lies, in units of T."""
    z = np.asarray(args[0], dtype=np.float64)
    if z.ndim < 2:
        return 0.0
    tops = z.max(axis=-1)
    return float((tops.max() - tops.min()) / float(args[1]))


def _sum_overflows(values: Any) -> bool:
    v = np.asarray(values, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.all(np.isfinite(v)) and not np.isfinite(v.sum()))


def _with_default(args: tuple[Any, ...], index: int, default: Any) -> tuple[Any, ...]:
    """The positional arguments with a left-out one at ``index`` given its default."""
    return args if len(args) > index else (*args, default)


def _visible_max(args: tuple[Any, ...]) -> float:
    """The smallest row max of flash attention's visible scores q·k/√d."""
    q, k = np.asarray(args[0], dtype=np.float64), np.asarray(args[1], dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        s = q @ k.T / math.sqrt(q.shape[1])
    s = np.where(np.triu(np.ones(s.shape, dtype=bool), k=1), -np.inf, s)
    return float(np.min(s.max(axis=1)))


def _router_reach(args: tuple[Any, ...]) -> float:
    return float(np.max(np.abs(np.asarray(args[0]) @ np.asarray(args[1]))))


def _as32(z: Any) -> np.ndarray[Any, Any]:
    with np.errstate(over="ignore"):  # the float64 max beside +inf: inf, as the twin casts it
        return np.asarray(z).astype(np.float32)


def _top_ties(z: np.ndarray[Any, Any]) -> bool:
    """More than one entry equals the largest (NaN aside)."""
    return z.size > 1 and int(np.count_nonzero(z == z.max())) > 1


# Twins whose mistake is to accept an argument the reference refuses: only these may differ
# from the reference on an invalid case.
ACCEPTS_INVALID = {
    "temperature-zero",
    "topk-no-renormalize",
    "support-t0-shortcut",
    "support-v1-shortcut",
    "support-numpy-minimum-unchecked",
    "nll-isclose-sum",
    "nll-shape-from-size",
    "nll-negative-token-wraps",
    "params-flags-truthy",
    "params-positions-case-folded",
    "params-positions-aliases",
    "params-positions-none-as-default",
    "params-n-head-sign-unchecked",
    "params-vocab-zero-accepted",
    "attention-params-sign-unchecked",
    "topk-numpy-k-unchecked",
    "flash-dv0-accepted",
    "moe-top-k-unchecked",
    "top-p-zeros-give-uniform",
    "greedy-nan-float64-only",
    "layer-norm-broadcasts",
    "layer-norm-size-not-shape",
    "embedding-float-ids-cast",
    "embedding-bool-ids-accepted",
    "embedding-scalar-id-accepted",
    "embedding-negative-ids-wrap",
    "output-head-width-broadcast",
    "rotary-numpy-offset-unchecked",
    "bpe-encode-unvalidated-merges",
}


def _positional(
    reference: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """A case's arguments as :data:`SHOWS` reads them: every parameter that can be passed by
    position is (a case may pass its arguments by name), the keyword-only ones stay named."""
    bound = inspect.signature(reference).bind(*args, **kwargs)
    return bound.args, bound.kwargs


def _outcome(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    # copies: a case is shared by every twin of its function (_cases), and a mistake may
    # write into its arguments
    fresh, named = copy.deepcopy((list(args), dict(kwargs)))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return attempt(fn, *fresh, **named)


@functools.cache
def _cases(subject: str) -> tuple[Any, ...]:
    """The generator's cases for ``subject`` at every seed (the same for each twin of it:
    made once; each call gets copies of their arrays, see _outcome)."""
    generator = GENERATORS[subject]
    return tuple(c for seed in SEEDS for c in generator.fn(np.random.default_rng(seed), CASES))


@functools.cache
def _reference_outcomes(subject: str) -> tuple[Any, ...]:
    reference = REGISTRY.reference()[subject]
    return tuple(_outcome(reference, case.args, case.kwargs) for case in _cases(subject))


@functools.lru_cache(maxsize=1)
def _replaced_outcomes(twin_id: str) -> tuple[Any, ...]:
    """The replaced function's outcomes on its cases, the twin in its place: asked by both
    tests of a twin, which run one after the other (TWINS below), so kept for the last twin
    only (a twin of a BPE function takes seconds over its cases)."""
    subject = REGISTRY.twins[twin_id].replaces
    wrong = REGISTRY.with_fault(twin_id)[subject]
    return tuple(_outcome(wrong, case.args, case.kwargs) for case in _cases(subject))


def _twin_outcomes(twin_id: str, subject: str) -> Iterable[Any]:
    """``subject``'s outcomes on its cases with the twin in place."""
    if subject == REGISTRY.twins[twin_id].replaces:
        return _replaced_outcomes(twin_id)
    impl = REGISTRY.with_fault(twin_id)
    return (_outcome(impl[subject], case.args, case.kwargs) for case in _cases(subject))


# Both tests of a twin run one after the other (a module-scoped parameter is how pytest
# groups tests by its value), so that the second finds the twin's outcomes the first made
TWINS = pytest.mark.parametrize("twin_id", sorted(REGISTRY.twins), scope="module")


@TWINS
def test_a_twin_differs_from_the_reference_only_where_its_mistake_shows(twin_id):
    twin = REGISTRY.twins[twin_id]
    reference = REGISTRY.reference()[twin.replaces]
    shows = SHOWS.get(twin_id)
    differs, unexplained = 0, []
    cases = _cases(twin.replaces)
    wrongs = _replaced_outcomes(twin_id)
    for case, wrong, expected in zip(
        cases, wrongs, _reference_outcomes(twin.replaces), strict=True
    ):
        if same(wrong, expected):
            continue
        differs += 1
        args, kwargs = _positional(reference, case.args, case.kwargs)
        if isinstance(expected, Raised):  # an argument the reference refuses
            explained = twin_id in ACCEPTS_INVALID and SHOWS[twin_id](args, kwargs)
        else:
            explained = shows is None or shows(args, kwargs)
        if not explained:
            unexplained.append(case.label)
    assert differs, f"{twin_id} never differs from the reference"
    assert not unexplained, f"{twin_id} differs where its mistake cannot show: {unexplained}"


def _learner(twin_id: str) -> types.ModuleType:
    """The learner file that makes the twin's mistake, loaded here (it is our own fixture)."""
    module = types.ModuleType(f"learner_{twin_id.replace('-', '_')}")
    path = TWIN_FILES[twin_id]
    exec(compile(learner_source(path), str(path), "exec"), module.__dict__)
    return module


def test_every_twin_has_a_learner_file():
    assert sorted(TWIN_FILES) == sorted(REGISTRY.twins)


@TWINS
def test_each_learner_file_makes_its_twins_mistake_and_nothing_else(twin_id):
    learner = _learner(twin_id)
    compared = 0
    for subject in sorted(REGISTRY.reaching(REGISTRY.twins[twin_id].replaces)):
        if subject not in GENERATORS:
            continue
        for case, ours in zip(_cases(subject), _twin_outcomes(twin_id, subject), strict=True):
            if isinstance(ours, Raised) and MistakeUndefined.__name__ in ours.names:
                continue  # the mistake has no value of its own here (log10 0)
            theirs = _outcome(getattr(learner, subject), case.args, case.kwargs)
            assert same(theirs, ours), (subject, case.label, theirs, ours)
            compared += 1
    assert compared >= len(SEEDS) * CASES


@pytest.mark.parametrize("twin_id", sorted(REGISTRY.twins))
def test_every_twin_pickles_by_name(twin_id):
    """A class run hands the registry to judging processes of its own: each twin must be
    found again under the name it was pickled by (a twin a factory makes, too)."""
    import pickle

    fn = REGISTRY.twins[twin_id].fn
    assert pickle.loads(pickle.dumps(fn)) is fn
