"""The executable-claims runner: load, validate, run, judge and record a chapter's claims.

The public surface is small: :func:`runner.cli.main` and the exceptions in
:mod:`runner.errors`. Everything else is an implementation detail of the command line.
"""

from runner.errors import ClaimsError, EvidenceError, InvalidClaims, UsageError

__all__ = ["ClaimsError", "EvidenceError", "InvalidClaims", "UsageError"]
