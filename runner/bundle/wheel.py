"""The engine as a wheel, so that a Gradescope container installs exactly this version.

Three sources, in this order: a wheel the maintainer names (``--wheel``, e.g. a release);
the checkout this engine runs from (built with the project's own build backend, from a copy
of the tree, so the checkout is left as it was); or the installed distribution itself,
packed back into a wheel from its ``RECORD`` (a course repository that installed the engine
from a wheel and has no checkout).
"""

from __future__ import annotations

import base64
import csv
import hashlib
import importlib.util
import io
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from runner.errors import UsageError
from runner.load import display_path

DISTRIBUTION = "learn-llm-claims"
WHEEL_NAME = re.compile(r"^learn_llm_claims-[^-]+-[^-]+-[^-]+-[^-]+\.whl$")
# what a copy of the checkout leaves out: nothing of these goes into the wheel
NOT_COPIED = (".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache")


@dataclass(frozen=True)
class Wheel:
    name: str  # the file name, which pip reads the version from
    data: bytes
    source: str  # where it came from, for the bundle's manifest: "file", "checkout", "installed"

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    def names(self) -> set[str]:
        with zipfile.ZipFile(io.BytesIO(self.data)) as z:
            return set(z.namelist())

    def requires(self) -> list[str]:
        """``Requires-Dist`` of the wheel's METADATA (extras' requirements left out)."""
        with zipfile.ZipFile(io.BytesIO(self.data)) as z:
            meta = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
            text = z.read(meta).decode("utf-8")
        out = []
        for line in text.splitlines():
            if line.startswith("Requires-Dist:"):
                requirement = line.split(":", 1)[1].strip()
                if not _for_an_extra(requirement):
                    out.append(requirement)
        return out


def engine_wheel(named: Path | None) -> Wheel:
    if named is not None:
        return _named(named)
    checkout = _checkout()
    if checkout is not None:
        return _built(checkout)
    return _repacked()


def _named(path: Path) -> Wheel:
    if not path.is_file():
        raise UsageError("use.no_such_file", path=display_path(path))
    if not WHEEL_NAME.match(path.name):
        raise UsageError("bundle.not_our_wheel", path=display_path(path))
    return Wheel(path.name, path.read_bytes(), "file")


def _checkout() -> Path | None:
    """The checkout the running engine was imported from, if it was (an editable install or
    ``python -m runner`` in the tree): the folder above ``runner/`` holding our pyproject."""
    spec = importlib.util.find_spec("runner")
    if spec is None or spec.origin is None:
        return None
    root = Path(spec.origin).resolve().parent.parent
    project = root / "pyproject.toml"
    try:
        text = project.read_text(encoding="utf-8")
    except OSError:
        return None
    return root if re.search(rf'^name\s*=\s*"{DISTRIBUTION}"', text, re.MULTILINE) else None


def _built(checkout: Path) -> Wheel:
    with tempfile.TemporaryDirectory(prefix="learn-llm-wheel-") as work:
        tree = Path(work, "tree")
        shutil.copytree(checkout, tree, ignore=shutil.ignore_patterns(*NOT_COPIED), symlinks=True)
        out = Path(work, "dist")
        if importlib.util.find_spec("build") is not None:
            command = [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(tree)]
        else:
            command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(out), str(tree)]
        done = subprocess.run(command, capture_output=True, stdin=subprocess.DEVNULL, check=False)
        wheels = sorted(out.glob("*.whl")) if out.is_dir() else []
        if done.returncode != 0 or len(wheels) != 1:
            lines = [ln for ln in done.stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
            raise UsageError(
                "bundle.wheel_failed",
                path=display_path(checkout),
                reason=(lines[-1] if lines else f"exit {done.returncode}")[:300],
            )
        return Wheel(wheels[0].name, wheels[0].read_bytes(), "checkout")


def _repacked() -> Wheel:
    """The installed distribution as a wheel: its files and ``.dist-info`` as ``RECORD``
    lists them (scripts outside site-packages left out: pip writes them anew), with a fresh
    ``RECORD``."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise UsageError("bundle.no_engine") from None
    files = [f for f in dist.files or () if not str(f).startswith("..")]
    if not any(str(f) == "runner/cli.py" for f in files):
        raise UsageError("bundle.no_engine")  # an editable install elsewhere: no files here
    version = dist.version
    info = f"learn_llm_claims-{version}.dist-info"
    buffer = io.BytesIO()
    record: list[tuple[str, str, str]] = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(files, key=str):
            name = str(f)
            if name.endswith((".pyc", "/RECORD", "/INSTALLER", "/REQUESTED", "/direct_url.json")):
                continue
            data = Path(str(f.locate())).read_bytes()
            z.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
            record.append((name, f"sha256={digest.decode()}", str(len(data))))
        text = io.StringIO()
        writer = csv.writer(text, lineterminator="\n")
        writer.writerows([*record, (f"{info}/RECORD", "", "")])
        z.writestr(f"{info}/RECORD", text.getvalue())
    return Wheel(f"learn_llm_claims-{version}-py3-none-any.whl", buffer.getvalue(), "installed")


def pinned_requirements(requires: list[str]) -> list[str]:
    """``requires`` and what they require in turn, each pinned to the version installed
    here (the versions this engine was run and tested with); a requirement whose marker
    does not hold here keeps its range and its marker, for pip to decide in the container."""
    out: dict[str, str] = {}
    todo = list(requires)
    while todo:
        requirement = todo.pop(0)
        spec, _, marker = requirement.partition(";")
        found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec)
        if found is None:
            continue
        name = re.sub(r"[-_.]+", "-", found.group(1)).lower()
        if name in out:
            continue
        marker = marker.strip()
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            out[name] = requirement.strip()
            continue
        out[name] = f"{name}=={dist.version}" + (f" ; {marker}" if marker else "")
        for sub in dist.requires or ():
            if not _for_an_extra(sub):
                todo.append(sub)
    return [out[k] for k in sorted(out)]


def _for_an_extra(requirement: str) -> bool:
    """A requirement only of an optional extra (``...; extra == "test"``)."""
    return re.search(r"\bextra\b", requirement.partition(";")[2]) is not None
