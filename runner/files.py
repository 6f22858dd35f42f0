"""Reading files that may not be what their names say: a FIFO, a device, a huge file."""

from __future__ import annotations

import contextlib
import errno
import itertools
import os
import stat
from pathlib import Path


class NotRegular(OSError):
    """The path names a FIFO, a device, a directory or a socket, not a file."""


def read_regular(path: Path, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file, opened without blocking (a FIFO opened for
    reading would wait for a writer) and checked on the open descriptor."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegular(errno.EINVAL, "not a regular file")
        chunks, size = [], 0
        while size < limit:
            chunk = os.read(fd, min(limit - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file (through links too); a path that does not exist yet
    is compared by where it would be."""
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        try:
            return os.path.realpath(a) == os.path.realpath(b)
        except (OSError, ValueError):
            return False


def overwritten_input(outputs: list[Path], inputs: list[Path]) -> Path | None:
    """The first output that names one of the inputs, if any: an output written there would
    destroy what the command read."""
    for output in outputs:
        for source in inputs:
            if same_file(output, source):
                return output
    return None


def refuse_overwriting(outputs: list[str | None], inputs: list[Path]) -> None:
    """Misuse (``use.output_is_input``) when an output option names one of the inputs."""
    from runner.errors import UsageError
    from runner.load import display_path

    named = [Path(o) for o in outputs if o]
    hit = overwritten_input(named, inputs)
    if hit is not None:
        raise UsageError("use.output_is_input", path=display_path(hit))
    refuse_special(named)


def refuse_special(outputs: list[Path]) -> None:
    """Misuse (``use.output_special``) when an output names a device, a FIFO or a socket: a
    report is written beside it and renamed over it, which would replace ``/dev/null``
    itself for a grader who runs as root (an attack round, 2026-12-07)."""
    from runner.errors import UsageError
    from runner.load import display_path

    for path in outputs:
        if special(path):
            raise UsageError("use.output_special", path=display_path(path))


def special(path: Path) -> bool:
    """Whether ``path`` is a device, a FIFO or a socket, or a symbolic link to one (what
    is not there yet is none)."""
    import stat

    for look in (os.lstat, os.stat):
        try:
            mode = look(path).st_mode
        except OSError:
            continue
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
            return True
    return False


def shipped(module_file: str, *parts: str) -> str:
    """A text file shipped beside a module of this package (its ``__file__``), as pip
    installs it. Not importlib.resources, whose import brings tempfile, zipfile and random
    into every command's start-up for a zip import this package cannot run from anyway."""
    with open(os.path.join(os.path.dirname(module_file), *parts), "rb") as f:
        return f.read().decode("utf-8")


# How deep remove_tree descends before it moves a folder up to the top: its open
# descriptors stay this few, whatever the depth a learner's code made
REMOVE_DEPTH = 32


def remove_tree(path: str) -> None:
    """Remove ``path`` and everything under it, as far as it can, and never raise.

    A learner's code makes the folders a worker leaves: a chain of them thousands deep
    (shutil.rmtree recurses and raises RecursionError, which ``ignore_errors`` does not
    catch, on Python 3.11; a path that long is beyond PATH_MAX too). So: no recursion, each
    name relative to its folder's descriptor, links never followed, and a folder deeper
    than REMOVE_DEPTH moved up to the top (renamed within the tree) to be emptied there.
    What cannot be removed is left and skipped."""
    try:
        top = _open_folder(path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(path)  # a file or a link, not a folder
        return
    # each folder being emptied: its descriptor, and its name and identity in its parent
    stack: list[tuple[int, str, tuple[int, int]]] = [(top, "", (-1, -1))]
    left: set[tuple[int, int]] = set()  # (device, inode) of what could not be removed
    moved = itertools.count()
    try:
        while stack:
            fd = stack[-1][0]
            found = _next_folder(fd, left)
            if found is None:  # emptied: removed from its parent
                _, name, identity = stack.pop()
                os.close(fd)
                if stack:
                    try:
                        os.rmdir(name, dir_fd=stack[-1][0])
                    except OSError:
                        left.add(identity)
                continue
            child, identity = found
            try:
                if len(stack) >= REMOVE_DEPTH:
                    os.rename(child, f".removing-{next(moved)}", src_dir_fd=fd, dst_dir_fd=top)
                else:
                    stack.append((_open_folder(child, fd), child, identity))
            except OSError:
                left.add(identity)
    finally:
        for fd, _, _ in stack:
            os.close(fd)
    with contextlib.suppress(OSError):
        os.rmdir(path)


def _open_folder(name: str, dir_fd: int | None = None) -> int:
    return os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=dir_fd)


def _next_folder(fd: int, left: set[tuple[int, int]]) -> tuple[str, tuple[int, int]] | None:
    """Unlink every entry of the folder ``fd`` that is not a folder, and remove its empty
    folders; the name and identity of its first folder still to empty, or None."""
    try:
        with os.scandir(fd) as entries:
            for entry in entries:
                try:
                    if not entry.is_dir(follow_symlinks=False):
                        os.unlink(entry.name, dir_fd=fd)
                        continue
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                identity = (info.st_dev, info.st_ino)
                if identity in left:
                    continue
                try:
                    os.rmdir(entry.name, dir_fd=fd)  # an empty one: no need to go in
                except OSError:
                    return entry.name, identity
    except OSError:
        pass
    return None
