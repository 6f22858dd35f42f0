"""Where a run happened: the commit of what was measured, and a sanitized environment.

The commit is taken from the repository that holds the claims being run (a course
repository with only ``claims/`` in it, or this project's own checkout), never from where
the runner happens to be installed. When the runner's own source lies in that same
repository (a checkout of this project), its code counts as measured too.

No host name, user name or path ever enters the evidence: the environment is the Python and
NumPy versions, the operating system's family and machine type, and the BLAS library and
the kernel it chose for this CPU (which decides the last bits of every matrix product).
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import subprocess
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

CODE_ROOT = Path(__file__).resolve().parents[1]
# This project's own measured files, when its checkout is the repository being run.
CODE_PATHS = ("checks", "runner", "schemas", "pyproject.toml")
GIT_TIMEOUT_S = 30


@dataclass(frozen=True)
class Commit:
    sha: str
    dirty: bool
    root: Path
    # each module's own (sha, dirty), by its folder: the last commit that changed what *it*
    # measures, so a module's evidence does not depend on the modules run beside it
    modules: Mapping[Path, tuple[str, bool]] = field(default_factory=dict, compare=False)

    def of(self, module_dir: Path) -> Commit:
        """The commit of one module of the run (the run's own where it was not asked)."""
        found = self.modules.get(module_dir.resolve())
        return self if found is None else Commit(found[0], found[1], self.root)


@dataclass(frozen=True)
class Unmeasured:
    """Why no commit can be recorded: not a git checkout (or nothing committed), or git
    did not answer in time."""

    silent: bool = False  # git was asked and did not answer within GIT_TIMEOUT_S
    # module folders outside the repository of the run's first (``first``), or in none: one
    # commit cannot hold what the run measures, nor one command in one checkout reproduce it
    apart: tuple[Path, ...] = ()
    first: Path | None = None


# The repository holding the claims is usually the course's, but may be a fork: git is
# asked only what runs no program the repository's configuration names. Not `git status`
# (it runs the clean filters .gitattributes names on every changed file, and fsmonitor):
# whether the measured files differ from the commit is decided here, by hashing them
# (_changed). The options turn off what the remaining commands could run or write.
GIT_ARGS = (
    "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false",
    "-c", "log.showSignature=false", "--no-optional-locks",
)  # fmt: skip
GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}


class _Git:
    """``git ARGS`` started in ``cwd`` now; :meth:`result` waits for its output."""

    def __init__(self, cwd: Path, *args: str) -> None:
        self.timed_out = False
        try:
            self.proc: subprocess.Popen[str] | None = subprocess.Popen(
                ["git", *GIT_ARGS, *args],
                cwd=cwd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                encoding="utf-8",
                errors="surrogateescape",  # a path that is not UTF-8 is still a path
                env={**os.environ, **GIT_ENV},
            )
        except OSError:
            self.proc = None

    def result(self) -> str | None:
        if self.proc is None:
            return None
        try:
            out, _ = self.proc.communicate(timeout=GIT_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.timed_out = True
            self.proc.kill()
            self.proc.communicate()
            return None
        return out.strip() if self.proc.returncode == 0 else None


def _git(cwd: Path, *args: str) -> Callable[[], str | None]:
    return _Git(cwd, *args).result


def repository_root(path: Path) -> Path | None:
    """The top of the git checkout that holds ``path``, or None."""
    top = _git(path if path.is_dir() else path.parent, "rev-parse", "--show-toplevel")()
    return Path(top).resolve() if top else None


def measured_paths(module_dirs: Iterable[Path], root: Path, code: Iterable[str] = ()) -> list[str]:
    """What a run measures, relative to the repository: the claim packs, the packs' code
    where it lives in the repository (a pack installed editable from it, say), and this
    project's own code when it lives in the same repository."""
    paths = sorted({os.path.relpath(d.resolve(), root) for d in module_dirs})
    for place in code:
        resolved = Path(place).resolve()
        if root in resolved.parents:  # a pack run from site-packages is code_sha256's alone
            paths.append(os.path.relpath(resolved, root))
    if root == CODE_ROOT or root in CODE_ROOT.parents:
        base = os.path.relpath(CODE_ROOT, root)
        paths += [os.path.normpath(os.path.join(base, p)) for p in CODE_PATHS]
    return list(dict.fromkeys(paths))


def start_measured_commit(
    module_dirs: list[Path], code: Mapping[Path, tuple[str, ...]] | None = None
) -> Callable[[], Commit | Unmeasured]:
    """Ask git now, answer later: the last commit that changed what the run measures, and
    whether those files differ from it. The questions run in their own processes while the
    claims run; outside a git checkout (or without git, or when git does not answer) the
    answer says why there is no commit."""
    if not module_dirs:
        return Unmeasured
    folders = list(dict.fromkeys(d if d.is_dir() else d.parent for d in module_dirs))
    tops = [_Git(folder, "rev-parse", "--show-toplevel") for folder in folders]  # at once
    found_tops = [top.result() for top in tops]
    if not found_tops[0]:
        silent = tops[0].timed_out
        return lambda: Unmeasured(silent)
    root = Path(found_tops[0]).resolve()
    apart = tuple(
        folder
        for folder, found in zip(folders, found_tops, strict=True)
        if not found or Path(found).resolve() != root
    )
    if apart:
        silent = any(top.timed_out for top in tops)
        return lambda: Unmeasured(silent, apart, folders[0])
    code = code or {}
    paths = measured_paths(module_dirs, root, [c for d in module_dirs for c in code.get(d, ())])
    sha = _Git(root, "log", "-1", "--format=%H", "--", *paths)
    tree = _Git(root, "ls-tree", "-r", "-z", "--full-tree", "HEAD", "--", *paths)
    others = _Git(root, "ls-files", "-z", "--others", "--exclude-standard", "--", *paths)
    own = {d.resolve(): measured_paths([d], root, code.get(d, ())) for d in module_dirs}
    shas = {d: _Git(root, "log", "-1", "--format=%H", "--", *p) for d, p in own.items()}

    def answer() -> Commit | Unmeasured:
        found, listed, untracked = sha.result(), tree.result(), others.result()
        each = {d: git.result() for d, git in shas.items()}
        if not found or listed is None or untracked is None:
            late = [sha, tree, others, *shas.values()]
            return Unmeasured(any(git.timed_out for git in late))
        modules = {}
        for d, mine in own.items():
            ours = "\0".join(e for e in listed.split("\0") if _under(e.partition("\t")[2], mine))
            new = any(_under(name, mine) for name in untracked.split("\0") if name)
            # a module no commit holds yet: the run's commit, and dirty (its files are new)
            modules[d] = (each[d] or found, not each[d] or new or _changed(root, ours))
        dirty = any(d for _, d in modules.values())
        return Commit(found, dirty=dirty, root=root, modules=modules)

    return answer


def _under(name: str, paths: list[str]) -> bool:
    """Whether the repository path ``name`` is one of ``paths`` or inside one of them."""
    return any(p in (".", name) or name.startswith(p.rstrip("/") + "/") for p in paths)


def _changed(root: Path, listing: str) -> bool:
    """Whether a file ``git ls-tree -r -z`` lists differs from HEAD in the working tree, as
    git would hash its bytes (no filter run): a changed, deleted or retyped file. Measured
    files are text of a few MB at most; a line-ending conversion counts as a change."""
    for entry in listing.split("\0"):
        if not entry:
            continue
        meta, _, name = entry.partition("\t")
        mode, kind, blob = meta.split(" ")[:3]
        if kind != "blob":
            continue  # a submodule: its own repository
        path = root / name
        try:
            if mode == "120000":  # a symlink: git hashes its target
                data = os.fsencode(os.readlink(path))
            elif path.is_symlink() or not path.is_file():
                return True
            else:
                data = path.read_bytes()
        except OSError:
            return True
        if _blob_sha(data, "sha1" if len(blob) == 40 else "sha256") != blob:
            return True
    return False


def _blob_sha(data: bytes, algorithm: str) -> str:
    """The id git gives a blob of ``data`` (sha1, or sha256 in a sha256 repository)."""
    import hashlib

    digest = hashlib.new(algorithm, usedforsecurity=False)
    digest.update(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


def blas() -> dict[str, str]:
    """The BLAS NumPy uses, its version, the kernel it picked for this CPU, and its threads."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:  # pragma: no cover - a dependency
        return {}
    for info in threadpool_info():
        if info.get("user_api") == "blas":
            # three parts of the version (0.3.31, not 0.3.31.188.0, which reads like an
            # IPv4 address to the sanitization check of evidence)
            version = ".".join(str(info.get("version") or "?").split(".")[:3])
            return {
                "blas": f"{info.get('internal_api', '?')} {version}",
                "blas_kernel": str(info.get("architecture") or "?"),
                "blas_threads": str(info.get("num_threads") or "?"),
            }
    return {}


def environment() -> dict[str, str]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "numpy": np.__version__,
        "platform": f"{platform.system()}-{platform.machine()}",
        **blas(),
    }


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def repo_relative(path: Path, root: Path | None) -> str:
    """A path as recorded in evidence and the manifest: relative to the repository, else
    its bare name (nothing outside the repository is ever named)."""
    if root is not None:
        try:
            return path.resolve().relative_to(root).as_posix()
        except ValueError:
            pass
    return path.name
