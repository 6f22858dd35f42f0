"""The worker: the only process where a learner's code is imported and called.

It is forked from a server that has imported NumPy once (so a learner costs a fork, not a
Python start-up). Before any of the learner's code runs it confines itself (:func:`confine`):
its own process group, only its three pipes open, limits on memory, file size and processes,
an empty environment, a fresh temporary working directory, not readable or traceable by
other processes of its user, and, when the judge runs as root, a user id of its own. Then it
compiles the source the judge read (so the code that runs is the code whose hash the evidence
records), says which of the chapter's functions the file defines, and answers calls until it
is told to stop or killed. Everything it sends is plain data (:mod:`runner.learner.codec`),
framed on a pipe of its own; the judge trusts none of it.

This module imports nothing of the judge: no models, no registry, no evidence writer. Code
that runs here can only decide what its own functions return; and a function that is the
course's own code (the engine's or any pack's, whose packages and directories the judge
names in the worker's set-up: ``import checks.reference``, or the file loaded by path) is
refused at load, so a reference cannot stand in for the learner's work.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib.abc
import importlib.machinery
import inspect
import mmap
import os
import resource
import signal
import struct
import sys
import traceback
import tracemalloc
import types
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np  # imported here so the fork server holds it for every worker

from runner.compare import unchanged
from runner.learner.codec import REQUEST, CodecError, Limits, decode, encode, kind_of

MODULE_NAME = "learner_impl"
FRAME = struct.Struct("<Q")  # each message: its length, then its bytes
QUIT = "$quit"
# A worker started by a judge running as root takes a user id of its own (this base plus its
# process id: distinct for workers alive at once, and far above any real account), so it can
# neither signal nor read the judge, other learners' workers, or files that are not public.
SANDBOX_UID_BASE = 2_000_000_000
NOBODY = 65534  # when the user namespace maps no such id (rootless containers)
SANDBOX_NPROC = 64  # processes a worker may add to its user's (a fork bomb stops there)
# Variables the worker keeps (a learner's output is shown to the learner: a grader's tokens
# must not be in its environment); the BLAS thread settings come from the judge.
KEPT_ENVIRONMENT = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "SYSTEMROOT")
# The engine's own package, hidden whatever the judge names beside it (see _JudgeHidden).
ENGINE_PACKAGE = "runner"
ENGINE_DIRECTORY = str(Path(__file__).resolve().parents[1]) + os.sep


class _Hidden:
    """The course's code, as the judge named it: packages a learner's file may not import,
    and the directories a function of the learner's may not come from."""

    packages: tuple[str, ...] = (ENGINE_PACKAGE,)
    directories: tuple[str, ...] = (ENGINE_DIRECTORY,)


PR_GET_DUMPABLE = 3
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
PR_SET_PDEATHSIG = 1


def serve_connections(
    request: Connection,
    reply: Connection,
    output: Connection,
    path: str,
    source: bytes,
    subjects: list[str],
    setup: dict[str, Any],
) -> None:
    """The worker's entry point. It lives here, in the module the fork server imported,
    so a worker imports nothing more (not the judge's registry or checks); the pipes arrive
    as Connections (so the fork server can pass them) and are used as raw descriptors."""
    serve(request.fileno(), reply.fileno(), output.fileno(), path, source, subjects, setup)


def serve(
    request_fd: int,
    reply_fd: int,
    output_fd: int,
    path: str,
    source: bytes,
    subjects: list[str],
    setup: dict[str, Any],
) -> None:
    """The worker's whole life: confine, load, answer. It never returns; it exits."""
    limits = Limits(max_bytes=int(setup["result_bytes"]), max_elements=int(setup["result_values"]))
    try:
        inherited = _prctl(PR_GET_DUMPABLE, 0)  # the fork server's, before this worker's own
        isolation = confine(request_fd, reply_fd, output_fd, path, setup)
    except BaseException as exc:  # not one line of the learner's code has run yet
        _send(
            reply_fd, {"status": "unconfined", "what": f"{type(exc).__name__}: {exc}"[:300]}, limits
        )
        os._exit(0)
    # sent before the learner's code runs, so the judge can believe it
    confined = {"status": "confined", "isolation": isolation, "server_dumpable": inherited}
    _send(reply_fd, confined, limits)
    try:
        functions, reply = _load(path, source, subjects)
    except BaseException as exc:  # a learner's import may raise anything
        _send(reply_fd, _raised(exc, path, during="import"), limits)
        os._exit(0)
    _send(reply_fd, reply, limits)
    while True:
        try:
            os.set_blocking(request_fd, True)  # the learner's code may have changed it
            call = decode(_receive(request_fd), REQUEST)
            name, args, kwargs = call["name"], call["args"], call["kwargs"]
            measure, watch = call["measure"], call.get("watch") is True
        except (CodecError, EOFError, OSError, KeyError, TypeError, AttributeError):
            os._exit(0)  # the judge is gone or said something this worker does not speak
        if name == QUIT or name not in functions:
            os._exit(0)
        _send(reply_fd, _call(functions[name], args, kwargs, measure, path, watch), limits)


# -- confinement ------------------------------------------------------------------------------
def confine(
    request_fd: int, reply_fd: int, output_fd: int, path: str, setup: dict[str, Any]
) -> str:
    """Everything the worker does to itself before the learner's code runs (see the module
    docstring); what it achieved as to users: ``own-user``, ``nobody``, ``root`` (a root
    judge whose user namespace maps no other id) or ``same-user`` (an ordinary judge)."""
    parent = os.getppid()  # the fork server
    os.setsid()  # its own process group: the judge kills it with everything it started
    # orphans of its children become its own: a child in a session of its own stays findable
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    # Only the protocol's pipes stay open: not the fork server's status and liveness pipes,
    # not multiprocessing's resource tracker (garbage written there reaches other processes).
    keep = sorted({request_fd, reply_fd, output_fd})
    low = 3
    for fd in keep:
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, _max_fd())
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(output_fd, 1)  # whatever the learner prints goes to the judge, beside the claim
    os.dup2(output_fd, 2)
    if output_fd > 2:
        os.close(output_fd)
    for name, value in setup["rlimits"].items():
        _limit(getattr(resource, name), int(value))
    sys.argv[:] = [path]  # not the judge's command line
    sys.path.insert(0, str(Path(path).parent))  # the learner's own helper modules
    workdir = str(setup["workdir"])
    isolation = "same-user"
    if os.geteuid() == 0 and setup.get("drop_root", True):
        _hold_import_path()
        isolation = _drop_root(workdir)
    if isolation != "own-user" and os.getuid() != 0:  # root ignores the limit anyway
        _cap_processes()
    os.chdir(workdir)
    environment = {
        k: os.environ[k] for k in (*KEPT_ENVIRONMENT, *setup["environment"]) if k in os.environ
    }
    os.environ.clear()
    os.environ.update(environment, HOME=workdir, TMPDIR=workdir, PYTHONDONTWRITEBYTECODE="1")
    sys.dont_write_bytecode = True  # a learner's helper modules leave no caches behind
    _Hidden.packages = tuple({ENGINE_PACKAGE, *map(str, setup.get("hidden_packages", ()))})
    _Hidden.directories = tuple({ENGINE_DIRECTORY, *map(str, setup.get("hidden_directories", ()))})
    _hide_judge()
    _guard_measurement()
    _prctl(PR_SET_NO_NEW_PRIVS, 1)  # no set-user-id program regains what was dropped
    _prctl(PR_SET_DUMPABLE, 0)  # other processes of this user cannot read or trace it
    # The fork server ends when its judge does (however it ends): the worker ends with it,
    # even while the learner's code loops. Set last: a change of user clears it.
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the server ended before that
        os._exit(0)
    return isolation


# tracemalloc's own functions, kept before a learner's code runs: the module's attributes
# are replaced by tripwires (see _guard_measurement), the measurement uses these
_START, _STOP, _RESET_PEAK = tracemalloc.start, tracemalloc.stop, tracemalloc.reset_peak
_TRACED, _IS_TRACING = tracemalloc.get_traced_memory, tracemalloc.is_tracing


class _Measurement:
    """What the learner's code did to the measurement of the call under way."""

    tampered = False  # it stopped, reset or cleared the tracing
    mapped = 0  # bytes it mapped with mmap (tracemalloc does not see mappings)


def _tripwire(*args: Any, **kwargs: Any) -> None:
    _Measurement.tampered = True


class _CountedMap(mmap.mmap):
    """mmap.mmap as the learner's code sees it: each mapping's size is added to the peak
    of the call that made it (an anonymous mapping would hide a (T, T) array)."""

    def __new__(cls, *args: Any, **kwargs: Any) -> _CountedMap:
        mapping = super().__new__(cls, *args, **kwargs)
        with contextlib.suppress(Exception):
            _Measurement.mapped += len(mapping)
        return mapping


def _guard_measurement() -> None:
    """A call's peak memory cannot be hidden by resetting or stopping tracemalloc (through
    tracemalloc or _tracemalloc) or by allocating through mmap."""
    import _tracemalloc

    for module in (tracemalloc, _tracemalloc):
        for name in ("stop", "reset_peak", "clear_traces"):
            if hasattr(module, name):
                setattr(module, name, _tripwire)
    mmap.mmap = _CountedMap  # type: ignore[misc]


class _JudgeHidden(importlib.abc.MetaPathFinder):
    """Refuses to import the judge's packages: a learner's file that imports
    ``checks.reference`` would hand in the course's answer as its own."""

    def find_spec(
        self, fullname: str, path: Any = None, target: Any = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname.partition(".")[0] not in _Hidden.packages:
            return None
        # a learner's own helper module may share a name with ours (their runner.py)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        where = [spec.origin or "", *(spec.submodule_search_locations or [])] if spec else []
        if where and not any(
            os.path.realpath(w).startswith(_Hidden.directories)
            or os.path.realpath(w) + os.sep in _Hidden.directories
            for w in where
            if w
        ):
            return spec
        raise ImportError(f"{fullname} is the course's own code, not importable here")


def _hide_judge() -> None:
    """The judge's modules leave the module table (this worker's own code keeps the
    references it holds) and cannot be imported again."""
    for name in list(sys.modules):
        if name.partition(".")[0] in _Hidden.packages:
            del sys.modules[name]
    sys.meta_path.insert(0, _JudgeHidden())


def _borrowed(fn: Any) -> str | None:
    """The file of the course's own code that ``fn`` is (or wraps), if it is."""
    seen = 0
    while fn is not None and seen < 100:  # a wrapper of a wrapper of ... the reference
        code = getattr(fn, "__code__", None)
        filename = getattr(code, "co_filename", None)
        if isinstance(filename, str):
            with contextlib.suppress(OSError, ValueError):
                filename = os.path.realpath(filename)
            if filename.startswith(_Hidden.directories):
                return filename
        fn = getattr(fn, "__wrapped__", None) or getattr(fn, "__func__", None)
        seen += 1
    return None


def _max_fd() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return soft if 0 < soft < 1 << 20 else 1 << 16


def _limit(which: int, value: int) -> None:
    """Soft and hard limit alike: the learner's code cannot raise it again."""
    _, hard = resource.getrlimit(which)
    cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
    resource.setrlimit(which, (cap, cap))


def _hold_import_path() -> None:
    """Keep the import path readable after dropping root. Python may live where only root
    can look (e.g. under /root): each directory of the import path (sys.path, and the
    ``__path__`` of every package already imported) that other users cannot reach is opened
    now and named through ``/proc/self/fd``, which reaches it without passing its parents.
    The directories themselves stay exactly as readable as they are."""
    if not os.path.isdir("/proc/self/fd"):
        return
    held: dict[str, str] = {}

    def hold(entry: Any) -> Any:
        if not isinstance(entry, str) or not entry or _public(entry):
            return entry
        if entry not in held:
            try:
                fd = os.open(entry, os.O_RDONLY | os.O_DIRECTORY)
            except OSError:  # a zip file, a path hook's name, a directory that is gone
                return entry
            held[entry] = f"/proc/self/fd/{fd}"
        return held[entry]

    sys.path[:] = [hold(e) for e in sys.path]
    for module in list(sys.modules.values()):
        path = getattr(module, "__dict__", {}).get("__path__")
        if isinstance(path, list):
            path[:] = [hold(e) for e in path]
    sys.path_importer_cache.clear()


def _public(directory: str) -> bool:
    """Whether any user can list ``directory`` and pass through every directory above it."""
    try:
        here = Path(directory).resolve()
        if os.stat(here).st_mode & 0o005 != 0o005:
            return False
        return all(os.stat(parent).st_mode & 0o001 for parent in here.parents)
    except OSError:
        return False


def _drop_root(workdir: str) -> str:
    """Become a user of its own (or nobody), owning only ``workdir``; what was achieved."""
    for uid, label in ((sandbox_uid(os.getpid()), "own-user"), (NOBODY, "nobody")):
        try:
            os.chown(workdir, uid, uid)
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        except (OSError, AttributeError):  # an id the user namespace lacks; no setresuid
            continue
        if label == "own-user":
            _limit(resource.RLIMIT_NPROC, SANDBOX_NPROC)
        return label
    return "root"


def _cap_processes() -> None:
    """A fork bomb stops SANDBOX_NPROC processes beyond what its user runs now. The limit
    counts every task of the user (threads too), and this process's limit only binds this
    process and what it starts: the judge and the fork server can still start workers."""
    uid, tasks = os.getuid(), 0
    try:
        entries = [e for e in os.listdir("/proc") if e.isdigit()]
    except OSError:  # no /proc: no count, no cap
        return
    for entry in entries:
        try:
            with open(f"/proc/{entry}/status", "rb") as fh:
                fields = dict(line.split(b":", 1) for line in fh if b":" in line)
            if int(fields[b"Uid"].split()[0]) == uid:
                tasks += int(fields[b"Threads"])
        except (OSError, ValueError, KeyError):
            continue  # gone meanwhile, or not ours to read
    _limit(resource.RLIMIT_NPROC, tasks + SANDBOX_NPROC)


def sandbox_uid(pid: int) -> int:
    """The user id a root judge's worker of process ``pid`` runs as."""
    return SANDBOX_UID_BASE + pid


def _prctl(option: int, value: int) -> int | None:
    """prctl(2)'s answer, or None where there is none (not Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(option, value, 0, 0, 0))
    except (OSError, AttributeError):  # no prctl: the other defences still hold
        return None


def not_dumpable() -> None:
    """This process's memory, file descriptors and environment become unreadable and
    untraceable for other processes of the same user (Linux; a no-op elsewhere)."""
    _prctl(PR_SET_DUMPABLE, 0)


# -- loading and calling ----------------------------------------------------------------------
def _load(
    path: str, source: bytes, subjects: list[str]
) -> tuple[dict[str, Callable[..., Any]], dict[str, Any]]:
    # compiled from the bytes the judge hashed: the file may have changed since it was read
    code = compile(source, path, "exec", dont_inherit=True)
    module = types.ModuleType(MODULE_NAME)
    module.__file__ = path
    sys.modules[MODULE_NAME] = module
    exec(code, module.__dict__)
    functions: dict[str, Callable[..., Any]] = {}
    signatures: dict[str, list[list[Any]]] = {}
    for name in subjects:
        fn = module.__dict__.get(name)
        if callable(fn):
            borrowed = _borrowed(fn)
            if borrowed is not None:
                raise ImportError(
                    f"{name} is the course's own code ({borrowed}), not the learner's"
                )
            functions[name] = fn
            signatures[name] = _signature(fn)
    return functions, {"status": "loaded", "signatures": signatures}


def _signature(fn: Callable[..., Any]) -> list[list[Any]]:
    """[name, kind, has_default] per parameter, or [] when Python cannot tell."""
    try:
        params = inspect.signature(fn).parameters.values()
        return [
            [str(p.name)[:200], int(p.kind), p.default is not inspect.Parameter.empty]
            for p in params
        ][:256]
    except BaseException:  # a callable object may make inspect fail anyhow
        return []


def _call(
    fn: Callable[..., Any], args: Any, kwargs: Any, measure: bool, path: str, watch: bool = False
) -> dict[str, Any]:
    """Call ``fn``; with ``measure``, also the peak of memory it allocated beyond its inputs
    (NumPy reports its arrays to tracemalloc); with ``watch``, also which arguments the call
    modified (compared with a copy taken before it: positions, and keyword names)."""
    peak = None
    before = _snapshot((args, kwargs)) if watch else None  # before tracemalloc: not the call's
    try:
        if measure:
            _Measurement.tampered, _Measurement.mapped = False, 0
            _START()
            _RESET_PEAK()
            base = _TRACED()[0]
        try:
            value = fn(*args, **kwargs)
        finally:
            if measure:
                # a call that stopped or reset the tracing has no peak to report
                if _IS_TRACING() and not _Measurement.tampered:
                    peak = _TRACED()[1] - base + _Measurement.mapped
                _STOP()
    except BaseException as exc:  # the learner's exception is the outcome
        return _raised(exc, path, during="call")
    reply: dict[str, Any] = {"status": "returned", "value": value}
    if measure:
        reply["peak_bytes"] = peak
    if before is not None:
        reply["modified"] = _modified(before, (args, kwargs))
    return reply


def _snapshot(value: Any) -> Any:
    """A copy of the arguments as they arrived: arrays copied, lists and dicts rebuilt."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, list | tuple):
        return type(value)(_snapshot(v) for v in value)
    if isinstance(value, dict):
        return {k: _snapshot(v) for k, v in value.items()}
    return value  # numbers and strings cannot be changed in place


def _modified(before: Any, after: Any) -> list[int | str]:
    """The positions (and keyword names) of the arguments that differ from their snapshot;
    every one of them when the comparison itself fails (the learner's code changed an
    argument into something that cannot be compared)."""
    (args0, kwargs0), (args1, kwargs1) = before, after
    try:
        changed: list[int | str] = [
            i for i, (a, b) in enumerate(zip(args0, args1, strict=True)) if not unchanged(a, b)
        ]
        return changed + [k for k in kwargs0 if not unchanged(kwargs0[k], kwargs1.get(k))]
    except BaseException:  # an object of the learner's that raises when compared
        return [*range(len(args0)), *kwargs0]


def _raised(exc: BaseException, path: str, during: str) -> dict[str, Any]:
    try:
        text = (exc.msg if isinstance(exc, SyntaxError) and exc.msg else str(exc)).strip()
    except BaseException:  # a __str__ that raises says nothing more
        text = ""
    lines = text.splitlines()
    line = None
    try:
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename == path:
                line = frame.lineno
    except BaseException:  # a traceback the learner's code tampered with
        line = None
    if isinstance(exc, SyntaxError) and line is None and type(exc.lineno) is int:
        line = exc.lineno
    return {
        "status": "raised",
        "during": during,
        "type": _type_name(exc),
        "names": [str(c.__name__)[:200] for c in type(exc).__mro__ if c is not object][:32],
        "message": (lines[-1] if lines else "")[:1000],
        "line": line if type(line) is int else None,
    }


def _type_name(exc: BaseException) -> str:
    return str(type(exc).__name__)[:200]


# -- the pipes --------------------------------------------------------------------------------
def _send(fd: int, reply: dict[str, Any], limits: Limits) -> None:
    for stream in (sys.stdout, sys.stderr):  # printed before replying: it belongs to this call
        with contextlib.suppress(BaseException):  # the learner may have replaced the stream
            stream.flush()
    data = _encoded(reply, limits)
    view = memoryview(FRAME.pack(len(data)) + data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:  # the learner's code made the pipe non-blocking
            os.set_blocking(fd, True)


def _encoded(reply: dict[str, Any], limits: Limits) -> bytes:
    """``reply`` as a message within the judge's limits, or a message saying why not."""
    try:
        data = encode(reply, limits, answer="value")
    except CodecError as exc:
        # where inside the returned value, not inside this reply
        where = exc.where.removeprefix("['value']")
        return encode({"status": "unplain", "what": exc.what[:300], "where": _short(where)})
    except BaseException as exc:  # e.g. a recursion limit hit while encoding
        return encode(
            {"status": "unplain", "what": f"a value that raised {kind_of(exc)}", "where": ""}
        )
    if len(data) > limits.max_bytes:
        return encode({"status": "too_large", "bytes": len(data)})
    return data


def _short(where: str, keep: int = 120) -> str:
    """An index path no longer than a line: its start and its end."""
    return where if len(where) <= keep else f"{where[: keep // 2]}…{where[-keep // 2 :]}"


def _receive(fd: int) -> bytes:
    head = _exactly(fd, FRAME.size)
    return _exactly(fd, FRAME.unpack(head)[0])


def _exactly(fd: int, n: int) -> bytes:
    chunks, got = [], 0
    while got < n:
        chunk = os.read(fd, min(n - got, 1 << 20))
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)
