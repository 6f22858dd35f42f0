"""Checks for stage 7: logits bytes per configuration, checked against a real array."""

from __future__ import annotations

import numpy as np

from checks.measure.common import largest, whole
from checks.pack import check
from runner.pack import Implementation, Measurements

MIB = 2**20


@check(
    "logits_bill",
    needs=("logits_memory_bytes",),
    measures=("bytes", "mib", "ratio_to_first", "allocation_mismatch_bytes"),
)
def logits_bill(
    impl: Implementation, batch: int, configs: list[list[int]], bytes_per_value: int
) -> Measurements:
    """Stage 7: B*T*V*bytes for each (T, V), in MiB and as a ratio to the first row."""
    dtype = {2: np.float16, 4: np.float32, 8: np.float64}[bytes_per_value]
    sizes = [whole(impl["logits_memory_bytes"](batch, t, v, bytes_per_value)) for t, v in configs]
    # np.empty reserves the pages without touching them, so this is cheap even at 700 MiB,
    # and its nbytes is what a real (B, T, V) logits tensor occupies.
    allocated = [np.empty((batch, t, v), dtype=dtype).nbytes for t, v in configs]
    return {
        "bytes": sizes,
        "mib": [s / MIB for s in sizes],
        "ratio_to_first": [s / sizes[0] for s in sizes],
        "allocation_mismatch_bytes": largest(
            abs(a - s) for a, s in zip(allocated, sizes, strict=True)
        ),
    }
