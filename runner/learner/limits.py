"""What a learner's code may spend (a small module: the core API imports it for every run,
the worker machinery only for learners')."""

from __future__ import annotations

from dataclasses import dataclass

WALL_FACTOR = 10
WALL_MIN_S = 30.0
# a claim whose calls have their memory traced (tracemalloc, in the worker) may use this many
# times its budgets: tracing slows code that makes many Python objects tenfold, and code
# that makes one for every pair of positions (a generator per dot product in a pure-Python
# flash attention: 2.45 s untraced, 84.6 s traced at T = 2,048) 35-fold
TRACED_BUDGET = 5
OPEN_FILES = 256  # descriptors a worker may hold at once


@dataclass(frozen=True)
class WorkerLimits:
    """What a learner's code may spend. Exceeding any of them is that claim's error."""

    # CPU seconds the learner's processes may use per claim, and once for importing the
    # file: what a busy machine does not change (it only makes them take longer). A correct
    # but naive learner's BPE (a Python loop over pairs) uses 6-10 s of it in the first
    # pack's tokenizer claim on the 2-core machine its evidence is recorded on: 20 s leaves
    # room for a slower grader
    timeout_s: float = 20.0
    # a backstop against calls that sleep or block, which use no CPU: wall-clock seconds
    # the judge waits per claim (default: WALL_FACTOR times timeout_s, at least WALL_MIN_S,
    # so a claim that fits its CPU budget on an idle machine still fits it with every core
    # shared by WALL_FACTOR busy processes)
    wall_timeout_s: float | None = None
    # and all of a learner's calls together: a learner whose every call sleeps would
    # otherwise hold its place in a class for every claim's backstop in turn (65 × 200 s);
    # a correct learner's calls take seconds of CPU in all, a slow one's minutes
    learner_wall_s: float = 1800.0
    memory_mib: int = 2048  # address space of the worker
    tmp_mib: int = 64  # its /tmp and its /dev/shm, each (in its own namespaces)
    result_mib: int = 16  # one answer of one call
    output_chars: int = 2000  # what is kept of what a claim's calls printed
    # what a claim's calls may print in all: the judge reads all of it (about 1 s of its CPU a
    # GiB), and a learner's debugging prints of 100 MB are kept trimmed, not refused
    output_mib: int = 1024
    file_mib: int = 16  # any file the learner's code writes
    result_values: int = 2**21  # numbers in one answer (lists cost the judge far more than arrays)
    drop_root: bool = True  # a root judge's worker runs as a user id of its own
    # namespaces of its own (a private root, processes, network); without them, Landlock
    # where the kernel has it (False: to judge that fallback on a machine that has both)
    namespaces: bool = True
    # the judge's own cap while a check computes on what the learner's functions returned
    check_memory_mib: int = 2048  # growth of the judge's address space during one check
    check_cpu_s: float = 120.0  # the judge's CPU time during one check
    # the judge's own wall-clock time during one check, its waits on the worker left out: a
    # backstop for a pack's check that sleeps or blocks (one check of chapter 23 takes < 1 s)
    check_wall_s: float = 600.0

    @property
    def wall_s(self) -> float:
        if self.wall_timeout_s is not None:
            return self.wall_timeout_s
        return max(WALL_MIN_S, WALL_FACTOR * self.timeout_s)

    def rlimits(self) -> dict[str, int]:
        return {
            "RLIMIT_AS": self.memory_mib * 2**20,
            "RLIMIT_FSIZE": self.file_mib * 2**20,
            "RLIMIT_CORE": 0,
            # open files (pipes' buffers, tmpfs files) hold memory outside RLIMIT_AS: a
            # learner's code needs a few, not the judge's thousands
            "RLIMIT_NOFILE": OPEN_FILES,
        }
