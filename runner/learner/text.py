"""Text a learner's code wrote (printed output, exception messages, file names), made safe
to show: a small module, so that reporters can use it without the worker machinery."""

from __future__ import annotations

_CONTROLS = {c: 0x2400 + c for c in range(0x20) if c not in (0x09, 0x0A)} | {0x7F: 0x2421}
_CONTROLS |= {c: 0xFFFD for c in range(0x80, 0xA0)}
# lone surrogates (a JSON escape "\ud800", an undecodable file name) cannot be written as
# UTF-8 at all; bidirectional controls reorder what a terminal shows (a name that reads
# "passed" while it is not): both become the replacement character
_CONTROLS |= {c: 0xFFFD for c in range(0xD800, 0xE000)}
_CONTROLS |= {c: 0xFFFD for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F))}
_CONTROLS |= {c: 0xFFFD for c in range(0x2066, 0x206A)}
_LINE = _CONTROLS | {0x09: 0x2409, 0x0A: 0x2424}


def printable(text: str) -> str:
    """What the learner's code wrote, safe to show on a terminal and to write as UTF-8:
    control characters that would act (escape sequences, carriage returns) become visible
    symbols (␛, ␍); surrogates and bidirectional controls become U+FFFD. Lines stay lines."""
    return text.translate(_CONTROLS)


def printable_line(text: str) -> str:
    """As :func:`printable`, on one line: a newline or a tab in a name (a file called
    "x.py\\n  bob.py  999 points") is shown (␤, ␉), never a line of its own."""
    return text.translate(_LINE)


def printable_data(value: object) -> object:
    """Every string inside ``value`` (dict keys too) made :func:`printable`."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        return [printable_data(v) for v in value]
    if isinstance(value, dict):
        return {
            printable(k) if isinstance(k, str) else k: printable_data(v) for k, v in value.items()
        }
    return value
