"""A learner's submission, read once by the judge and copied alone for its worker.

A submission is one Python file, or a folder of the learner's own modules (how Gradescope
hands a submission over): its entry module (``my_impl.py``, another name the grader gives,
or the folder's only ``*.py``) and the helper modules beside it, packages included. The judge
reads it once (regular files only, no link followed, bounded in size and count): the evidence
hashes these bytes, and the worker runs these bytes. Each worker gets a private copy of them
in a folder of its own, which it makes its user's before it drops root (and, inside its own
namespaces, sees read-only as ``/submission``): a learner's helper modules import, and
nobody else's can, nor anything beside the submission where it was handed in.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.text import printable_line

DEFAULT_ENTRY = "my_impl.py"
MAX_FILE_BYTES = 1_000_000  # one module
MAX_TOTAL_BYTES = 4_000_000  # a whole submission
MAX_FILES = 200
MAX_DEPTH = 6  # package folders inside a submission
SKIPPED = ("__pycache__",)


@dataclass
class LoadFailure:
    """Why the learner's submission could not be used at all (the run exits 2)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Submitted:
    """What the judge read of one learner's submission."""

    name: str  # as messages and the evidence show it: ``my_impl.py``, ``alice/my_impl.py``
    entry: str  # the entry module's path inside the copy
    files: dict[str, bytes]  # path inside the copy -> bytes, the entry included
    sha256: str  # the file's, or the folder's (see folder_sha256)

    @property
    def source(self) -> bytes:
        return self.files[self.entry]


def folder_sha256(files: dict[str, bytes]) -> str:
    """A folder's hash: of each file's path and its bytes' sha256, in sorted order (so a
    changed helper module changes it; ``sha256sum``-style lines, reproducible by hand)."""
    lines = "".join(f"{hashlib.sha256(files[p]).hexdigest()}  {p}\n" for p in sorted(files))
    return hashlib.sha256(lines.encode("utf-8", "surrogateescape")).hexdigest()


def read_submission(path: Path, entry: str | None = None) -> Submitted | LoadFailure:
    """The submission at ``path`` (a file, or a folder and its entry module), or why not."""
    shown = printable_line(path.name)
    try:
        info = os.lstat(path)
    except OSError as exc:
        return LoadFailure("load.unreadable", {"file": shown, "reason": _reason(exc)})
    if stat.S_ISLNK(info.st_mode):  # a class folder's entry naming a classmate's file
        return LoadFailure("load.link", {"file": shown})
    # a folder is a submission; one named like a file (x.py/) only when an entry is named
    if stat.S_ISDIR(info.st_mode) and (path.suffix != ".py" or entry):
        return _read_folder(path, entry)
    data = _read_file(path, shown)
    if isinstance(data, LoadFailure):
        return data
    return Submitted(shown, path.name, {path.name: data}, hashlib.sha256(data).hexdigest())


def _read_folder(folder: Path, entry: str | None) -> Submitted | LoadFailure:
    shown = printable_line(folder.name)
    files: dict[str, bytes] = {}
    try:
        # every folder opened by its descriptor, and each name in it relative to that, never
        # following a link: a folder swapped for a link after it was listed (a learner racing
        # the judge in a class folder it can write) is not read through, wherever it points
        fd = os.open(folder, _DIRECTORY)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            return LoadFailure("load.link", {"file": shown})
        return LoadFailure("load.unreadable", {"file": shown, "reason": _reason(exc)})
    try:
        failure = _read_tree(fd, "", 0, files, shown)
    finally:
        os.close(fd)
    if failure is not None:
        return failure
    top = sorted(p for p in files if "/" not in p)
    chosen = entry or DEFAULT_ENTRY
    if chosen not in files:
        if entry is None and len(top) == 1:
            chosen = top[0]
        else:
            listed = ", ".join(printable_line(p) for p in top[:20]) or "-"
            return LoadFailure(
                "load.no_entry", {"file": shown, "entry": printable_line(chosen), "found": listed}
            )
    name = f"{shown}/{printable_line(chosen)}"
    return Submitted(name, chosen, files, folder_sha256(files))


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _NOFOLLOW


def _read_tree(
    fd: int, prefix: str, depth: int, files: dict[str, bytes], shown: str
) -> LoadFailure | None:
    """The ``*.py`` files under the open folder ``fd`` into ``files`` (by their path inside
    the submission), folders below read the same way (at most ``depth`` MAX_DEPTH deep: one
    descriptor per level is open at a time); a LoadFailure for a limit run past."""
    try:
        entries = sorted(os.scandir(fd), key=lambda e: e.name)
    except OSError as exc:
        return LoadFailure("load.unreadable", {"file": shown, "reason": _reason(exc)})
    folders = []
    for item in entries:
        name = item.name
        if name.startswith(".") or name in SKIPPED or item.is_symlink():
            continue  # hidden files, caches, and links (never followed out of the folder)
        inside = f"{prefix}{name}"
        if item.is_dir(follow_symlinks=False):
            if depth + 1 < MAX_DEPTH:
                folders.append(name)
            continue
        if not name.endswith(".py") or not item.is_file(follow_symlinks=False):
            continue
        if len(files) >= MAX_FILES:
            return LoadFailure("load.too_many_files", {"file": shown, "limit": MAX_FILES})
        data = _read_file(name, printable_line(inside), fd)
        if isinstance(data, LoadFailure):
            if data.code == "load.link":  # put in the file's place since it was listed
                continue
            return data
        total = sum(map(len, files.values())) + len(data)  # at most MAX_FILES of them
        if total > MAX_TOTAL_BYTES:
            return LoadFailure("load.too_large", {"file": shown, "bytes": total,
                                                  "limit": MAX_TOTAL_BYTES})  # fmt: skip
        files[inside] = data
    for name in folders:
        try:
            sub = os.open(name, _DIRECTORY, dir_fd=fd)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.ENOENT):
                continue  # a link or a file in its place since it was listed, or gone
            return LoadFailure("load.unreadable", {"file": shown, "reason": _reason(exc)})
        try:
            failure = _read_tree(sub, f"{prefix}{name}/", depth + 1, files, shown)
        finally:
            os.close(sub)
        if failure is not None:
            return failure
    return None


def _read_file(path: Path | str, shown: str, dir_fd: int | None = None) -> bytes | LoadFailure:
    """A regular file's bytes (``path`` inside the open folder ``dir_fd`` when given), read
    once, or why it cannot be: not a regular file (a directory, /dev/zero, a pipe), too
    large, unreadable. Opening never blocks, reading never goes past the limit."""
    try:
        # no link followed, even one put in the file's place since it was looked at
        flags = os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return LoadFailure("load.link", {"file": shown})
        return LoadFailure("load.unreadable", {"file": shown, "reason": _reason(exc)})
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return LoadFailure("load.not_a_file", {"file": shown})
        if info.st_size > MAX_FILE_BYTES:
            return LoadFailure(
                "load.too_large", {"file": shown, "bytes": info.st_size, "limit": MAX_FILE_BYTES}
            )
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        return LoadFailure("load.unreadable", {"file": shown, "reason": _reason(exc)})
    finally:
        os.close(fd)
    if size > MAX_FILE_BYTES:  # it grew while being read
        return LoadFailure(
            "load.too_large", {"file": shown, "bytes": size, "limit": MAX_FILE_BYTES}
        )
    return b"".join(chunks)


def copy_into(submitted: Submitted, folder: str) -> None:
    """Write the submission's files (the bytes the judge read) into ``folder`` (empty, the
    worker's own), creating package folders as needed."""
    for inside, data in submitted.files.items():
        target = os.path.join(folder, *inside.split("/"))
        os.makedirs(os.path.dirname(target), mode=0o700, exist_ok=True)
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__
