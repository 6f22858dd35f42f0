"""Is a sha a commit of the learner's repository? Read from its object database, nothing else.

No git process runs and nothing of the repository's configuration is read: a config can
include files (a FIFO blocks git for ever), refuse to work for another user, or point git at
objects elsewhere. Here only ``.git/objects`` is read, with dulwich for packs and commits:
loose objects and packs, never ``objects/info/alternates``, never a ``.git`` file or a
``commondir`` that leads outside the repository, and only regular files (a pipe or a device
in place of an object is refused before it is opened). An object counts as a commit only if
its contents hash to its name. Anything that prevents an answer is "could not check", which
``validate`` reports as a problem: it never stands for "the commit exists".
"""

from __future__ import annotations

import binascii
import io
import os
import stat
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from runner.i18n import Msg, msg
from runner.submission.problems import printable

if TYPE_CHECKING:  # dulwich is imported only when a commit is looked up
    from dulwich.objects import ShaFile
    from dulwich.pack import Pack

MAX_GITFILE = 4096  # a ".git" or "commondir" file names one directory
MAX_COMMIT = 1 << 24  # bytes of a commit object, inflated: 16 MiB is far beyond any real one
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_HEX = frozenset("0123456789abcdef")
_TYPES = {1: "commit", 2: "tree", 3: "blob", 4: "tag"}


@dataclass(frozen=True)
class Lookup:
    """What a sha names: a commit, nothing, another kind of object, several objects, or
    ``unchecked`` (``why`` says what stopped the answer)."""

    kind: Literal["commit", "missing", "other", "ambiguous", "unchecked"]
    what: str = ""  # the object's type, for "other"
    count: int = 0  # for "ambiguous"
    why: Msg | None = None  # for "unchecked"


class Unreadable(Exception):
    def __init__(self, why: Msg) -> None:
        super().__init__(why.code)
        self.why = why


class GitObjects:
    """The object database of the repository whose root is ``repo`` (resolved)."""

    def __init__(self, repo: Path) -> None:
        self.repo = str(repo)
        self._objects: str | Unreadable | None = None
        self._packs: list[Pack] | None = None
        self._answers: dict[str, Lookup] = {}

    def lookup(self, sha: str) -> Lookup:
        """What ``sha`` (7 to 40 lowercase hex digits) names in the repository."""
        if sha not in self._answers:
            self._answers[sha] = self._lookup(sha)
        return self._answers[sha]

    def close(self) -> None:
        for pack in self._packs or []:
            pack.close()
        self._packs = None

    def _lookup(self, sha: str) -> Lookup:
        if not 4 <= len(sha) <= 40 or not set(sha) <= _HEX:
            return Lookup("missing")
        try:
            objects = self._objects_dir()
            names = self._loose_names(objects, sha) | self._packed_names(objects, sha)
            if not names:
                return Lookup("missing")
            if len(names) > 1:
                return Lookup("ambiguous", count=len(names))
            (name,) = names
            kind = self._kind(objects, name)
            return Lookup("commit") if kind == "commit" else Lookup("other", what=kind)
        except Unreadable as exc:
            return Lookup("unchecked", why=exc.why)
        except OSError as exc:  # a symlink in place of an object, a permission, ...
            reason = exc.strerror or type(exc).__name__
            return Lookup("unchecked", why=msg("sub.git.os_error", reason=reason))
        except Exception as exc:
            # The database is the learner's: a truncated pack, a corrupt index or a forged
            # object can make dulwich or zlib raise almost anything. The only honest answer
            # then is that the commit could not be checked.
            cls = type(exc)
            name = (
                cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"
            )
            return Lookup("unchecked", why=msg("sub.git.unreadable", error=name))

    # -- where the objects are ----------------------------------------------------------------
    def _objects_dir(self) -> str:
        if self._objects is None:
            try:
                self._objects = self._find_objects()
            except Unreadable as exc:
                self._objects = exc
            except OSError as exc:
                self._objects = Unreadable(msg("sub.git.os_error", reason=exc.strerror or ""))
        if isinstance(self._objects, Unreadable):
            raise self._objects
        return self._objects

    def _find_objects(self) -> str:
        dotgit = os.path.join(self.repo, ".git")
        info = os.lstat(dotgit)
        if stat.S_ISREG(info.st_mode):  # a worktree's or submodule's "gitdir: <path>"
            gitdir = self._inside(self._pointer(dotgit, b"gitdir:"), self.repo, ".git")
        else:
            gitdir = self._inside(dotgit, self.repo, ".git")
        common = os.path.join(gitdir, "commondir")
        if os.path.lexists(common):  # a linked worktree keeps its objects in the main one
            gitdir = self._inside(self._pointer(common, b""), gitdir, "commondir")
        objects = self._inside("objects", gitdir, "objects")
        if not stat.S_ISDIR(os.stat(objects).st_mode):
            raise Unreadable(msg("sub.git.no_objects"))
        return objects

    def _pointer(self, path: str, prefix: bytes) -> str:
        """The path a small pointer file holds (``gitdir: ../x``, or a commondir's line)."""
        text = read_regular(path, MAX_GITFILE).strip()
        if not text.startswith(prefix):
            raise Unreadable(msg("sub.git.bad_pointer", file=os.path.basename(path)))
        return os.fsdecode(text[len(prefix) :].strip())

    def _inside(self, path: str, base: str, what: str) -> str:
        """``path`` (relative to ``base``) resolved, if it stays inside the repository."""
        resolved = os.path.realpath(os.path.join(base, path))
        if os.path.commonpath([resolved, self.repo]) != self.repo:
            raise Unreadable(msg("sub.git.outside", what=what))
        return resolved

    # -- which objects a prefix names -----------------------------------------------------------
    def _loose_names(self, objects: str, sha: str) -> set[str]:
        folder = os.path.join(objects, sha[:2])
        try:
            info = os.lstat(folder)
        except FileNotFoundError:
            return set()
        if not stat.S_ISDIR(info.st_mode):  # a symlink could lead anywhere
            raise Unreadable(msg("sub.git.not_regular", name=sha[:2]))
        rest = sha[2:]
        return {
            sha[:2] + name
            for name in os.listdir(folder)
            if len(name) == 38 and name.startswith(rest) and set(name) <= _HEX
        }

    def _packed_names(self, objects: str, sha: str) -> set[str]:
        prefix = binascii.unhexlify(sha[: len(sha) // 2 * 2])
        out = set()
        for pack in self._open_packs(objects):
            for raw in pack.index.iter_prefix(prefix):
                name = binascii.hexlify(raw).decode("ascii")
                if name.startswith(sha):
                    out.add(name)
        return out

    def _open_packs(self, objects: str) -> list[Pack]:
        if self._packs is None:
            from dulwich.object_format import DEFAULT_OBJECT_FORMAT
            from dulwich.pack import Pack

            folder = os.path.join(objects, "pack")
            names = os.listdir(folder) if os.path.isdir(folder) else []
            packs = []
            for name in sorted(n for n in names if n.endswith(".pack")):
                base = os.path.join(folder, name[: -len(".pack")])
                if not os.path.lexists(base + ".idx"):
                    continue  # git too ignores a pack without its index (being written)
                for part in (base + ".pack", base + ".idx"):
                    if not stat.S_ISREG(os.lstat(part).st_mode):
                        name = printable(os.path.basename(part))
                        raise Unreadable(msg("sub.git.not_regular", name=name))
                packs.append(Pack(base, object_format=DEFAULT_OBJECT_FORMAT))
            self._packs = packs
        return self._packs

    # -- one object -------------------------------------------------------------------------------
    def _kind(self, objects: str, name: str) -> str:
        """The object's type; for a commit, only once its contents hash to ``name``."""
        from dulwich import objects as dulwich_objects

        raw = dulwich_objects.RawObjectID(binascii.unhexlify(name))
        for pack in self._open_packs(objects):
            if raw in pack:
                type_num, body = pack.get_raw(raw)
                kind = _TYPES.get(type_num, str(type_num))
                if kind == "commit":
                    self._verify(dulwich_objects.ShaFile.from_raw_string(type_num, body), name)
                return kind
        path = os.path.join(objects, name[:2], name[2:])
        kind, compressed = _peek_loose(path)
        if kind == "commit":
            self._verify(
                dulwich_objects.ShaFile.from_file(io.BytesIO(compressed), max_size=MAX_COMMIT), name
            )
        return kind

    @staticmethod
    def _verify(obj: ShaFile, name: str) -> None:
        obj.check()  # a well-formed commit: tree, author, committer, message
        if obj.id.decode("ascii") != name:
            raise Unreadable(msg("sub.git.mismatch"))


def _peek_loose(path: str) -> tuple[str, bytes]:
    """(the loose object's type, its compressed bytes when it is a commit). The type is in
    the first inflated bytes, so a large blob is never inflated whole."""
    with open(path, "rb", opener=_safe_opener) as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise Unreadable(msg("sub.git.not_regular", name=os.path.basename(path)))
        first = fh.read(4096)
        head = zlib.decompressobj().decompress(first, 64)  # "commit 1234\0" and a little
        if b"\0" not in head:
            raise Unreadable(msg("sub.git.mismatch"))
        kind = head.split(b" ", 1)[0][:20].decode("ascii", "replace")
        if kind != "commit":
            return kind, b""
        rest = fh.read(MAX_COMMIT + 1 - len(first))
        if len(first) + len(rest) > MAX_COMMIT:
            raise Unreadable(msg("sub.git.too_large"))
        return kind, first + rest


def _safe_opener(path: str, flags: int) -> int:
    return os.open(path, flags | _OPEN_FLAGS)


def read_regular(path: str, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file, opened without following a last symlink and
    without waiting on a pipe."""
    fd = os.open(path, _OPEN_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Unreadable(msg("sub.git.not_regular", name=os.path.basename(path)))
        return os.read(fd, limit)
    finally:
        os.close(fd)
