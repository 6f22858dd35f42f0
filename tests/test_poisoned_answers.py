"""An answer holding a NaN, an infinity or a count that is not whole fails every claim that
reads it (the guide: NaN or inf never passes).

An attack round (2026-12-07) found checks that lost a NaN answer on its way to a measure:
Python's ``max(worst, nan)`` keeps ``worst``, so a stub returning NaN arrays passed four
claims; ``int(1234.999)`` read a count that is not whole as 1,234; a change asked of a NaN
output (NaN differs from itself) looked like a position read. Here each of the reference's
functions in turn has its answers poisoned one way (the first, the last or every float made
NaN, the first made +inf, every integer made a float that is not whole), the rest of the
reference left as it is, and every claim whose check reaches the function is run on it: a
claim that still passes must be one that does not read what was poisoned, named below with
the reason.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from runner.load import load_packs
from runner.pack.registry import Implementation
from runner.run import run_claim
from tests.conftest import MODULE, REGISTRY

POISONS = ("first", "last", "all", "inf", "not-whole")

# (function, poison) -> claims that may pass, and why
UNREAD: dict[tuple[str, str], tuple[frozenset[str], str]] = {
    **{
        ("averaging_model", poison): (
            frozenset({"structure.averaging-cost"}),
            "measures the call's peak memory alone (its values: contract.averaging-model)",
        )
        for poison in ("first", "last", "all", "inf")
    },
    ("attention_parameter_count", "not-whole"): (
        frozenset(
            {
                "support.gpt2-vocab-1000-ctx",
                "support.gpt2-vocab-32-ctx",
                "structure.giant-mlp",
                "operators.parameter-table",
                "operators.context-independence-condition",
                "operators.gpt2-real-config",
                "review.support-gap",
                "next-step.ngram-table",
                "multihead.published-heads",
            }
        ),
        "they call transformer_parameter_count alone, here the reference's, which takes the"
        " int() of the count it is given (a learner's is its own, judged on what it returns)",
    ),
}


def _poisoned(value: Any, poison: str) -> Any:
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f" and value.size and poison != "not-whole":
            out = value.copy()
            flat = out.reshape(-1)
            if poison == "first":
                flat[0] = np.nan
            elif poison == "last":
                flat[-1] = np.nan
            elif poison == "all":
                flat[:] = np.nan
            else:
                flat[0] = np.inf
            return out
        if value.dtype.kind in "iu" and poison == "not-whole":
            return value.astype(np.float64) + 0.5
        return value
    if isinstance(value, bool):
        return value
    if isinstance(value, float) and poison != "not-whole":
        return math.inf if poison == "inf" else math.nan
    if isinstance(value, int | np.integer) and poison == "not-whole":
        return float(value) + 0.999
    if isinstance(value, dict):
        return {k: _poisoned(v, poison) for k, v in value.items()}
    if isinstance(value, tuple):
        return tuple(_poisoned(v, poison) for v in value)
    return value


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.dtype == b.dtype
            and np.array_equal(a, b)
        )
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b


@functools.cache
def _pack() -> Any:
    return load_packs([MODULE])[0]


def _needs() -> dict[str, frozenset[str]]:
    return {
        c.claim.id: frozenset(REGISTRY.resolve_check(c.claim.check).needs_of(c.claim.inputs))
        for c in _pack().claims
    }


@pytest.mark.parametrize("subject", sorted(REGISTRY.reference().functions))
def test_a_poisoned_answer_fails_every_claim_that_reads_it(subject: str) -> None:
    pack = _pack()
    reference = REGISTRY.reference()
    reached = REGISTRY.reaching(subject)
    needs = _needs()
    wrong = []
    for poison in POISONS:
        changed = [0]  # calls whose answer the poison changed, in the claim being run

        def poisoned(
            *args: Any, _fn: Callable[..., Any] = reference.functions[subject], **kwargs: Any
        ) -> Any:
            value = _fn(*args, **kwargs)
            out = _poisoned(value, poison)  # noqa: B023  (called within this poison's loop)
            changed[0] += not _same(value, out)  # noqa: B023
            return out

        functions = REGISTRY._bind({subject: poisoned})
        impl = Implementation("fault", f"{subject}-{poison}", functions, replaced=(subject,))
        allowed, _why = UNREAD.get((subject, poison), (frozenset(), ""))
        for loaded in pack.claims:
            if not needs[loaded.claim.id] & reached or loaded.claim.id in allowed:
                continue
            changed[0] = 0
            result = run_claim(loaded, impl, REGISTRY, pack.meta.seed)
            if result.status == "passed" and changed[0]:
                wrong.append(f"{poison}: {loaded.claim.id} ({changed[0]} answers poisoned)")
    assert not wrong, f"{subject}'s poisoned answers passed:\n" + "\n".join(wrong)


def test_every_allowance_names_a_claim_that_reaches_the_function() -> None:
    """UNREAD names claims that call the poisoned function, each with its reason."""
    needs = _needs()
    for (subject, _poison), (claims, why) in UNREAD.items():
        assert why
        for claim in claims:
            assert needs[claim] & REGISTRY.reaching(subject), (subject, claim)
