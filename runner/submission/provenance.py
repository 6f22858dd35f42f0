"""Where the values came from: a commit of the learner's repository, a date that is not in
the future, and an environment that names no path, user or host."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

from runner.i18n import msg
from runner.submission.context import Context, Submission
from runner.submission.parse import walk
from runner.submission.problems import Finding, printable

COMMIT = re.compile(r"[0-9a-f]{7,40}")
# Clock skew and time zones: a date-only or zone-less time may be up to 14 h "ahead".
FUTURE_SLACK = dt.timedelta(hours=14)
MAX_ENV_TEXT = 500  # a sanitized environment is a line; the patterns below stay linear
UNSANITIZED_KEYS = {"user", "username", "login", "host", "hostname", "node", "home", "cwd"}
PATH_LIKE = re.compile(r"(?:^|[\s=:'\"(])(?:~[/\\]|/[^\s/]+/|[A-Za-z]:\\|\\\\[^\s\\]+\\)")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
HOST_LIKE = re.compile(
    r"\b[\w-]+\.(?:local|lan|internal|corp|home)\b"  # a machine on a private network
    r"|\b[a-z][\w-]*(?:\.[a-z][\w-]*){2,}\.[a-z]{2,}\b"  # host.dept.example.edu (3+ dots)
    r"|\b(?:\d{1,3}\.){3}\d{1,3}\b",  # an IPv4 address
    re.IGNORECASE,
)


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
        yield ("commit",), msg("sub.commit_kind", commit=sha, repo=repo, kind=printable(found.what))
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
        yield ("verified_at",), msg("sub.future", value=printable(when))


def environment(doc: Submission, ctx: Context) -> Iterator[Finding]:
    for at, value in walk(doc.data.get("environment"), ("environment",)):
        key = at[-1] if len(at) > 1 else None
        if isinstance(key, str) and key.lower() in UNSANITIZED_KEYS:
            yield at, msg("sub.env_key", key=key)
        elif isinstance(value, str) and doc.filled(at):
            if len(value) > MAX_ENV_TEXT:
                yield at, msg("sub.env_long", n=len(value), limit=MAX_ENV_TEXT, unit="count")
            elif ("/" in value or "\\" in value) and PATH_LIKE.search(value):
                yield at, msg("sub.env_path", value=value)
            elif "@" in value and EMAIL.search(value):
                yield at, msg("sub.env_email", value=value)
            elif "." in value and HOST_LIKE.search(value):
                yield at, msg("sub.env_host", value=value)


def _parse_time(text: str) -> tuple[dt.datetime, bool] | None:
    """(the moment, whether the text gave its time zone), or None if it is not ISO 8601."""
    try:
        parsed = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=dt.UTC), False
    return parsed, True
