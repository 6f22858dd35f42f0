"""Is a sha a commit of the learner's repository? Read from its object database, nothing else.

No git process runs and nothing of the repository's configuration is read: a config can
include files (a FIFO blocks git for ever), refuse to work for another user, or point git at
objects elsewhere. Here only ``.git/objects`` is read, with dulwich for packs and commits:
loose objects and packs, never ``objects/info/alternates``, never a ``.git`` file or a
``commondir`` that leads outside the repository, and only regular files (a pipe or a device
in place of an object is refused before it is opened). An object counts as a commit only if
its contents hash to its name. Anything that prevents an answer is "could not check", which
``validate`` reports as a problem: it never stands for "the commit exists".

Objects are read by this module, not by dulwich's ``get_raw``: that inflates a whole object
(a commit declaring 10 GB, deltas that build one) before anyone sees its size. Here the
size a pack entry or a loose object declares is read first and an object above its limit is
refused before a byte of it is inflated; inflating stops at the declared size, deltas are
applied with their result bounded, and a delta chain is bounded in length and in bytes.
dulwich reads pack indexes and checks a pack's checksum, nothing more.

A commit counts as the learner's only if a branch (remote-tracking ones included), a tag or
HEAD leads to it: an object left dangling in the database (copied in, or from a rewritten
history), or one only refs/original (a rewrite's backup) or refs/stash lead to, is not.
"""

from __future__ import annotations

import binascii
import contextlib
import hashlib
import itertools
import os
import stat
import struct
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

from runner.i18n import Msg, msg
from runner.text import printable_line

if TYPE_CHECKING:  # dulwich is imported only when a commit is looked up
    from dulwich.pack import Pack

MAX_GITFILE = 4096  # a ".git" or "commondir" file names one directory
MAX_COMMIT = 1 << 24  # bytes of a commit object, inflated: 16 MiB is far beyond any real one
MAX_TREE = 1 << 24  # bytes of a tree object, inflated (a folder of 200,000 entries)
MAX_TAG = 1 << 20  # bytes of an annotated tag, inflated
MAX_CHAIN = 4096  # deltas on the way to one object (git's --depth is at most 4095)
MAX_CHAIN_BYTES = 1 << 26  # everything inflated to build one object through its deltas
MAX_WALK = 200_000  # commits walked from the refs to find the learner's
# bytes built by applying deltas, over every object one repository's reads rebuild: a chain
# of 4,096 deltas each copying a 16 MiB base cost 10 s per commit read, and a walk reads
# each commit (a real repository's walk builds a few MB)
MAX_BUILT_BYTES = 1 << 30
# bytes inflated and hashed, over every object one repository's lookups read (each tree and
# commit read once: see GitObjects): 100 commits of 16 MiB each, or one 16 MiB tree named by
# thousands of paths, each read again, cost seconds apiece; a real repository's reads are MBs
MAX_READ_BYTES = 1 << 28
# deltas applied, over every object one repository's reads rebuild: empty deltas build no
# byte, and 5,000 commits each at the end of one chain of 4,095 of them took 99 s
MAX_DELTAS = 1_000_000
# instructions of those deltas, over the repository's reads: each is a step of a Python
# loop, and deltas of one-byte inserts built 1 GiB a byte at a time (a 9 MB repository of
# 42 such chains held validate past 120 s; a real repository's reads take thousands)
MAX_DELTA_OPS = 5_000_000
# packs an object is looked for in: each lookup asks every pack (6,000 empty packs beside
# 20,000 commits held validate past 120 s); git's gc packs a repository past 50
MAX_PACKS = 256
# what a rebuilt object is kept for, as the base of the next object whose chain passes it
# (git's delta base cache): a chain many objects share is rebuilt once
KEPT_BASE_BYTES = 1 << 26
KEPT_BASES = 100_000
# tree entries held parsed (about 100 bytes each, beside the trees' contents): a 16 MiB tree
# has 420,000; fifteen of them, held as tuples, took 2.1 GB
MAX_HELD_ENTRIES = 1_000_000
MAX_REFS = 100_000  # refs read (loose and packed)
# the refs that hold the learner's history: branches (their own and remote-tracking) and tags
HISTORY_REFS = (b"refs/heads/", b"refs/tags/", b"refs/remotes/")
MAX_REF_FILE = 1 << 24  # bytes of packed-refs
MAX_TREE_DEPTH = 256  # folders an artifact's path may go down
_LIMITS = {"commit": MAX_COMMIT, "tree": MAX_TREE, "tag": MAX_TAG}
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
_HEX = frozenset("0123456789abcdef")
_TYPES = {1: "commit", 2: "tree", 3: "blob", 4: "tag"}
_OFS_DELTA, _REF_DELTA = 6, 7
_READ = 1 << 16
T = TypeVar("T")


@dataclass(frozen=True)
class Lookup:
    """What a sha names: a commit, nothing, another kind of object, several objects, a
    commit no ref leads to, or ``unchecked`` (``why`` says what stopped the answer)."""

    kind: Literal["commit", "missing", "other", "ambiguous", "unreachable", "unchecked"]
    what: str = ""  # the object's type, for "other"
    count: int = 0  # for "ambiguous"
    why: Msg | None = None  # for "unchecked"
    name: str = ""  # the full sha, for "commit" and "unreachable"


Entry = Literal["file", "folder", "module", "missing", "symlink", "absent"]


class Unreadable(Exception):
    def __init__(self, why: Msg) -> None:
        super().__init__(why.code)
        self.why = why


class BadObject(Exception):
    """The database holds something no git wrote: said as "cannot be read"."""


class GitObjects:
    """The object database of the repository whose root is ``repo`` (resolved)."""

    def __init__(self, repo: Path) -> None:
        self.repo = str(repo)
        self._dirs: tuple[str, str] | Unreadable | None = None  # (gitdir, common gitdir)
        self._packs: list[tuple[Pack, int]] | None = None  # each with its data's fd
        self._answers: dict[str, Lookup] = {}
        self._reachable: set[str] | Unreadable | None = None
        self._entries: dict[tuple[str, tuple[str, ...]], Entry | Msg] = {}
        self._built = _Built()  # what applying deltas has built so far, and kept
        self._inflated = 0  # bytes of wanted objects read so far (MAX_READ_BYTES)
        # a tree's contents and where each of its entries starts, by name, by the tree's sha
        self._trees: dict[str, tuple[bytes, dict[bytes, int]]] = {}
        self._held_entries = 0  # entries held parsed in _trees (MAX_HELD_ENTRIES)
        self._roots: dict[str, str] = {}  # a commit's tree, by the commit's sha

    def lookup(self, sha: str) -> Lookup:
        """What ``sha`` (7 to 40 lowercase hex digits) names in the repository."""
        if sha not in self._answers:
            found = _guarded(lambda: self._lookup(sha))
            self._answers[sha] = Lookup("unchecked", why=found) if isinstance(found, Msg) else found
        return self._answers[sha]

    def entry(self, commit: str, parts: tuple[str, ...]) -> Entry | Msg:
        """What ``parts`` name in the tree of ``commit`` (a full sha lookup() found), or
        why that could not be read."""
        key = (commit, parts)
        if key not in self._entries:
            self._entries[key] = _guarded(lambda: self._entry(commit, parts))
        return self._entries[key]

    def close(self) -> None:
        for pack, fd in self._packs or []:
            # interrupted while a view of its index was held: BufferError, said by no one
            with contextlib.suppress(BufferError, OSError):
                pack.close()
            with contextlib.suppress(OSError):
                os.close(fd)
        self._packs = None

    def _lookup(self, sha: str) -> Lookup:
        if not 4 <= len(sha) <= 40 or not set(sha) <= _HEX:
            return Lookup("missing")
        objects = self._objects_dir()
        names = self._loose_names(objects, sha) | self._packed_names(objects, sha)
        if not names:
            return Lookup("missing")
        if len(names) > 1:
            return Lookup("ambiguous", count=len(names))
        (name,) = names
        kind, body = self._read(name, want=("commit",))
        if kind != "commit":
            return Lookup("other", what=kind)
        from dulwich.objects import ShaFile

        ShaFile.from_raw_string(1, body).check()  # a well-formed commit: tree, author, ...
        reachable = self._reachable_commits()
        if name not in reachable:
            return Lookup("unreachable", name=name)
        return Lookup("commit", name=name)

    # -- where the objects are ----------------------------------------------------------------
    def _objects_dir(self) -> str:
        return os.path.join(self._gitdirs()[1], "objects")

    def _gitdirs(self) -> tuple[str, str]:
        if self._dirs is None:
            try:
                self._dirs = self._find_gitdirs()
            except Unreadable as exc:
                self._dirs = exc
            except OSError as exc:
                self._dirs = Unreadable(msg("sub.git.os_error", reason=exc.strerror or ""))
        if isinstance(self._dirs, Unreadable):
            raise self._dirs
        return self._dirs

    def _find_gitdirs(self) -> tuple[str, str]:
        dotgit = os.path.join(self.repo, ".git")
        info = os.lstat(dotgit)
        if stat.S_ISREG(info.st_mode):  # a worktree's or submodule's "gitdir: <path>"
            gitdir = self._inside(self._pointer(dotgit, b"gitdir:"), self.repo, ".git")
        else:
            gitdir = self._inside(dotgit, self.repo, ".git")
        common = gitdir
        if os.path.lexists(os.path.join(gitdir, "commondir")):  # a linked worktree
            pointer = self._pointer(os.path.join(gitdir, "commondir"), b"")
            common = self._inside(pointer, gitdir, "commondir")
        objects = self._inside("objects", common, "objects")
        if not stat.S_ISDIR(os.stat(objects).st_mode):
            raise Unreadable(msg("sub.git.no_objects"))
        return gitdir, common

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
        for pack, _ in self._open_packs(objects):
            for raw in pack.index.iter_prefix(prefix):
                name = binascii.hexlify(raw).decode("ascii")
                if name.startswith(sha):
                    out.add(name)
        return out

    def _open_packs(self, objects: str) -> list[tuple[Pack, int]]:
        if self._packs is None:
            folder = os.path.join(objects, "pack")
            # not isdir(), which says False for a folder this user may not look into; and a
            # symlinked folder is refused: it leads to another repository's objects
            names = os.listdir(folder) if _own_folder(folder) else []
            packs: list[tuple[Pack, int]] = []
            if not any(n.endswith(".pack") for n in names):
                self._packs = packs  # loose objects only: dulwich's pack reader not imported
                return packs
            from dulwich.object_format import DEFAULT_OBJECT_FORMAT
            from dulwich.pack import Pack

            if sum(n.endswith(".pack") for n in names) > MAX_PACKS:
                raise Unreadable(msg("sub.git.too_many_packs", limit=MAX_PACKS, unit="count"))
            try:
                for name in sorted(n for n in names if n.endswith(".pack")):
                    base = os.path.join(folder, name[: -len(".pack")])
                    if not os.path.lexists(base + ".idx"):
                        continue  # git too ignores a pack without its index (being written)
                    for part in (base + ".pack", base + ".idx"):
                        if not stat.S_ISREG(os.lstat(part).st_mode):
                            name = printable_line(os.path.basename(part))
                            raise Unreadable(msg("sub.git.not_regular", name=name))
                    _check_fanout(base + ".idx")
                    fd = os.open(base + ".pack", _OPEN_FLAGS)
                    packs.append((Pack(base, object_format=DEFAULT_OBJECT_FORMAT), fd))
            except BaseException:
                for pack, fd in packs:
                    pack.close()
                    os.close(fd)
                raise
            self._packs = packs
        return self._packs

    # -- one object -------------------------------------------------------------------------------
    def _read(self, name: str, want: tuple[str, ...]) -> tuple[str, bytes]:
        """(the object's type, its contents when that type is wanted, else b""). Contents
        are read only within their type's limit and only once they hash to ``name``."""
        from dulwich.objects import RawObjectID

        objects = self._objects_dir()
        raw = RawObjectID(binascii.unhexlify(name))
        for pack, fd in self._open_packs(objects):
            if raw in pack:
                pack.data  # noqa: B018 - dulwich checks the pack's length and checksum
                kind, body = _packed(pack, fd, pack.index.object_offset(raw), want, self._built)
                break
        else:
            kind, body = _loose(os.path.join(objects, name[:2], name[2:]), want)
        if kind in want:
            self._inflated += len(body)
            if self._inflated > MAX_READ_BYTES:
                raise Unreadable(
                    msg("sub.git.read_limit", limit=MAX_READ_BYTES / 2**20, unit="MiB")
                )
            header = f"{kind} {len(body)}\0".encode("ascii")
            if hashlib.sha1(header + body).hexdigest() != name:
                raise Unreadable(msg("sub.git.mismatch"))
        return kind, body

    # -- what the refs lead to ------------------------------------------------------------------
    def _reachable_commits(self) -> set[str]:
        if self._reachable is None:
            try:
                self._reachable = self._walk(self._tips())
            except Unreadable as exc:
                self._reachable = exc
        if isinstance(self._reachable, Unreadable):
            raise self._reachable
        return self._reachable

    def _tips(self) -> set[str]:
        """The shas HEAD and the branches and tags hold (loose and packed, remote-tracking
        branches included): not the other refs, which hold what is no longer the learner's
        history (refs/original after a rewrite, refs/stash)."""
        gitdir, folder = self._gitdirs()
        found: set[str] = set()
        head = os.path.join(gitdir, "HEAD")
        if os.path.lexists(head):
            _add_sha(found, read_regular(head, MAX_GITFILE))
        # branches and tags are the common folder's: git reads none from a linked worktree's
        # own folder, and an object only such a file names is dangling to git
        refs_read = 0  # MAX_REFS counts refs, not the commits they name
        packed = os.path.join(folder, "packed-refs")
        if os.path.lexists(packed):
            # a peeled line (^sha) only repeats what the tag above it points to: the walk
            # reads the tag itself (one forged after a tag named a dangling commit)
            for line in read_regular(packed, MAX_REF_FILE).splitlines():
                if line[:1] not in (b"#", b"^", b"") and _history_ref(line[41:]):
                    refs_read += 1
                    _add_sha(found, line[:40])
        # refs and each of its folders read are checked here (a symlinked one would lead
        # to another repository's); os.walk follows no symlinked folder below them, and a
        # folder it cannot list is not skipped
        own = _own_folder(os.path.join(folder, "refs"))
        for kind in HISTORY_REFS if own else ():
            refs = os.path.join(folder, os.fsdecode(kind.rstrip(b"/")))
            walked = os.walk(refs, onerror=_raise) if _own_folder(refs) else iter(())
            for top, _, files in walked:
                for name in files:
                    refs_read += 1
                    if refs_read > MAX_REFS:
                        raise Unreadable(msg("sub.git.too_many_refs", limit=MAX_REFS, unit="count"))
                    path = os.path.join(top, name)
                    ref = b"/".join(os.fsencode(p) for p in Path(path).relative_to(folder).parts)
                    if _history_ref(ref) and stat.S_ISREG(os.lstat(path).st_mode):
                        _add_sha(found, read_regular(path, MAX_GITFILE))
        if refs_read > MAX_REFS:
            raise Unreadable(msg("sub.git.too_many_refs", limit=MAX_REFS, unit="count"))
        return found

    def _walk(self, tips: set[str]) -> set[str]:
        """Every commit the tips lead to through tags and parents (at most MAX_WALK)."""
        seen: set[str] = set()
        absent: set[str] = set()  # looked for once: a commit may name 340,000 missing parents
        queue = deque(sorted(tips))
        while queue:
            name = queue.popleft()
            if name in seen or name in absent:
                continue
            try:
                kind, body = self._read(name, want=("commit", "tag"))
            except FileNotFoundError:
                absent.add(name)
                continue  # a ref to nothing, a shallow clone's missing parent
            if kind == "tag":
                seen.add(name)
                _add_sha_after(queue, body, b"object ")
            elif kind == "commit":
                seen.add(name)
                if len(seen) > MAX_WALK:
                    raise Unreadable(msg("sub.git.walk_limit", limit=MAX_WALK, unit="count"))
                head = body.split(b"\n\n", 1)[0]
                for line in head.split(b"\n"):
                    if line.startswith(b"parent "):
                        _add_sha(queue, line[7:])
        return seen

    # -- what a commit holds ----------------------------------------------------------------------
    def _entry(self, commit: str, parts: tuple[str, ...]) -> Entry:
        tree = self._root(commit)
        if len(parts) > MAX_TREE_DEPTH:
            return "missing"
        for i, part in enumerate(parts):
            try:
                wanted = part.encode("utf-8")
            except UnicodeEncodeError:
                return "missing"
            body, starts = self._tree(tree)
            at = starts.get(wanted)
            if at is None:
                return "missing"
            space = body.index(b" ", at)
            nul = space + 1 + len(wanted)
            mode = int(body[at:space] or b"0", 8)
            sha = body[nul + 1 : nul + 21].hex()
            last = i == len(parts) - 1
            if mode == 0o40000:
                if last:
                    return "folder"
                tree = sha
            elif mode == 0o160000:
                return "module"
            elif not last:
                return "missing"  # a file is not a folder
            elif mode == 0o120000:
                return "symlink"  # a link's target is no file the commit holds
            else:
                return "file" if self._holds_blob(sha) else "absent"
        return "folder"

    def _holds_blob(self, sha: str) -> bool:
        """Whether the database holds the blob ``sha`` (its type read, not its contents): a
        tree may list a file whose contents the repository does not have (in a partial
        clone, it is fetched when read: counted as held)."""
        try:
            kind, _ = self._read(sha, want=())
        except (FileNotFoundError, KeyError):
            return self._partial_clone()
        return kind == "blob"

    def _partial_clone(self) -> bool:
        """Whether the repository is a partial clone (a ``.promisor`` pack: git fetches a
        blob it lacks when it is read, so a missing one is no missing file there)."""
        folder = os.path.join(self._objects_dir(), "pack")
        try:
            return _own_folder(folder) and any(n.endswith(".promisor") for n in os.listdir(folder))
        except OSError:
            return False

    def _root(self, commit: str) -> str:
        """The sha of ``commit``'s tree (its commit object read once, whatever the paths)."""
        if commit not in self._roots:
            kind, body = self._read(commit, want=("commit",))
            if kind != "commit" or not body.startswith(b"tree "):
                raise BadObject("commit-without-tree")
            self._roots[commit] = body[5:45].decode("ascii", "replace")
        return self._roots[commit]

    def _tree(self, sha: str) -> tuple[bytes, dict[bytes, int]]:
        """A tree's contents and its entries' starts by name, read and parsed once: an
        artifact list naming one large tree thousands of times costs one read of it, not
        thousands. What is held is bounded (MAX_HELD_ENTRIES): past it, the trees held so
        far are let go, and one needed again is read again, within the read budget."""
        if sha not in self._trees:
            kind, body = self._read(sha, want=("tree",))
            if kind != "tree":
                raise BadObject("tree-of-another-type")
            starts = _tree_entries(body)
            if self._held_entries + len(starts) > MAX_HELD_ENTRIES:
                self._trees.clear()
                self._held_entries = 0
            self._trees[sha] = (body, starts)
            self._held_entries += len(starts)
        return self._trees[sha]


def _check_fanout(path: str) -> None:
    """A pack index's fan-out table (v1 or v2) counts objects by their first byte, each
    entry at least the one before it. dulwich checks only the last against the file's size,
    and a prefix lookup loops from one entry to another: a forged table of 0, then 2**32 − 1,
    had it loop four billion times for each sha looked up (13 minutes, a 1 KB file)."""
    head = read_regular(path, 8 + 256 * 4)
    table = head[8:] if head[:4] == b"\xfftOc" else head
    if len(table) < 256 * 4:
        raise BadObject("pack-index-truncated")
    counts = struct.unpack(">256I", table[: 256 * 4])
    if any(b < a for a, b in itertools.pairwise(counts)):
        raise BadObject("pack-index-fanout-decreases")


def _guarded(answer: Callable[[], T]) -> T | Msg:
    """``answer()``, or why the database could not give it."""
    try:
        return answer()
    except Unreadable as exc:
        return exc.why
    except OSError as exc:  # a symlink in place of an object, a permission, ...
        return msg("sub.git.os_error", reason=exc.strerror or type(exc).__name__)
    except MemoryError:
        return msg("sub.git.too_large")
    except BadObject as exc:
        return msg("sub.git.malformed", what=str(exc))
    except Exception as exc:
        # The database is the learner's: a truncated pack, a corrupt index or a forged
        # object can make dulwich or zlib raise almost anything. The only honest answer
        # then is that it could not be checked.
        cls = type(exc)
        name = cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"
        return msg("sub.git.unreadable", error=name)


def _raise(exc: OSError) -> None:
    raise exc


def _history_ref(name: bytes) -> bool:
    """Whether ``name`` (``refs/heads/main``) is a branch or tag git itself would read: a
    name ``git check-ref-format`` refuses (``a..b``, a part that starts with a dot or ends
    in ``.lock``, control characters, `` ~^:?*[\\``, ``@{``) is no ref of the learner's
    history, nor is a ref being written (``main.lock``)."""
    if not name.startswith(HISTORY_REFS) or len(name) > 1024:
        return False
    if b".." in name or b"@{" in name or name.endswith((b"/", b".")) or b"//" in name:
        return False
    if any(c < 0x20 or c == 0x7F or c in b" ~^:?*[\\" for c in name):
        return False
    return all(part and not part.startswith(b".") and not part.endswith(b".lock")
               for part in name.split(b"/"))  # fmt: skip


def _add_sha(into: set[str] | deque[str], text: bytes) -> None:
    sha = text.strip()[:40].decode("ascii", "replace")
    if len(sha) == 40 and set(sha) <= _HEX:
        if isinstance(into, set):
            into.add(sha)
        else:
            into.append(sha)


def _add_sha_after(queue: deque[str], body: bytes, prefix: bytes) -> None:
    if body.startswith(prefix):
        _add_sha(queue, body[len(prefix) : len(prefix) + 40])


def _tree_entries(tree: bytes) -> dict[bytes, int]:
    """Where each entry of a tree's contents starts, by name (the first, should a forged tree
    name one twice: as a scan stopping at the first match would)."""
    entries: dict[bytes, int] = {}
    at = 0
    while at < len(tree):
        space = tree.find(b" ", at)
        nul = tree.find(b"\0", space + 1)
        if space < 0 or nul < 0 or nul + 21 > len(tree):
            raise BadObject("malformed-tree")
        name = tree[space + 1 : nul]
        if name not in entries:
            entries[name] = at
        at = nul + 21
    return entries


# -- reading objects within their limits ------------------------------------------------------------
def _loose(path: str, want: tuple[str, ...]) -> tuple[str, bytes]:
    """A loose object's type, and its contents if that type is wanted: the header
    ("commit 1234\\0") is inflated first and the size it declares judged before the rest."""
    with open(path, "rb", buffering=0, opener=_safe_opener) as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise Unreadable(msg("sub.git.not_regular", name=os.path.basename(path)))
        inflater = zlib.decompressobj()
        head = inflater.decompress(fh.read(4096), 64)
        nul = head.find(b"\0")
        if nul < 0:
            raise Unreadable(msg("sub.git.mismatch"))
        kind_bytes, _, size_text = head[:nul].partition(b" ")
        kind = kind_bytes[:20].decode("ascii", "replace")
        if kind not in want:
            return kind, b""
        if not size_text.isdigit() or len(size_text) > 20:
            raise Unreadable(msg("sub.git.mismatch"))
        size = int(size_text)
        if size > _LIMITS.get(kind, MAX_COMMIT):
            raise Unreadable(msg("sub.git.too_large_kind", kind=kind, size=size, unit="bytes"))
        out = bytearray(head[nul + 1 :])
        pending = inflater.unconsumed_tail
        while len(out) <= size and not inflater.eof:
            if not pending:
                pending = fh.read(_READ)
                if not pending:
                    break
            out += inflater.decompress(pending, size + 1 - len(out))
            pending = inflater.unconsumed_tail
        if len(out) != size:
            raise Unreadable(msg("sub.git.mismatch"))
        return kind, bytes(out)


@dataclass
class _Built:
    """What applying a repository's deltas has cost so far, and the objects it rebuilt, by
    (pack, offset), kept within KEPT_BASE_BYTES and KEPT_BASES."""

    made: int = 0  # bytes
    deltas: int = 0
    ops: int = 0  # the deltas' instructions
    kept_bytes: int = 0
    kept: dict[tuple[int, int], tuple[int, bytes]] = field(default_factory=dict)

    def keep(self, key: tuple[int, int], type_num: int, body: bytes) -> None:
        if len(self.kept) < KEPT_BASES and self.kept_bytes + len(body) <= KEPT_BASE_BYTES:
            self.kept[key] = (type_num, body)
            self.kept_bytes += len(body)


def _packed(
    pack: Pack, fd: int, offset: int, want: tuple[str, ...], built: _Built
) -> tuple[str, bytes]:
    """A packed object's type, and its contents if that type is wanted. The entries'
    headers are read down the delta chain first, to an object rebuilt before or to the
    chain's base; nothing is inflated unless every size they declare is within its limit.
    ``built`` counts what the repository's deltas have built so far (MAX_BUILT_BYTES,
    MAX_DELTAS) and keeps what they rebuilt."""
    from dulwich.objects import RawObjectID

    chain: list[tuple[int, int, int]] = []  # (its offset, where a delta's data starts, its size)
    seen: set[int] = set()
    kept: tuple[int, bytes] | None = None
    while True:
        if offset in seen or len(chain) > MAX_CHAIN:
            raise BadObject("delta-chain-loops")
        seen.add(offset)
        kept = built.kept.get((fd, offset))
        if kept is not None:
            type_num, size = kept[0], len(kept[1])
            break
        type_num, size, base, data_at = _entry_header(fd, offset)
        if type_num == _OFS_DELTA:
            assert isinstance(base, int)
            chain.append((offset, data_at, size))
            offset -= base
        elif type_num == _REF_DELTA:
            assert isinstance(base, bytes)
            chain.append((offset, data_at, size))
            offset = pack.index.object_offset(
                RawObjectID(base)
            )  # KeyError: a thin pack's missing base
        else:
            break
    kind = _TYPES.get(type_num, str(type_num))
    if kind not in want:
        return kind, b""
    limit = _LIMITS.get(kind, MAX_COMMIT)
    total = size + sum(s for _, _, s in chain)
    if size > limit or any(s > limit + 64 for _, _, s in chain) or total > MAX_CHAIN_BYTES:
        raise Unreadable(
            msg("sub.git.too_large_kind", kind=kind, size=max(size, total), unit="bytes")
        )
    if kept is not None:
        body = kept[1]
    else:
        body = _inflate(fd, data_at, size)
        if chain:  # a base other objects' chains may pass
            built.keep((fd, offset), type_num, body)
    for at, delta_at, delta_size in reversed(chain):
        body, ops = _apply_delta(
            body, _inflate(fd, delta_at, delta_size), limit, kind, MAX_DELTA_OPS - built.ops
        )
        built.ops += ops
        built.made += len(body)
        built.deltas += 1
        if built.made > MAX_BUILT_BYTES:
            raise Unreadable(msg("sub.git.too_costly", limit=MAX_BUILT_BYTES, unit="bytes"))
        if built.deltas > MAX_DELTAS:
            raise Unreadable(msg("sub.git.too_many_deltas", limit=MAX_DELTAS, unit="count"))
        built.keep((fd, at), type_num, body)
    return kind, body


def _entry_header(fd: int, offset: int) -> tuple[int, int, int | bytes | None, int]:
    """(type, declared size, delta base: a distance back or a sha, where the data starts)."""
    head = os.pread(fd, 64, offset)
    if offset < 12 or not head:
        raise BadObject("entry-outside-pack")
    byte = head[0]
    type_num, size, shift, at = (byte >> 4) & 7, byte & 15, 4, 1
    while byte & 0x80:
        if at >= 10:
            raise BadObject("entry-header-unterminated")
        byte = head[at]
        size |= (byte & 0x7F) << shift
        shift += 7
        at += 1
    base: int | bytes | None = None
    if type_num == _OFS_DELTA:
        byte = head[at]
        distance = byte & 0x7F
        at += 1
        while byte & 0x80:
            if at >= 20:
                raise BadObject("delta-offset-unterminated")
            byte = head[at]
            distance = ((distance + 1) << 7) | (byte & 0x7F)
            at += 1
        if not 0 < distance <= offset:
            raise BadObject("delta-base-invalid")
        base = distance
    elif type_num == _REF_DELTA:
        base = head[at : at + 20]
        at += 20
    elif type_num not in _TYPES:
        raise BadObject(f"entry-type-{type_num}")
    return type_num, size, base, offset + at


def _inflate(fd: int, offset: int, size: int) -> bytes:
    """The ``size`` bytes a zlib stream at ``offset`` declares, never more."""
    inflater = zlib.decompressobj()
    out = bytearray()
    pending = b""
    while len(out) <= size and not inflater.eof:
        if not pending:
            pending = os.pread(fd, _READ, offset)
            offset += len(pending)
            if not pending:
                break
        out += inflater.decompress(pending, size + 1 - len(out))
        pending = inflater.unconsumed_tail
    if len(out) != size:
        raise BadObject("size-not-as-declared")
    return bytes(out)


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= len(data) or shift > 63:
            raise BadObject("malformed-delta")
        byte = data[at]
        value |= (byte & 0x7F) << shift
        shift += 7
        at += 1
        if not byte & 0x80:
            return value, at


def _apply_delta(
    base: bytes, delta: bytes, limit: int, kind: str, ops_left: int = MAX_DELTA_OPS
) -> tuple[bytes, int]:
    """git's delta format, with the result bounded by ``limit`` before it is built and its
    instructions by ``ops_left``; the result and how many instructions it took."""
    source, at = _varint(delta, 0)
    target, at = _varint(delta, at)
    if source != len(base):
        raise BadObject("delta-does-not-fit-base")
    if target > limit:
        raise Unreadable(msg("sub.git.too_large_kind", kind=kind, size=target, unit="bytes"))
    out = bytearray()
    ops = 0
    while at < len(delta):
        op = delta[at]
        at += 1
        ops += 1
        if ops > ops_left:
            raise Unreadable(msg("sub.git.too_many_delta_ops", limit=MAX_DELTA_OPS, unit="count"))
        if op & 0x80:  # copy from the base
            start = length = 0
            for i in range(4):
                if op & (1 << i):
                    start |= delta[at] << (8 * i)
                    at += 1
            for i in range(3):
                if op & (1 << (4 + i)):
                    length |= delta[at] << (8 * i)
                    at += 1
            length = length or 0x10000
            if start + length > len(base) or len(out) + length > target:
                raise BadObject("delta-does-not-fit-base")
            out += base[start : start + length]
        elif op:  # insert the next op bytes
            if at + op > len(delta) or len(out) + op > target:
                raise BadObject("delta-does-not-fit-base")
            out += delta[at : at + op]
            at += op
        else:
            raise BadObject("malformed-delta")
    if len(out) != target:
        raise BadObject("delta-does-not-fit-base")
    return bytes(out), ops


def _safe_opener(path: str, flags: int) -> int:
    return os.open(path, flags | _OPEN_FLAGS)


def read_regular(path: str, limit: int) -> bytes:
    """At most ``limit`` bytes of a regular file, opened without following a last symlink and
    without waiting on a pipe."""
    fd = os.open(path, _OPEN_FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise Unreadable(msg("sub.git.not_regular", name=os.path.basename(path)))
        chunks: list[bytes] = []
        size = 0
        while size < limit:
            chunk = os.read(fd, limit - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _own_folder(path: str) -> bool:
    """Whether ``path`` is a folder of the repository itself: False when it does not exist;
    Unreadable when it is a symlink (it could lead to another repository's objects or refs)
    or not a folder at all."""
    try:
        info = os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return False
    if not stat.S_ISDIR(info.st_mode):
        raise Unreadable(msg("sub.git.not_own_folder", name=printable_line(os.path.basename(path))))
    return True
