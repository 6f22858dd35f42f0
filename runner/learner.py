"""A learner's own implementation: load it, scaffold it, and say where it broke.

``--impl my_impl.py`` runs the learner's file (it is their code, run at their request) and
takes the functions that carry the chapter's names. A name the file lacks, or a function
that still raises ``NotImplementedError``, makes the claims that need it *skipped*; the
reference is never used in its place.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import sys
import textwrap
import traceback
import uuid
from pathlib import Path

from checks.registry import Implementation, Registry
from runner.errors import UsageError
from runner.load import ClaimPack, display_path

MAX_IMPL_BYTES = 1_000_000


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
            for name in registry.resolve_check(loaded.claim.check).needs:
                add(name)
    return ordered


def load_learner(path: Path, subjects: list[str]) -> Implementation:
    """Import the learner's file and take the functions named like the chapter's."""
    if not path.is_file() or path.suffix != ".py":
        raise UsageError(f"{display_path(path)}: --impl needs a Python file (*.py)")
    source = path.read_bytes()
    if len(source) > MAX_IMPL_BYTES:
        raise UsageError(f"{display_path(path)}: {len(source):,} bytes; the limit is 1,000,000")
    # A fresh module name per load, so two learners' files (or two loads) never share state.
    name = f"learner_impl_{uuid.uuid4().hex}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UsageError(f"{display_path(path)}: cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise UsageError(f"{learner_error(exc, path)} (while importing the file)") from None
    finally:
        sys.modules.pop(name, None)
    functions = {n: getattr(module, n) for n in subjects if callable(getattr(module, n, None))}
    return Implementation(
        kind="learner",
        name=path.name,
        functions=functions,
        sha256=hashlib.sha256(source).hexdigest(),
        source=str(path.resolve()),
    )


def learner_error(exc: BaseException, path: Path | str) -> str:
    """``my_impl.py:12: ValueError: ...``: the deepest line of the learner's file involved."""
    target = str(Path(path).resolve())
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if str(Path(frame.filename).resolve()) == target:
            line = frame.lineno
    if isinstance(exc, SyntaxError) and exc.lineno and line is None:
        line = exc.lineno
    # a SyntaxError's str() repeats the file and line we already name; its msg does not
    text = exc.msg if isinstance(exc, SyntaxError) and exc.msg else str(exc)
    lines = text.strip().splitlines()
    what = f"{type(exc).__name__}: {lines[-1]}" if lines else type(exc).__name__
    where = Path(path).name + (f":{line}" if line else "")
    return f"{where}: {what}"


# -- scaffold -------------------------------------------------------------------------------
HEADER = '''"""{title}: my implementation of the chapter's functions.

Run the chapter's claims against this file:

    python -m runner run claims/{module}/ --impl {filename}

A function that still raises NotImplementedError makes the claims that need it "skipped".
"""

from __future__ import annotations

import math
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
    """Private module-level helpers the reference functions call (e.g. ``_softmax_last``)."""
    seen: list[str] = []
    for name in subjects:
        fn = registry.subjects[name].fn
        module = inspect.getmodule(fn)
        if module is None:
            continue
        for attr, value in vars(module).items():
            if (
                attr.startswith("_")
                and inspect.isfunction(value)
                and value.__module__ == module.__name__
                and attr in (fn.__code__.co_names)
            ):
                src = textwrap.dedent(inspect.getsource(value))
                if src not in seen:
                    seen.append(src)
    return seen
