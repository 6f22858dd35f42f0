"""Artifacts: repository-relative paths of files the run wrote, which must exist there as
regular files. Judged by resolving paths and asking their type; no artifact is opened.
With ``--repo``, each must also be a file of the cited commit's tree: a file written after
the commit, or never committed, is not evidence of that commit."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from runner.i18n import Msg, msg
from runner.submission.context import Context, Submission
from runner.submission.problems import Finding
from runner.submission.provenance import COMMIT

WINDOWS_DRIVE = re.compile(r"[A-Za-z]:")
MAX_PATH = 4096  # PATH_MAX on Linux: anything longer cannot name a file


def artifacts(doc: Submission, ctx: Context) -> Iterator[Finding]:
    listed = doc.data.get("artifacts")
    if not isinstance(listed, list):
        return
    commit = _commit(doc, ctx)
    for i, item in enumerate(listed):
        if isinstance(item, str) and item and doc.filled(("artifacts", i)):
            problem = artifact_problem(item, ctx.repo)
            if problem is None and commit is not None and ctx.objects is not None:
                problem = _committed(item, commit, ctx)
            if problem is not None:
                yield ("artifacts", i), problem


def _commit(doc: Submission, ctx: Context) -> str | None:
    """The full sha of the cited commit, when it is the learner's (else its own rule says
    why, and the artifacts are judged on disk only)."""
    sha = doc.data.get("commit")
    if ctx.objects is None or not isinstance(sha, str) or not COMMIT.fullmatch(sha):
        return None
    found = ctx.objects.lookup(sha)
    return found.name if found.kind == "commit" else None


def _committed(item: str, commit: str, ctx: Context) -> Msg | None:
    """Why ``item`` (a path artifact_problem accepted) is not a file of ``commit``'s tree."""
    assert ctx.objects is not None
    shown = item if len(item) <= 200 else item[:199] + "…"  # repr()'d by the message
    parts = tuple(p for p in re.split(r"[\\/]", item) if p not in ("", "."))
    found = ctx.objects.entry(commit, parts)
    if isinstance(found, Msg):
        return msg("sub.artifact_unchecked", item=shown, commit=commit, why=found)
    if found == "missing":
        return msg("sub.artifact_uncommitted", item=shown, commit=commit)
    if found == "symlink":
        return msg("sub.artifact_link_in_commit", item=shown, commit=commit)
    if found == "absent":
        return msg("sub.artifact_no_blob", item=shown, commit=commit)
    if found != "file":
        return msg("sub.artifact_not_file", item=shown)
    return None


def _resolve(repo: str, parts: list[str]) -> tuple[os.stat_result | None, bool]:
    """(what ``parts`` under ``repo`` name, whether a symlink leads them outside ``repo``).

    Nothing is opened: a component at a time with lstat, as most paths have no symlink;
    at the first symlink, the whole path is resolved and checked before anything there is
    looked at (a link out of the repository says nothing of whether its target exists:
    None for what it names).
    """
    path = repo
    for part in parts:
        path = os.path.join(path, part)
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            resolved = os.path.realpath(os.path.join(repo, *parts))
            if os.path.commonpath([resolved, repo]) != repo:
                return None, True
            return os.stat(resolved), False
    return info, False  # parts is never empty


def artifact_problem(item: str, repo: Path | None) -> Msg | None:
    """Why ``item`` is not a file of the repository ``repo`` (resolved), or None."""
    shown = item if len(item) <= 200 else item[:199] + "…"  # repr()'d by the message
    if "\0" in item:
        return msg("sub.artifact_nul")
    if len(item) > MAX_PATH:
        return msg("sub.artifact_long", n=len(item), limit=MAX_PATH, unit="count")
    # Both separators count: a path written on Windows must not slip past as one name.
    parts = [p for p in re.split(r"[\\/]", item) if p not in ("", ".")]
    if item[:1] in ("/", "\\", "~") or WINDOWS_DRIVE.match(item):
        return msg("sub.artifact_absolute", item=shown)
    if ".." in parts:
        return msg("sub.artifact_escape", item=shown)
    if not parts or item[-1:] in ("/", "\\"):  # a trailing separator names a folder
        return msg("sub.artifact_not_file", item=shown)
    if ".git" in parts:
        return msg("sub.artifact_git", item=shown)
    if repo is None:
        return None
    try:
        info, escapes = _resolve(str(repo), parts)
    except PermissionError as exc:  # it may well be there: this user may not look
        return msg("sub.artifact_unreadable", item=shown, reason=exc.strerror or "")
    except OSError:  # missing, or a dangling symlink, or one that leads to itself
        return msg("sub.artifact_missing", item=shown)
    if escapes or info is None:
        return msg("sub.artifact_symlink", item=shown)
    if stat.S_ISDIR(info.st_mode):
        return msg("sub.artifact_not_file", item=shown)
    if not stat.S_ISREG(info.st_mode):  # a pipe, a socket, a device
        return msg("sub.artifact_not_regular", item=shown)
    return None
