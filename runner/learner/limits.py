"""What a learner's code may spend (a small module: the core API imports it for every run,
the worker machinery only for learners')."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WorkerLimits:
    """What a learner's code may spend. Exceeding any of them is that claim's error."""

    timeout_s: float = 10.0  # per claim, and once for importing the file
    memory_mib: int = 2048  # address space of the worker
    result_mib: int = 16  # one answer of one call
    output_chars: int = 2000  # what is kept of what a claim's calls printed
    file_mib: int = 16  # any file the learner's code writes
    result_values: int = 2**21  # numbers in one answer (lists cost the judge far more than arrays)
    drop_root: bool = True  # a root judge's worker runs as a user id of its own

    def rlimits(self) -> dict[str, int]:
        return {
            "RLIMIT_AS": self.memory_mib * 2**20,
            "RLIMIT_FSIZE": self.file_mib * 2**20,
            "RLIMIT_CORE": 0,
        }
