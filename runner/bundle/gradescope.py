"""The zip Gradescope's autograder takes: one container per submission, run by Gradescope.

Its specification (https://gradescope-autograders.readthedocs.io/en/latest/specs/) asks for
``setup.sh`` and ``run_autograder`` at the root of the zip; the zip is unpacked in
``/autograder/source``. This one holds::

    setup.sh            a venv with Python >= 3.11, the wheel and the pinned requirements
    run_autograder      runs autograder.py with that venv's Python
    autograder.py       finds the learner's file, runs `python -m runner run ... --impl`
    bundle.json         what autograder.py needs: modules, language, limits, its messages
    requirements.txt    the engine's dependencies, pinned to the versions installed here
    wheels/<engine>.whl the engine itself (and chapter packs installed with it)
    course/<module>/    each module's claims (hidden ones included) and a pack beside them

The same inputs give the same bytes (sorted entries, fixed times), so two bundles of one
course can be compared with ``cmp``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from runner.bundle.wheel import Wheel, pinned_requirements
from runner.errors import UsageError
from runner.i18n import Catalog, os_reason
from runner.load import ClaimPack, display_path
from runner.pack.find import is_path

FORMAT = "learn-llm.gradescope-bundle.v1"
SKIPPED = ("__pycache__",)
EPOCH = (1980, 1, 1, 0, 0, 0)  # the zip format's first date: entries carry no build time
# what autograder.py may say, by its name there: templates in the results' language
MESSAGES = {
    "judging": "bundle.ag.judging",
    "no_submission": "bundle.ag.no_submission",
    "not_python": "bundle.ag.not_python",
    "no_python": "bundle.ag.no_python",
    "no_entry": "bundle.ag.no_entry",
    "several": "bundle.ag.several",
    "too_many": "bundle.ag.too_many",
    "deadline": "bundle.ag.deadline",
    "no_result": "bundle.ag.no_result",
}


@dataclass(frozen=True)
class Options:
    lang: str
    entry: str | None = None  # the file name the learner hands in, if the course fixes one
    deadline_s: int = 540  # below Gradescope's default limit of 10 minutes, to say why
    run_options: Sequence[str] = field(default_factory=tuple)  # --timeout, --memory-mib


def entries(
    packs: Sequence[ClaimPack], wheel: Wheel, words: Catalog, options: Options
) -> dict[str, bytes]:
    """Every file of the bundle, by its path in the zip."""
    _refuse_partial(packs)
    copies, placed = _placement(packs)
    out: dict[str, bytes] = {}
    for name in ("setup.sh", "run_autograder"):
        out[name] = resources.files("runner.bundle").joinpath("files", name).read_bytes()
    out["autograder.py"] = resources.files("runner.bundle").joinpath("autograder.py").read_bytes()
    out[f"wheels/{wheel.name}"] = wheel.data
    requirements = pinned_requirements(wheel.requires())
    out["requirements.txt"] = ("\n".join(requirements) + "\n").encode()
    names = wheel.names()
    modules = []
    for pack in packs:
        modules.append(
            {
                "id": pack.meta.id,
                "version": pack.meta.version,
                "path": placed[pack.directory.resolve()],
                "pack": pack.meta.pack,
                "claims": len(pack.claims),
                "hidden": sum(c.claim.visibility != "visible" for c in pack.claims),
            }
        )
        if not is_path(pack.meta.pack):
            _refuse_pack_outside_wheel(pack, names)
    for source, target in copies.items():
        for path, relative in _files(source):
            out[f"{target}/{relative}" if relative else target] = path.read_bytes()
    config: dict[str, Any] = {
        "format": FORMAT,
        "engine": {"wheel": wheel.name, "sha256": wheel.sha256, "from": wheel.source},
        "modules": modules,
        "lang": options.lang,
        "entry": options.entry,
        "deadline_s": options.deadline_s,
        "run_options": list(options.run_options),
        # templates (str.format), filled in the container, where there is no catalogue
        "messages": {k: str(words.entries[code]) for k, code in MESSAGES.items()},
    }
    out["bundle.json"] = (json.dumps(config, ensure_ascii=False, indent=2) + "\n").encode()
    return out


def write(path: Path, files: dict[str, bytes]) -> None:
    """The zip, atomically (a temporary file beside it, then renamed)."""
    import tempfile
    import zipfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as exc:
        raise UsageError(
            "io.cannot_write", path=display_path(path), reason=os_reason(exc)
        ) from None
    try:
        with os.fdopen(handle, "wb") as stream, zipfile.ZipFile(stream, "w") as z:
            for name in sorted(files):
                info = zipfile.ZipInfo(name, EPOCH)
                info.compress_type = zipfile.ZIP_DEFLATED
                executable = name in ("setup.sh", "run_autograder")
                info.external_attr = (0o100755 if executable else 0o100644) << 16
                z.writestr(info, files[name])
        os.replace(temporary, path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise UsageError(
            "io.cannot_write", path=display_path(path), reason=os_reason(exc)
        ) from None


# -- what goes where ------------------------------------------------------------------------
def _refuse_partial(packs: Sequence[ClaimPack]) -> None:
    for pack in packs:
        if not pack.complete:
            raise UsageError("bundle.partial", module=pack.meta.id)


def _placement(packs: Sequence[ClaimPack]) -> tuple[dict[Path, str], dict[Path, str]]:
    """What is copied where, and where each module lies: every module's folder, and each
    pack beside claims but outside its module's folder, under ``course/`` as they lie
    relative to one another (so ``pack: ../shared`` still finds its pack)."""
    modules = [pack.directory.resolve() for pack in packs]
    sources = list(modules)
    for pack in packs:
        if is_path(pack.meta.pack):
            target = (pack.directory / pack.meta.pack).resolve()
            if not target.exists() and target.with_suffix(".py").is_file():
                target = target.with_suffix(".py")
            if not target.is_relative_to(pack.directory.resolve()):
                sources.append(target)
    base = Path(os.path.commonpath([s.parent if s.is_file() else s for s in sources]))
    if base in sources:
        base = base.parent

    def place(path: Path) -> str:
        return "course/" + path.relative_to(base).as_posix()

    outer = [s for s in sources if not any(o != s and s.is_relative_to(o) for o in sources)]
    return {s: place(s) for s in outer}, {m: place(m) for m in modules}


def _files(source: Path) -> Iterator[tuple[Path, str]]:
    """The files under ``source`` (or ``source`` itself), relative to it, sorted, leaving
    out caches and hidden folders."""
    if source.is_file():
        yield source, ""
        return
    for folder, dirs, files in os.walk(source):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED and not d.startswith("."))
        for name in sorted(files):
            if name.endswith(".pyc"):
                continue
            path = Path(folder, name)
            yield path, path.relative_to(source).as_posix()


def _refuse_pack_outside_wheel(pack: ClaimPack, names: set[str]) -> None:
    """A pack found by name must come with the engine's wheel: the container has nothing
    else installed."""
    for package in pack.code.code:
        top = package.replace(".", "/")
        if f"{top}/__init__.py" not in names and f"{top}.py" not in names:
            raise UsageError("bundle.pack_elsewhere", module=pack.meta.id, pack=pack.meta.pack)
