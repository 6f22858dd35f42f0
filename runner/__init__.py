"""The executable-claims runner: load, validate, run, judge and record a chapter's claims.

The public surface is small: the core API (:mod:`runner.api`: ``load_claims``,
``run_packs``, ``run_class`` and what they take and return), the command line
(:func:`runner.cli.main`) and the exceptions below. Everything else is an implementation
detail. The API is imported on first use, so that importing a small part of the package
(as the learner's worker does) does not load the judge.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (see runner.__main__)
if TYPE_CHECKING:
    from typing import Any

    from runner.errors import ClaimsError, EvidenceError, InvalidClaims, UsageError

_API = (
    "Fault",
    "LearnerFile",
    "Reference",
    "Run",
    "RunOptions",
    "load_claims",
    "run_class",
    "run_packs",
)

__all__ = [
    "ClaimsError",
    "EvidenceError",
    "Fault",
    "InvalidClaims",
    "LearnerFile",
    "Reference",
    "Run",
    "RunOptions",
    "UsageError",
    "load_claims",
    "run_class",
    "run_packs",
]


def __getattr__(name: str) -> Any:
    # nothing is imported with the package itself: `python -m runner` holds Ctrl-C back only
    # once its own code runs (runner.__main__), so the package's import must be all but free
    if name in _API:
        from runner import api

        return getattr(api, name)
    if name in __all__:  # the exceptions
        from runner import errors

        return getattr(errors, name)
    raise AttributeError(f"module 'runner' has no attribute {name!r}")
