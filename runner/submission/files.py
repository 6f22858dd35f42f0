"""Finding submission files and reading one: a regular file inside the path it was given
under, at most ``MAX_SUBMISSION_BYTES``, never blocking on a pipe or a device."""

from __future__ import annotations

import functools
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from runner.errors import UsageError
from runner.i18n import Msg, msg
from runner.load import display_path
from runner.text import printable_line

MAX_SUBMISSION_BYTES = 2_000_000
SUFFIXES = (".yaml", ".yml", ".json")
MANIFEST = re.compile(r"module-manifest-v\d+\.json")  # evidence/'s index, not evidence
# Opening never follows a last symlink (the path is resolved and checked first) and never
# waits for a writer: a FIFO opens at once and is then refused as not a regular file.
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


@dataclass(frozen=True)
class SubmissionFile:
    path: Path
    root: Path  # the directory it was found in, or the named file's own: it must stay there

    @property
    def shown(self) -> str:
        """The file as the person named it, relative to where they are when it is there."""
        folder = _folder(self.root, os.getcwd())
        shown = self.path.name if folder == "." else os.path.join(folder, self.path.name)
        return printable_line(shown)


def submission_files(paths: list[Path]) -> list[SubmissionFile]:
    """The files named, and every *.yaml, *.yml and *.json directly inside a directory,
    whatever they are (a symlink, a pipe): each gets its verdict, none is skipped unseen."""
    out: list[SubmissionFile] = []
    for path in paths:
        if path.is_dir():
            try:
                with os.scandir(path) as entries:
                    names = sorted(
                        e.name
                        for e in entries
                        if e.name.endswith(SUFFIXES)
                        and not MANIFEST.fullmatch(e.name)
                        and not e.is_dir(follow_symlinks=False)
                    )
            except OSError as exc:  # a folder this user may not list
                reason = exc.strerror or type(exc).__name__
                raise UsageError(
                    "use.cannot_list", path=display_path(path), reason=reason
                ) from None
            out.extend(SubmissionFile(path / name, path) for name in names)
        else:
            out.append(SubmissionFile(path, path.parent))
    return out


# once per folder of a batch, not once per file (keyed by what they depend on)
@functools.cache
def _folder(root: Path, cwd: str) -> str:
    return display_path(root)


@functools.cache
def _real(root: str) -> str:
    return os.path.realpath(root)


def read_submission(file: SubmissionFile, limit: int = MAX_SUBMISSION_BYTES) -> bytes | Msg:
    """The file's bytes, or why they were not read."""
    try:
        root = _real(os.path.abspath(file.root))
        real = os.path.join(root, file.path.name)  # a name in its folder: inside it
        if stat.S_ISLNK(os.lstat(real).st_mode):  # resolved, not opened
            real = os.path.realpath(real, strict=True)
            if os.path.commonpath([real, root]) != root:
                shown = printable_line(os.path.join(display_path(file.root), ""))
                return msg("sub.outside_dir", dir=shown)
    except OSError as exc:  # missing, dangling, a loop of symlinks, unreadable directory
        return msg("sub.read", reason=exc.strerror or type(exc).__name__)
    try:
        fd = os.open(real, _OPEN_FLAGS)
    except OSError as exc:
        return msg("sub.read", reason=exc.strerror or type(exc).__name__)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # a pipe, a device: its size means nothing
            return msg("sub.not_regular")
        if info.st_size > limit:
            return msg("sub.size", size=info.st_size, limit=limit, unit="bytes")
        chunks: list[bytes] = []
        size = 0
        # os.read, not a buffered file object: a submission is read once, whole, and this
        # is a fifth of the time of open().read()
        while size <= limit:
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew after fstat
            return msg("sub.size", size=size, limit=limit, unit="bytes")
        return b"".join(chunks)
    except OSError as exc:
        return msg("sub.read", reason=exc.strerror or type(exc).__name__)
    finally:
        os.close(fd)
