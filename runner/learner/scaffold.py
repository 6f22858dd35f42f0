"""What a learner implements: the chapter's functions a module's claims call, and the
scaffold file that declares them (stubs, or the reference solution in the same form)."""

from __future__ import annotations

import inspect
import textwrap
import types

from checks.registry import Registry
from runner.load import ClaimPack


def module_subjects(packs: list[ClaimPack], registry: Registry) -> list[str]:
    """The chapter functions a module's claims call, in the order the chapter meets them,
    each after the functions it uses."""
    ordered: list[str] = []

    def add(name: str) -> None:
        if name in ordered:
            return
        spec = registry.subjects.get(name)
        for dep in spec.uses if spec else ():
            add(dep)
        ordered.append(name)

    for pack in packs:
        for loaded in pack.claims:
            spec = registry.resolve_check(loaded.claim.check)
            for name in spec.needs_of(loaded.claim.inputs):
                add(name)
    return ordered


# -- scaffold -------------------------------------------------------------------------------
HEADER = '''"""{title}: my implementation of the chapter's functions.

Run the chapter's claims against this file:

    python -m runner run claims/{module}/ --impl {filename}

A function that still raises NotImplementedError makes the claims that need it "skipped".

The contract every function keeps (the contract.* claims compare each function with the
reference on seeded cases across its whole signature); each docstring below says the rest:

* Integer arguments (sizes, counts, k, n_head, block, top_k) are Python ints or NumPy
  integers (np.int32, np.int64, ...); the claims pass both. Counts are exact Python ints:
  convert with operator.index(x) before any arithmetic, so np.int32 inputs never wrap around
  (nor int64 products past 2^63), and check the minimum on that int: np.int64(-1) is refused
  like -1. (The reference refuses bools and floats such as 2.0 with ValueError; no claim
  passes them.)
* Arrays arrive as NumPy arrays. Results are float64 arrays, except softmax_temperature,
  which keeps the floating dtype of its logits (float16 stays float16), and bpe_encode's
  integer ids: float32 or integer inputs give float64 results, computed in float64. An
  array of ids (embedding_lookup's tokens) with a float dtype is refused.
* Arguments are never modified: callers reuse their arrays. Work on a copy (x = x / t, not
  x /= t); the claims compare every call's arguments with a copy taken before it.
* Parameter names are the contract's, as in each signature below: the claims call every
  function once with all its arguments by name (softmax_temperature(logits=z,
  temperature=0.5)), so keep the names.
* Invalid arguments raise ValueError: exactly the cases each docstring lists (sizes below
  their minimum, shapes that do not fit, k, top_k, n_head or block out of range, T <= 0).
* Finite inputs never give NaN or inf: subtract the max before exp, row by row, and start a
  running max at -inf (the claims pass scores of +-1e3 and beyond). Non-finite inputs are
  outside the contract, except where a docstring says they raise ValueError
  (softmax_temperature's logits and T, the probs of top-k and top-p, chain_rule_nll's
  joint, greedy_token's NaN), checked entry by entry: finite values whose sum overflows
  ([1e308, 1e308, 0]) are valid. Outside the contract too: linear_attention's q, k entries
  below -300 (see its docstring).
* A causal mask is -inf, never np.finfo(np.float64).min: scores at that minimum are finite.
* Ties: top-k and MoE's routing keep the lower index, as a stable sort does.
* A function returns its output only. What it costs is measured from outside (the peak
  memory of the call), never reported by the function about itself.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray

Array = NDArray[np.float64]
Positions = Literal["none", "sinusoidal", "rope", "learned"]
'''


def scaffold(pack: ClaimPack, registry: Registry, *, reference: bool) -> str:
    """A Python file with every function the module's claims call.

    Stubs keep the reference's signature and docstring and raise NotImplementedError; with
    ``reference`` the bodies are the reference's own, so the file passes every claim.
    """
    subjects = module_subjects([pack], registry)
    parts = [HEADER.format(title=pack.meta.title.en, module=pack.meta.id, filename="my_impl.py")]
    if reference:
        parts.extend(_helpers(subjects, registry))
    for name in subjects:
        fn = registry.subjects[name].fn
        parts.append(_reference_source(fn) if reference else _stub(name, registry))
    return "\n\n\n".join(p.rstrip() for p in parts) + "\n"


def _reference_source(fn: object) -> str:
    src = textwrap.dedent(inspect.getsource(fn))  # type: ignore[arg-type]
    lines = src.splitlines()
    while lines and lines[0].startswith("@"):
        lines.pop(0)
    return "\n".join(lines)


def _stub(name: str, registry: Registry) -> str:
    """``def name(<the learner's signature>):`` with the docstring and NotImplementedError.

    The reference's keyword-only dependency parameters (how our composite functions receive
    a fault's twin) are not part of the learner's interface and are left out.
    """
    spec = registry.subjects[name]
    fn = spec.fn
    doc = inspect.getdoc(fn) or ""
    doc_block = f'"""{doc}\n"""' if "\n" in doc else f'"""{doc}"""'
    return (
        f"def {name}({_parameters(fn, set(spec.uses))}){_returns(fn)}:\n"
        f"{textwrap.indent(doc_block, '    ')}\n"
        "    raise NotImplementedError\n"
    )


def _annotation(value: object) -> str:
    return value if isinstance(value, str) else getattr(value, "__name__", repr(value))


def _parameters(fn: object, drop: set[str]) -> str:
    parts = []
    starred = False
    for p in inspect.signature(fn).parameters.values():  # type: ignore[arg-type]
        if p.name in drop:
            continue
        if p.kind is inspect.Parameter.KEYWORD_ONLY and not starred:
            parts.append("*")
            starred = True
        text = p.name
        if p.annotation is not inspect.Parameter.empty:
            text += f": {_annotation(p.annotation)}"
        if p.default is not inspect.Parameter.empty:
            text += f" = {p.default!r}"
        parts.append(text)
    return ", ".join(parts)


def _returns(fn: object) -> str:
    ret = inspect.signature(fn).return_annotation  # type: ignore[arg-type]
    return "" if ret is inspect.Signature.empty else f" -> {_annotation(ret)}"


def _helpers(subjects: list[str], registry: Registry) -> list[str]:
    """Private module-level helpers the reference functions call (e.g. ``_softmax_last``,
    ``_integer``), wherever in the reference they are defined, and the helpers those call."""
    seen: list[str] = []
    done: set[object] = set()

    def visit(fn: object) -> None:
        module = inspect.getmodule(fn)
        code = getattr(fn, "__code__", None)
        if module is None or code is None:
            return
        for attr in sorted(_names(code)):
            value = getattr(module, attr, None)
            if (
                attr.startswith("_")
                and inspect.isfunction(value)
                and value.__module__.startswith(REFERENCE_PACKAGE)
                and value not in done
            ):
                done.add(value)
                src = textwrap.dedent(inspect.getsource(value))
                if src not in seen:
                    seen.append(src)
                visit(value)

    for name in subjects:
        visit(registry.subjects[name].fn)
    return seen


REFERENCE_PACKAGE = "checks.reference"


def _names(code: types.CodeType) -> set[str]:
    """Global names a code object uses, its nested functions and generator expressions too."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names
