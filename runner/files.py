"""Reading files that may not be what their names say: a FIFO, a device, a huge file."""

from __future__ import annotations

import errno
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


def shipped(module_file: str, *parts: str) -> str:
    """A text file shipped beside a module of this package (its ``__file__``), as pip
    installs it. Not importlib.resources, whose import brings tempfile, zipfile and random
    into every command's start-up for a zip import this package cannot run from anyway."""
    with open(os.path.join(os.path.dirname(module_file), *parts), "rb") as f:
        return f.read().decode("utf-8")
