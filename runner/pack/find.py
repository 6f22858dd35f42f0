"""Finding the pack a module names, the way Python tools find plugins.

``module.yaml``'s ``pack:`` is one of

* a **path** relative to the module's directory (it starts with ``./`` or ``../``): a
  package folder (with ``__init__.py``) or a single ``.py`` file beside the claims, as
  lm-evaluation-harness's ``!function`` or pytest's ``conftest.py`` are found. It is imported
  under a private module name (so two courses' ``checks`` folders never meet); inside it,
  import the pack's own modules relatively (``from .reference import softmax``);
* the **name of an installed pack**: an entry point in the group ``learn_llm_claims.packs``
  (``[project.entry-points."learn_llm_claims.packs"] my-pack = "my_course.pack:pack"``), as
  pytest finds ``pytest11`` plugins;
* an **importable module** (``my_course.packs.softmax``) holding a :class:`Pack` as ``pack``.

Whichever way, the object found must be a :class:`Pack`. Every failure is a
:class:`PackNotFound` carrying a message as data, which the loader reports as a problem of
that module's ``module.yaml``; the other modules still load. A pack is imported once per
process, however many modules name it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import re
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import Any

from runner.distributions import EntryPoint, distribution_name, entry_points
from runner.i18n import Msg, msg
from runner.pack.pack import Pack

GROUP = "learn_llm_claims.packs"
PACK_ATTRIBUTE = "pack"  # what a module named by path or by import holds (or PACK)
_MODULE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
_FOUND: dict[str, Pack] = {}  # resolved key (a path, an entry point, a module) -> the pack


class PackNotFound(LookupError):
    """The pack a module names cannot be used; ``message`` says why, as data."""

    def __init__(self, message: Msg) -> None:
        super().__init__(message.code)
        self.message = message


def is_path(spec: str) -> bool:
    return spec.startswith(("./", "../")) or spec in (".", "..")


def find_pack(spec: str, module_dir: Path) -> Pack:
    """The pack ``spec`` names, for the module in ``module_dir``."""
    if is_path(spec):
        return _from_path(spec, module_dir)
    points = installed_packs()
    if spec in points:
        declaring = {
            distribution_name(p.dist_info.name): _distribution(p)
            for p in entry_points(GROUP)
            if p.name == spec
        }
        if len(declaring) > 1:  # which one is imported would depend on the import path
            names = ", ".join(sorted(declaring.values()))
            raise PackNotFound(msg("pack.installed_twice", pack=spec, distributions=names))
        return _from_entry_point(spec, points[spec])
    if _MODULE_NAME.match(spec):
        return _from_module(spec)
    raise PackNotFound(msg("pack.unknown", pack=spec, known=", ".join(sorted(points)) or "-"))


def installed_packs() -> dict[str, EntryPoint]:
    """Entry points of the group, by name (the first of two distributions' same name)."""
    out: dict[str, EntryPoint] = {}
    for point in entry_points(GROUP):
        out.setdefault(point.name, point)
    return out


def _distribution(point: EntryPoint) -> str:
    """The distribution that declares ``point``, as pip names it (``name version``)."""
    stem = point.dist_info.name.rsplit(".", 1)[0]  # "my_pack-0.1" of "my_pack-0.1.dist-info"
    name, _, version = stem.partition("-")
    return f"{name} {version}".strip()


# -- the three ways ---------------------------------------------------------------------------
def _from_path(spec: str, module_dir: Path) -> Pack:
    target = (module_dir / spec).resolve()
    key = f"path:{target}"
    if key in _FOUND:
        return _FOUND[key]
    if target.is_dir():
        init = target / "__init__.py"
        if not init.is_file():
            raise PackNotFound(msg("pack.not_package", pack=spec))
        location, search = init, [str(target)]
    elif target.suffix == ".py" and target.is_file():
        location, search = target, None
    else:
        raise PackNotFound(msg("pack.no_such_path", pack=spec))
    # a private name: a course's ``checks`` folder never meets another one, or ours
    digest = hashlib.sha256(str(target).encode("utf-8", "surrogatepass")).hexdigest()[:12]
    name = f"_learn_llm_pack_{re.sub(r'[^A-Za-z0-9_]', '_', target.stem)}_{digest}"
    spec_ = importlib.util.spec_from_file_location(
        name, location, submodule_search_locations=search
    )
    if spec_ is None or spec_.loader is None:
        raise PackNotFound(msg("pack.not_package", pack=spec))
    module = importlib.util.module_from_spec(spec_)
    sys.modules[name] = module
    try:
        spec_.loader.exec_module(module)
    except Exception as exc:
        for loaded in [m for m in sys.modules if m == name or m.startswith(f"{name}.")]:
            del sys.modules[loaded]
        if isinstance(exc, ModuleNotFoundError) and exc.name in (target.stem, target.name):
            # the pack imports itself by its folder's name: it is imported under another
            raise PackNotFound(msg("pack.absolute_self_import", pack=spec, name=exc.name)) from None
        raise PackNotFound(_import_failed(spec, exc)) from None
    pack = _the_pack(_held(module), spec)
    _FOUND[key] = pack
    return pack


def _from_entry_point(spec: str, point: EntryPoint) -> Pack:
    key = f"entry:{point.value}"
    if key in _FOUND:
        return _FOUND[key]
    top = point.value.partition(":")[0].partition(".")[0]
    shadow = _shadowed(top, point)
    if shadow is not None:
        raise PackNotFound(msg("pack.shadowed", pack=spec, package=top, **shadow))
    try:
        loaded = point.load()
    except Exception as exc:
        raise PackNotFound(_import_failed(spec, exc)) from None
    if isinstance(loaded, ModuleType):
        loaded = _held(loaded)
    pack = _the_pack(loaded, spec)
    _FOUND[key] = pack
    return pack


def _from_module(spec: str) -> Pack:
    key = f"module:{spec}"
    if key in _FOUND:
        return _FOUND[key]
    try:
        if importlib.util.find_spec(spec.partition(".")[0]) is None:
            raise PackNotFound(
                msg("pack.unknown", pack=spec, known=", ".join(sorted(installed_packs())) or "-")
            )
        module = importlib.import_module(spec)
    except PackNotFound:
        raise
    except Exception as exc:
        raise PackNotFound(_import_failed(spec, exc)) from None
    pack = _the_pack(_held(module), spec)
    _FOUND[key] = pack
    return pack


def _the_pack(found: Any, spec: str) -> Pack:
    if not isinstance(found, Pack):
        raise PackNotFound(msg("pack.not_a_pack", pack=spec, attribute=PACK_ATTRIBUTE))
    return found


def _held(module: ModuleType) -> Any:
    """The Pack a module holds: as ``pack``, else as ``PACK``."""
    found = getattr(module, PACK_ATTRIBUTE, None)
    return found if found is not None else getattr(module, PACK_ATTRIBUTE.upper(), None)


def _import_failed(spec: str, exc: BaseException) -> Msg:
    """Where in the pack's code the import failed: its last frame outside the engine and the
    import system (a registration the engine refuses raises in the engine's code, called from
    the pack's line that registers), and the error's line."""
    from runner.pack.outcome import said_by_engine

    lines = str(exc).strip().splitlines()
    # a registration the engine refused is said in the reader's language
    error, message = said_by_engine(exc) or (type(exc).__name__, (lines[-1] if lines else "")[:300])
    return msg("pack.import_failed", pack=spec, error=error, message=message, where=own_frame(exc))


def own_frame(exc: BaseException) -> str:
    """``file.py:line`` of the last frame of ``exc`` outside the engine and the import system:
    where in a pack's code it was raised (a registration the engine refuses raises in the
    engine, called from the pack's line); the last frame when there is none; "" without."""
    import sysconfig

    import numpy as np

    told = getattr(exc, "pack_line", None)
    if isinstance(told, str) and told:  # the engine refused what a pack's function made
        return told
    frames = traceback.extract_tb(exc.__traceback__)
    # not the engine's, NumPy's or the standard library's: a pack's IndexError is raised in
    # NumPy's code, called from the pack's line
    skipped = tuple(
        os.path.realpath(p) + os.sep
        for p in (
            Path(__file__).resolve().parents[1],
            os.path.dirname(np.__file__),
            sysconfig.get_paths()["stdlib"],
        )
    )
    own = [
        f
        for f in frames
        if not f.filename.startswith("<") and not os.path.realpath(f.filename).startswith(skipped)
    ]
    last = (own or frames)[-1] if frames else None
    return f"{Path(last.filename).name}:{last.lineno}" if last is not None else ""


def defined_at(fn: Any) -> str:
    """``file.py:line`` where a pack's function is defined; "" when it cannot be told."""
    code = getattr(inspect.unwrap(fn), "__code__", None)
    if code is None:
        return ""
    return f"{Path(code.co_filename).name}:{code.co_firstlineno}"


def _shadowed(top: str, point: EntryPoint) -> dict[str, str] | None:
    """Where ``top`` would be imported from, when that is not the distribution that
    declares the entry point (a course's own ``checks/`` folder in the current directory,
    found first on the import path); None when it is, or when the install cannot say (an
    editable install lists no files of its packages)."""
    from runner.load import display_path

    own = {f"{top}/__init__.py", f"{top}.py"}
    expected = [point.locate(f).resolve() for f in point.files() if f in own]
    if not expected:
        return None
    loaded = sys.modules.get(top)
    origin = getattr(loaded, "__file__", None) if loaded is not None else None
    if origin is None:
        try:
            found = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            return None
        origin = found.origin if found is not None else None
    if origin is None or Path(origin).resolve() in expected:
        return None
    return {
        "found": display_path(Path(origin)),
        "expected": display_path(expected[0].parent if len(expected) else expected[0]),
    }


def forget() -> None:
    """Forget the packs found so far (tests that write packs of their own)."""
    _FOUND.clear()
