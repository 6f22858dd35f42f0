"""Text a learner's code wrote (printed output, exception messages, file names), made safe
to show: a small module, so that reporters can use it without the worker machinery."""

from __future__ import annotations

_CONTROLS = {c: 0x2400 + c for c in range(0x20) if c not in (0x09, 0x0A)} | {0x7F: 0x2421}
_CONTROLS |= {c: 0xFFFD for c in range(0x80, 0xA0)}


def printable(text: str) -> str:
    """What the learner's code wrote, safe to show on a terminal: control characters that
    would act (escape sequences, carriage returns) become visible symbols (␛, ␍)."""
    return text.translate(_CONTROLS)
