"""What a call produced: a value, or the exception it raised (recorded, not propagated)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Raised:
    """A call that raised. ``names`` holds the class and its bases, so a tolerance of
    ``raises: ValueError`` also accepts a subclass."""

    error: str
    message: str
    names: tuple[str, ...]

    def __str__(self) -> str:
        return f"raised {self.error}: {self.message}" if self.message else f"raised {self.error}"


def attempt(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call ``fn``; return its value, or a :class:`Raised` describing the exception."""
    try:
        return fn(*args, **kwargs)
    except NotImplementedError:
        raise  # not an outcome to judge: the function is not written yet (the claim skips)
    except Exception as exc:
        names = tuple(c.__name__ for c in type(exc).__mro__ if c is not object)
        lines = str(exc).strip().splitlines()
        return Raised(type(exc).__name__, lines[-1] if lines else "", names)
