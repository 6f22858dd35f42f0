"""What each claim cost the reference, as the evidence recorded it: how a learner's claims are
split between two judges (runner.learner.share.split), and nothing else.

Read from the evidence folder a run writes into, where ``run claims/`` recorded the
reference, or else from ``evidence/`` (where it records by default). The figures decide
only which judge runs which claim, never a verdict, so evidence that is missing,
unreadable, of another implementation or of another shape is simply not used: the split
then falls back to every second claim. Never raises.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from runner.files import read_regular
from runner.load import ClaimPack
from runner.record.write import evidence_name

# A module's reference evidence is about 0.5 MiB (chapter 23's 65 claims); a file many times
# that is not one to weigh claims by, and is not read past this (a JSON document of empty
# lists this size parses in a second, into some hundreds of MiB)
MAX_READ_BYTES = 8 * 2**20


def recorded_costs(folders: list[Path], packs: list[ClaimPack]) -> dict[str, dict[str, float]]:
    """Module id -> claim id -> the milliseconds the reference's recorded evidence gives it,
    for every module whose reference evidence is readable in one of ``folders`` (the first
    that has it)."""
    found: dict[str, dict[str, float]] = {}
    for pack in packs:
        for folder in folders:
            costs = _costs(_read(folder / evidence_name(pack)))
            if costs:
                found[pack.meta.id] = costs
                break
    return found


def _read(path: Path) -> Any:
    try:
        raw = read_regular(path, MAX_READ_BYTES + 1)
        return json.loads(raw) if len(raw) <= MAX_READ_BYTES else None
    # absent, not a file, not JSON, nested too deep, too much for the memory it may use
    except (OSError, ValueError, RecursionError, MemoryError):
        return None


def _costs(doc: Any) -> dict[str, float]:
    if not isinstance(doc, dict):
        return {}
    implementation, claims = doc.get("implementation"), doc.get("claims")
    if not isinstance(implementation, dict) or implementation.get("kind") != "reference":
        return {}  # a learner's or a fault's figures say nothing of the claims' usual cost
    if not isinstance(claims, list):
        return {}
    costs: dict[str, float] = {}
    for claim in claims:
        if not isinstance(claim, dict):
            continue
        ident, spent = claim.get("id"), claim.get("duration_ms")
        if isinstance(spent, bool) or not isinstance(spent, int | float):
            continue
        if isinstance(spent, int) and spent.bit_length() > 64:  # no float: 10**400 overflows
            continue
        if isinstance(ident, str) and math.isfinite(spent) and spent >= 0:
            costs[ident] = float(spent)
    return costs
