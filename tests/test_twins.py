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

import inspect
import math
import types
import warnings
from collections.abc import Callable
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
    "params-ignore-untied": lambda a, kw: kw.get("tied", True) is False,
    "params-head-counted-twice": lambda a, kw: kw.get("tied", True) is True,
    "params-layernorm-gain-only": lambda a, kw: kw.get("layernorm", False) is True,
    "params-no-final-norm": lambda a, kw: kw.get("layernorm", False) is True,
    "params-fixed-positions-counted": lambda a, kw: (
        kw.get("positions", "none") in ("sinusoidal", "rope") and int(a[4]) > 0
    ),
    "params-include-context": lambda a, kw: int(a[4]) > 0,
    # stage 6
    "temperature-zero": lambda a, kw: not (math.isfinite(a[1]) and a[1] > 0),
    "temperature-multiplied": lambda a, kw: a[1] != 1 and np.shape(a[0])[-1] > 1,
    "temperature-no-max-subtraction": _overflows,
    "temperature-softmax-axis0": lambda a, kw: np.ndim(a[0]) > 1,
    "temperature-always-float64": lambda a, kw: (
        np.asarray(a[0]).dtype.name in ("float16", "float32")
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
    # the one twin that does not check its arguments as the reference does (see its
    # docstring): its dense output is the reference's, and top_k > E is not refused
    "moe-dense-experts": lambda a, kw: _moe_k(a)[0] > _moe_k(a)[1],
}


# Twins whose mistake is to accept an argument the reference refuses (or, for the dense MoE,
# that does not refuse it): only these may differ from the reference on an invalid case.
ACCEPTS_INVALID = {"temperature-zero", "moe-dense-experts", "topk-no-renormalize"}


def _positional(
    reference: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """A case's arguments as :data:`SHOWS` reads them: every parameter that can be passed by
    position is (a case may pass its arguments by name), the keyword-only ones stay named."""
    bound = inspect.signature(reference).bind(*args, **kwargs)
    return bound.args, bound.kwargs


def _outcome(fn: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    fresh = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return attempt(fn, *fresh, **dict(kwargs))


@pytest.mark.parametrize("twin_id", sorted(REGISTRY.twins))
def test_a_twin_differs_from_the_reference_only_where_its_mistake_shows(twin_id):
    twin = REGISTRY.twins[twin_id]
    generator = GENERATORS[twin.replaces]
    reference = REGISTRY.reference()[twin.replaces]
    wrong = REGISTRY.with_fault(twin_id)[twin.replaces]
    shows = SHOWS.get(twin_id)
    differs, unexplained = 0, []
    for seed in SEEDS:
        for case in generator.fn(np.random.default_rng(seed), CASES):
            expected = _outcome(reference, case.args, case.kwargs)
            if same(_outcome(wrong, case.args, case.kwargs), expected):
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


@pytest.mark.parametrize("twin_id", sorted(TWIN_FILES))
def test_each_learner_file_makes_its_twins_mistake_and_nothing_else(twin_id):
    learner = _learner(twin_id)
    impl = REGISTRY.with_fault(twin_id)
    compared = 0
    for subject in sorted(REGISTRY.reaching(REGISTRY.twins[twin_id].replaces)):
        if subject not in GENERATORS:
            continue
        for seed in SEEDS:
            for case in GENERATORS[subject].fn(np.random.default_rng(seed), CASES):
                ours = _outcome(impl[subject], case.args, case.kwargs)
                if isinstance(ours, Raised) and MistakeUndefined.__name__ in ours.names:
                    continue  # the mistake has no value of its own here (log10 0)
                theirs = _outcome(getattr(learner, subject), case.args, case.kwargs)
                assert same(theirs, ours), (subject, case.label, theirs, ours)
                compared += 1
    assert compared >= len(SEEDS) * CASES
