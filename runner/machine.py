"""What this process may use of the machine."""

from __future__ import annotations

import os


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity: a container's share, not the
    machine's count)."""
    if hasattr(os, "sched_getaffinity"):
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except OSError:
            pass
    return max(1, os.cpu_count() or 1)
