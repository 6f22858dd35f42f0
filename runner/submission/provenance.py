"""Where the values came from: a commit of the learner's repository, a date that is not in
the future, and an environment that names no path, user or host."""

from __future__ import annotations

import datetime as dt
import html
import re
import unicodedata
import urllib.parse
from collections.abc import Iterator

from runner.i18n import msg
from runner.submission.context import Context, Submission
from runner.submission.parse import walk
from runner.submission.problems import Finding
from runner.text import printable_line

COMMIT = re.compile(r"[0-9a-f]{7,40}")
# Clock skew and time zones: a date-only or zone-less time may be up to 14 h "ahead".
FUTURE_SLACK = dt.timedelta(hours=14)
MAX_ENV_TEXT = 500  # a sanitized environment is a line; the patterns below stay linear
UNSANITIZED_KEYS = {"user", "username", "login", "host", "hostname", "node", "home", "cwd"}
# a path from the root (/home/, \home\ as Windows writes one on the current drive), a drive
# (C:\), a share (\\server\), or a home folder named from where it hangs (home/alice, Users\alice)
PATH_LIKE = re.compile(
    r"(?:^|[^\w.])(?:~[/\\]|/[^\s/]+/|\\[^\s\\]+\\|[A-Za-z]:[\\/]|\\\\[^\s\\]+\\"
    r"|(?:home|users)[/\\][^\s/\\])"
    # a folder from the root every machine has, alone: /root, /home, /opt
    r"|(?:^|[^\w.])/(?:root|home|users|opt|srv|mnt|media|tmp|var|usr|etc|workspace)\b",
    re.IGNORECASE,
)
# one of those keys given a value inside a line of text: "CPython 3.11, user=alice"
KEYED = re.compile(
    r"(?<![\w-])(user(?:name)?|login|host(?:name)?|home|cwd|pwd)\s*[=:]\s*[^\s,;)<]",
    re.IGNORECASE,
)
# a home directory by its user's name (~alice), or ~ alone: anything but the ~= of a version
TILDE = re.compile(r"~(?!=)")
# slashes NFKC keeps apart from / and \ (division, fraction and big solidus, and reverse)
SLASHES = str.maketrans(
    {"\u2215": "/", "\u2044": "/", "\u29f8": "/", "\u2571": "/", "\u29f5": "\\"}
)
# a domain ending in letters: alice@163.com is an address, python@3.11 a version
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b")
HOST_LIKE = re.compile(
    r"\b[\w-]+\.(?:local|lan|internal|corp|home)\b"  # a machine on a private network
    r"|\b[a-z][\w-]*(?:\.[a-z][\w-]*){2,}\.[a-z]{2,}\b"  # host.dept.example.edu (3+ dots)
    r"|\b(?:\d{1,3}\.){3}\d{1,3}\b",  # an IPv4 address
    re.IGNORECASE,
)


WEB_URL = re.compile(r"\b(?:https?|ftp)://[^\s/]+(?:/\S*)?", re.IGNORECASE)
# a run that may be an IPv6 address: ipaddress decides (18:21:37 and " :: " are none)
IPV6 = re.compile(r"(?<![\w:.])[0-9A-Fa-f:]{2,}(?![\w:])")


def commit(doc: Submission, ctx: Context) -> Iterator[Finding]:
    sha = doc.data.get("commit")
    if ctx.objects is None or ctx.repo is None or not isinstance(sha, str):
        return
    if not COMMIT.fullmatch(sha):
        return  # the schema says what a commit looks like
    found = ctx.objects.lookup(sha)
    repo = ctx.repo_shown
    if found.kind == "missing":
        yield ("commit",), msg("sub.commit", commit=sha, repo=repo)
    elif found.kind == "other":
        yield (
            ("commit",),
            msg("sub.commit_kind", commit=sha, repo=repo, kind=printable_line(found.what)),
        )
    elif found.kind == "ambiguous":
        yield ("commit",), msg("sub.commit_ambiguous", commit=sha, repo=repo, n=found.count)
    elif found.kind == "unreachable":
        yield ("commit",), msg("sub.commit_unreachable", commit=sha, repo=repo)
    elif found.kind == "unchecked":
        yield ("commit",), msg("sub.commit_unchecked", commit=sha, repo=repo, why=found.why)


def verified_at(doc: Submission, ctx: Context) -> Iterator[Finding]:
    when = doc.data.get("verified_at")
    if not isinstance(when, str) or not doc.filled(("verified_at",)):
        return
    parsed = _parse_time(when)
    if parsed is None:
        yield ("verified_at",), msg("sub.time_format", value=when[:60])
        return
    moment, zoned = parsed
    slack = dt.timedelta(minutes=5) if zoned else FUTURE_SLACK
    if moment > ctx.now + slack:
        yield ("verified_at",), msg("sub.future", value=printable_line(when))


def environment(doc: Submission, ctx: Context) -> Iterator[Finding]:
    for at, value in walk(doc.data.get("environment"), ("environment",)):
        key = at[-1] if len(at) > 1 else None
        # "User Name", "user_name", "HOST-NAME" as "username", "hostname"
        if isinstance(key, str) and re.sub(r"[\s_-]", "", key.lower()) in UNSANITIZED_KEYS:
            yield at, msg("sub.env_key", key=key)
        elif isinstance(value, str) and doc.filled(at):
            if len(value) > MAX_ENV_TEXT:
                yield at, msg("sub.env_long", n=len(value), limit=MAX_ENV_TEXT, unit="count")
                continue
            text = _as_read(value)
            # a URL of a host (https://pypi.org/simple/) names no folder of this machine;
            # file:/// does, and stays
            local = WEB_URL.sub(" ", text) if "://" in text else text
            keyed = KEYED.search(text) if ("=" in text or ":" in text) else None
            if keyed:
                yield at, msg("sub.env_key", key=keyed.group(1))
            elif (("/" in local or "\\" in local) and PATH_LIKE.search(local)) or TILDE.search(
                text
            ):
                yield at, msg("sub.env_path", value=printable_line(value))
            elif "@" in text and EMAIL.search(text):
                yield at, msg("sub.env_email", value=printable_line(value))
            elif _names_a_host(text):
                yield at, msg("sub.env_host", value=printable_line(value))


def _names_a_host(text: str) -> bool:
    """A host name of a private network or of 3 dots and more, an IPv4 or IPv6 address
    (not user@host, nor machine.example.com: a package pinned to a branch, transformers@main,
    and a public index, download.pytorch.org, read alike, and an honest line is not refused)."""
    if "." in text and HOST_LIKE.search(text):
        return True
    if "::" not in text and text.count(":") < 7:
        return False
    import ipaddress

    for token in IPV6.findall(text):  # a run of hex digits and colons, read as an address
        if any(c not in ":" for c in token) and token.count(":") >= 2:
            try:
                ipaddress.IPv6Address(token)
            except ValueError:
                continue
            return True
    return False


def _as_read(value: str) -> str:
    """The text a person or a program would take ``value`` for: percent-decoded and its
    HTML character references resolved until neither changes it (%2525252F is / four
    decodings on, &#47; is /; each decoding shortens the text, at most 500 characters, so
    this ends), then NFKC-normalized (full-width ／ is /), with the slash look-alikes NFKC
    leaves alone made slashes."""
    text = value
    for _ in range(len(value) + 1):
        decoded = html.unescape(urllib.parse.unquote(text))
        if decoded == text:
            break
        text = decoded
    return unicodedata.normalize("NFKC", text).translate(SLASHES)


def _parse_time(text: str) -> tuple[dt.datetime, bool] | None:
    """(the moment, whether the text gave its time zone), or None if it is not ISO 8601."""
    try:
        parsed = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=dt.UTC), False
    return parsed, True
