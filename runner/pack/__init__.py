"""What a pack author imports: the engine's side of the pack interface.

A pack (one chapter's reference functions, checks, faults, learner mistakes, generators,
challenges, figures, scaffold text and messages) is a :class:`Pack` object, found by the
engine through its module's ``module.yaml`` (:mod:`runner.pack.find`). Checks receive an
:class:`Implementation` (the functions being judged, by name) and return
:data:`Measurements`; a call whose exception is the outcome to judge goes through
:func:`attempt`, which returns a :class:`Raised`. ``docs/write-a-pack.md`` walks through a
minimal pack.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from runner.pack.contract import Case, case
    from runner.pack.outcome import (
        BoundaryError,
        ForeignError,
        ForeignNotImplemented,
        PackRefused,
        Raised,
        attempt,
    )
    from runner.pack.pack import ClaimRecords, FigureData, FigureSpec, Pack, Scaffold
    from runner.pack.registry import (
        CallLog,
        CallRecord,
        CheckSpec,
        Implementation,
        Measurements,
        MissingSubject,
        MistakeUndefined,
        Precision,
        Registry,
        TwinSpec,
        UnknownName,
        measure_locally,
    )

# Each name is imported from its module when it is first asked for: what only reads an
# outcome (validating submissions, reading evidence) does not import the registry, the
# contract checks and tracemalloc.
_HOME = {
    **dict.fromkeys(("Case", "case"), "contract"),
    **dict.fromkeys(
        (
            "BoundaryError",
            "ForeignError",
            "ForeignNotImplemented",
            "PackRefused",
            "Raised",
            "attempt",
        ),
        "outcome",
    ),
    **dict.fromkeys(("ClaimRecords", "FigureData", "FigureSpec", "Pack", "Scaffold"), "pack"),
    **dict.fromkeys(
        (
            "CallLog",
            "CallRecord",
            "CheckSpec",
            "Implementation",
            "Measurements",
            "MissingSubject",
            "MistakeUndefined",
            "Precision",
            "Registry",
            "TwinSpec",
            "UnknownName",
            "measure_locally",
        ),
        "registry",
    ),
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "BoundaryError",
    "CallLog",
    "CallRecord",
    "Case",
    "CheckSpec",
    "ClaimRecords",
    "FigureData",
    "FigureSpec",
    "ForeignError",
    "ForeignNotImplemented",
    "Implementation",
    "Measurements",
    "MissingSubject",
    "MistakeUndefined",
    "Pack",
    "PackRefused",
    "Precision",
    "Raised",
    "Registry",
    "Scaffold",
    "TwinSpec",
    "UnknownName",
    "attempt",
    "case",
    "measure_locally",
]
