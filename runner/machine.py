"""What this process may use of the machine."""

from __future__ import annotations

import contextlib
import math
import os

# A container's CPU quota: cgroup v2's one file ("max 100000", or "50000 100000": half a CPU),
# or cgroup v1's two (a quota of -1: none)
CPU_MAX = "/sys/fs/cgroup/cpu.max"
CFS_QUOTA = ("/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us")


def usable_cpus() -> int:
    """The CPUs this process may run on: its affinity (the CPUs it may be scheduled on),
    and no more than its container's CPU quota, rounded up (Gradescope gives a submission
    half a CPU: one process, not two taking turns on it)."""
    count = os.cpu_count() or 1
    if hasattr(os, "sched_getaffinity"):
        with contextlib.suppress(OSError):
            count = len(os.sched_getaffinity(0)) or count
    quota = cpu_quota()
    if quota is not None:
        count = min(count, max(1, math.ceil(quota)))
    return max(1, count)


def cpu_quota() -> float | None:
    """The container's CPU quota in CPUs (0.5: half of one), or None where there is none."""
    try:
        with open(CPU_MAX, encoding="ascii") as fh:
            quota, period = ([*fh.read().split(), "100000"])[:2]
        return None if quota == "max" else int(quota) / int(period)
    except (OSError, ValueError):
        pass
    for path in CFS_QUOTA:
        try:
            with open(path, encoding="ascii") as fh:
                quota_us = int(fh.read())
            with open(
                os.path.join(os.path.dirname(path), "cpu.cfs_period_us"), encoding="ascii"
            ) as fh:
                period_us = int(fh.read())
        except (OSError, ValueError):
            continue
        return None if quota_us <= 0 or period_us <= 0 else quota_us / period_us
    return None


def one_blas_thread() -> None:
    """NumPy's BLAS on one thread in this process from now on: a judge works on small
    arrays, one claim at a time, and a second thread buys no wall time while its spinning
    takes a CPU from the class's other judge (``python -m runner`` asks the same before
    NumPy starts; a judge forked from a caller of the API inherits the caller's threads)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a dependency
        return
    threadpool_limits(limits=1, user_api="blas")
