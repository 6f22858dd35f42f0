"""The runner's words in both of the course's languages.

Messages are data: a code and its parameters (:class:`Msg`), made where something happens
and kept as they are in results and evidence. Words are chosen only where text is shown, by
a reporter that is *given* the language: there is no current language anywhere.

One catalogue per language, ``runner/locales/<lang>.json``, maps a code to a template
(``str.format`` fields), or, for things that are counted, to its plural forms
(``{"one": ..., "other": ...}``) chosen by the parameter ``n`` with the language's own rule
(Chinese has no plural; English has "one" for exactly 1). Only words change between the
languages: ids, JSON paths, file names and numbers are shown the same in both.
"""

from __future__ import annotations

import errno
import functools
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")
DEFAULT_LANG: Lang = "zh"
LANG_VARIABLES = ("LEARN_LLM_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


def resolve_language(choice: str | None, environ: Mapping[str, str] | None = None) -> Lang:
    """``--lang`` if given, else ``LEARN_LLM_LANG``, else the locale; Chinese when none says."""
    for lang in LANGS:
        if choice == lang:
            return lang
    env = os.environ if environ is None else environ
    for var in LANG_VARIABLES:
        value = env.get(var, "").lower()
        if value.startswith("zh"):
            return "zh"
        if value.startswith("en"):
            return "en"
    return DEFAULT_LANG


@dataclass(frozen=True)
class Msg:
    """A message as data: what happened (``code``) and its particulars (``params``).

    Parameters are plain data (numbers, strings, lists) or other messages; numbers are shown
    the way the chapter shows them, with the ``unit`` parameter when there is one.
    """

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def as_data(self) -> dict[str, Any]:
        """JSON data: ``{"code": ..., "params": {...}}`` (nested messages likewise)."""
        return {
            "code": self.code,
            "params": {k: v.as_data() if isinstance(v, Msg) else v for k, v in self.params.items()},
        }

    @classmethod
    def from_data(cls, data: Any) -> Msg | None:
        """The message a JSON object describes, or None when it is not one."""
        if not isinstance(data, dict) or not isinstance(data.get("code"), str):
            return None
        params = data.get("params")
        if not isinstance(params, dict):
            params = {}
        decoded = {
            k: (cls.from_data(v) or v) if isinstance(v, dict) else v for k, v in params.items()
        }
        return cls(data["code"], decoded)


def msg(code: str, /, **params: Any) -> Msg:
    return Msg(code, params)


class Catalog:
    """The words of one language."""

    def __init__(self, lang: Lang, entries: Mapping[str, str | Mapping[str, str]]) -> None:
        self.lang = lang
        self.entries = entries

    def __call__(self, code: str, /, **params: Any) -> str:
        """The message ``code`` filled with ``params``."""
        entry = self.entries[code]
        if not isinstance(entry, str):
            entry = entry[self.plural_form(params.get("n"))]
        return entry.format(**{k: self._shown(v, params, k) for k, v in params.items()})

    def say(self, message: Msg) -> str:
        return self(message.code, **message.params)

    def pick(self, text: Any) -> str:
        """A bilingual text (an object with ``zh`` and ``en``, or such a dict) in this language."""
        if isinstance(text, Mapping):
            return str(text.get(self.lang, ""))
        return str(getattr(text, self.lang))

    def plural_form(self, n: Any) -> str:
        if self.lang == "en" and n == 1:
            return "one"
        return "other"

    def _shown(self, value: Any, params: Mapping[str, Any], name: str = "") -> Any:
        if isinstance(value, Msg):
            return self.say(value)
        if isinstance(value, bool | str) or value is None:
            return value
        if is_bilingual(value):  # a generated text in both languages (a case's label)
            return self.pick(value)
        if isinstance(value, list) and all(isinstance(v, str) or is_bilingual(v) for v in value):
            return ", ".join(self.pick(v) if is_bilingual(v) else v for v in value)  # a, b, c
        from runner.numbers import show  # numbers, not words: the same in both languages

        # the message's unit is its values' ("4.0 MiB"): never a count's or an index's
        return show(value, "count" if name in COUNTS else params.get("unit"))


# parameters that count or index things in every message that has them ("{bad} of {n}
# elements outside; first at index {first}"), whatever the unit of the values beside them
COUNTS = frozenset({"n", "k", "bad", "first"})


def is_bilingual(value: Any) -> bool:
    """``{"zh": ..., "en": ...}``: one text in both languages, as data."""
    return (
        isinstance(value, Mapping)
        and set(value) == set(LANGS)
        and all(isinstance(v, str) for v in value.values())
    )


@functools.cache
def catalog(lang: Lang) -> Catalog:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; one of {', '.join(LANGS)}")
    from runner.files import shipped

    text = shipped(__file__, "locales", f"{lang}.json")
    return Catalog(lang, json.loads(text))


def say(lang: Lang, code: str, /, **params: Any) -> str:
    return catalog(lang)(code, **params)


def bilingual(code: str, /, **params: Any) -> dict[str, str]:
    """The message in both languages, for fields that carry ``zh`` and ``en``."""
    return {lang: say(lang, code, **params) for lang in LANGS}


# The operating system's reasons in the reader's language (strerror is always English).
_OS_REASONS = {
    errno.ENOENT: "os.no_such_file",
    errno.EACCES: "os.permission",
    errno.EPERM: "os.permission",
    errno.EISDIR: "os.is_directory",
    errno.ENOTDIR: "os.not_directory",
    errno.ENOSPC: "os.no_space",
    errno.EDQUOT: "os.no_space",
    errno.EROFS: "os.read_only",
    errno.ELOOP: "os.link_loop",
    errno.ENAMETOOLONG: "os.name_too_long",
    errno.EMFILE: "os.too_many_open",
    errno.ENFILE: "os.too_many_open",
    errno.EPIPE: "os.broken_pipe",
    errno.EIO: "os.io",
    errno.EEXIST: "os.exists",
}


def os_reason(exc: OSError) -> Msg | str:
    """Why the system refused, as a message when the reason is a common one; otherwise the
    system's own words."""
    code = _OS_REASONS.get(exc.errno or 0)
    return msg(code) if code else (exc.strerror or type(exc).__name__)


# Python's json module says why a text is not JSON in English: its phrases, by code
_JSON_PHRASES = {
    "Expecting value": "json.expecting_value",
    "Expecting property name enclosed in double quotes": "json.expecting_name",
    "Expecting ':' delimiter": "json.expecting_colon",
    "Expecting ',' delimiter": "json.expecting_comma",
    "Unterminated string starting at": "json.unterminated_string",
    "Invalid control character at": "json.control_character",
    "Invalid \\escape": "json.bad_escape",
    "Invalid \\uXXXX escape": "json.bad_escape",
    "Extra data": "json.extra_data",
}


def json_reason(exc: ValueError) -> Msg | str:
    """Why a text is not JSON (a json.JSONDecodeError's ``msg``), in the reader's language
    when it is one of the json module's phrases; otherwise its own words."""
    text = str(getattr(exc, "msg", exc))
    code = _JSON_PHRASES.get(text)
    return msg(code) if code else text
