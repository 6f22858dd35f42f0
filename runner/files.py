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
