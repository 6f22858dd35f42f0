"""What a call produced: a value, the exception it raised, or a failure of the boundary.

Checks call the functions being judged through :func:`attempt` when raising is itself the
outcome to judge (``raises: ValueError``). Two kinds of exception are never outcomes:
``NotImplementedError`` (the function is not written yet: the claim is skipped) and
:class:`BoundaryError` (the worker that runs a learner's code timed out, died or sent back
something that is not plain data: the claim is an error, whatever the check expected).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

# A raised outcome is a value the comparison engine compares like any other; it lives there
# (the learner's worker imports the engine, never this package).
from runner.compare import Raised as Raised


class PackRefused(TypeError):
    """A registration of a pack's the engine refuses (a check without ``impl``, a text in
    one language only): raised as the pack is imported, and said in the reader's language
    where the import's failure is shown (its English words are the exception's text)."""

    def __init__(self, code: str, **params: Any) -> None:
        from runner.i18n import Msg, catalog

        self.said = Msg(code, params)
        super().__init__(catalog("en").say(self.said))

    @property
    def python_name(self) -> str:
        """The built-in error it is, as a pack author reads it."""
        return "ValueError" if isinstance(self, ValueError) else "TypeError"


class PackRefusedValue(PackRefused, ValueError):
    """A refusal that is a ValueError, as before (a name registered twice, a generator that
    made another number of cases than its claim asks for)."""


def said_by_engine(exc: BaseException) -> tuple[str, Any] | None:
    """(the built-in error it is, the engine's message) for an exception the engine raised
    about a pack's mistake with words of its own (a refusal, an undeclared subject), to be
    shown in the reader's language; None for any other."""
    from runner.i18n import Msg

    said = getattr(exc, "said", None)
    if not isinstance(said, Msg):
        return None
    if isinstance(exc, PackRefused):
        return exc.python_name, said
    kind = next((k for k in type(exc).__mro__ if k.__module__ == "builtins"), type(exc))
    return kind.__name__, said


class ForeignError(Exception):
    """A learner's function raised, in its worker; this carries what it raised, as data."""

    def __init__(
        self, function: str, error: str, message: str, names: tuple[str, ...], line: int | None
    ) -> None:
        super().__init__(f"{error}: {message}" if message else error)
        self.function = function
        self.error = error
        self.message = message
        self.names = names
        self.line = line


class ForeignNotImplemented(NotImplementedError):
    """A learner's function raised NotImplementedError: ``function`` is not written yet
    (the one ``called``, or one of the contract's it calls, which raised)."""

    def __init__(self, function: str, line: int | None, called: str | None = None) -> None:
        super().__init__(function)
        self.function = function
        self.line = line
        self.called = called


@dataclass(eq=False)
class BoundaryError(Exception):
    """The worker running a learner's code failed: timed out, died, exceeded a limit, or
    returned something that is not plain data. ``code`` and ``params`` say which, as data."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.code}: {dict(self.params)}"


def attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call ``fn``; return its value, or a :class:`Raised` describing the exception."""
    try:
        return fn(*args, **kwargs)
    except (NotImplementedError, BoundaryError):
        raise  # not outcomes to judge: not written yet, or the worker failed
    except ForeignError as exc:
        return Raised(exc.error, exc.message, exc.names)
    except Exception as exc:
        names = tuple(c.__name__ for c in type(exc).__mro__ if c is not object)
        lines = str(exc).strip().splitlines()
        return Raised(type(exc).__name__, lines[-1] if lines else "", names)
