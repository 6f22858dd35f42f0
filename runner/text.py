"""Text from outside the judge, made safe to show and to write: one policy, everywhere.

Whatever a learner's code printed, raised or returned (dict keys included), a file name, a
submission's strings, a claim file's text: before a grader's terminal, a JSON file or a
report sees it, every character that is not printable becomes its Python escape (``\\x1b``,
``\\u202e``, ``\\ud800``, ``\\U000e0041``); everything printable, Chinese included, stays as
it is, and so do spaces (U+3000, the ideographic space, is part of Chinese text).

Why escapes, not pictures or U+FFFD:

* a terminal acts on none of them: no escape sequence, carriage return, backspace or C1
  control (U+009B is CSI to some terminals) reaches it, and no bidirectional control
  (U+202E) or invisible format character (U+200B, tag characters) reorders or hides what a
  line says;
* the result is always valid UTF-8 (a lone surrogate cannot be encoded at all);
* nothing is lost or merged: ``\\u202e`` and ``\\ud800`` stay apart and say what they were,
  where U+FFFD would make both the same; and the escapes are ASCII, shown by any font.

:func:`printable` keeps newlines and tabs (printed output stays lines);
:func:`printable_line` escapes them too (a file name ``x.py\\n  bob.py 999 points`` stays one
line); :func:`printable_data` applies :func:`printable` to every string of a value, keys too.
"""

from __future__ import annotations

import unicodedata
from typing import Any

_KEPT = frozenset("\n\t")


def _escaped(ch: str, kept: frozenset[str]) -> str:
    if ch.isprintable() or ch in kept or unicodedata.category(ch) == "Zs":
        return ch
    return ch.encode("unicode_escape", "backslashreplace").decode("ascii")


def printable(text: str) -> str:
    """``text`` safe for a terminal and for UTF-8: what is not printable escaped, newlines
    and tabs kept."""
    if text.isprintable():
        return text
    return "".join(_escaped(ch, _KEPT) for ch in text)


def printable_line(text: str) -> str:
    """As :func:`printable`, on one line: newlines and tabs escaped too."""
    if text.isprintable():
        return text
    return "".join(_escaped(ch, frozenset()) for ch in text)


def distinct_lines(texts: list[str]) -> list[str]:
    """Each text as :func:`printable_line` shows it, told apart where two show alike (a
    file named ``a\x01.py`` escapes to what ``a\\x01.py`` is as it stands): a text shown
    as it is keeps its name, an escaped one that meets a name already taken is numbered
    (``a\\x01.py (2)``), so a class's rows never name two learners the same."""
    shown = [printable_line(t) for t in texts]
    taken = {s for t, s in zip(texts, shown, strict=True) if s == t}
    out = []
    for text, name in zip(texts, shown, strict=True):
        if name != text or name in out:
            base, n = name, 1
            while name in taken or name in out:
                n += 1
                name = f"{base} ({n})"
        out.append(name)
    return out


_HOLDS_TEXT = (str, list, tuple, dict)


def printable_data(value: Any) -> Any:
    """Every string inside ``value`` (dict keys too) made :func:`printable`; lists, tuples
    and dicts rebuilt, anything else as it is."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, list):
        if not any(isinstance(v, _HOLDS_TEXT) for v in value):
            return list(value)  # numbers (most of what a reply holds): nothing to make printable
        return [printable_data(v) for v in value]
    if isinstance(value, tuple):
        return tuple(printable_data(v) for v in value)
    if isinstance(value, dict):
        return {
            printable_line(k) if isinstance(k, str) else k: printable_data(v)
            for k, v in value.items()
        }
    return value
