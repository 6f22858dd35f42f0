"""The worker: the only process where a learner's code is imported and called.

It is forked from a server that has imported NumPy once (so a learner costs a fork, not a
Python start-up). Before any of the learner's code runs it confines itself (:func:`confine`):
its own process group, only its three pipes open, limits on memory, file size and processes,
namespaces of its own with a private root (:mod:`runner.learner.sandbox`), isolated imports,
an empty environment, not readable or traceable by other processes of its user, and, when the
judge runs as root, a user id of its own. Then it compiles the source the judge read (so the
code that runs is the code whose hash the evidence records), says which of the chapter's
functions the file defines, and answers calls until it is told to stop or killed. Everything
it sends is plain data (:mod:`runner.learner.codec`), framed on a pipe of its own; the judge
trusts none of it.

This module imports nothing of the judge: no models, no registry, no evidence writer. Code
that runs here can only decide what its own functions return; and a function that is the
course's own code (the engine's or any pack's, whose packages and directories the judge
names in the worker's set-up: ``import checks.reference``, or the file loaded by path) is
refused at load, so a reference cannot stand in for the learner's work.
"""

from __future__ import annotations

import contextlib
import ctypes
import importlib
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
import warnings
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np  # imported here so the fork server holds it for every worker

from runner.compare import unchanged
from runner.in_place import written_over
from runner.kinds import SEQUENCES
from runner.learner import sandbox
from runner.learner.codec import REQUEST, CodecError, Limits, decode, encode, kind_of
from runner.returned import EARLIER_RESULT, LastResults

# NumPy's submodules that load on first use (np.ma, np.random, ...): loaded here, so the first
# measured call that touches one is not charged its import (np.ma alone is 1.16 MB), and a
# memory claim does not depend on which claim ran first
for _lazy in ("ma", "fft", "random", "polynomial", "strings", "char", "rec"):
    importlib.import_module(f"numpy.{_lazy}")

MODULE_NAME = "learner_impl"
DEFINED = 256  # the file's other function names reported, at most
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
KEPT_ENVIRONMENT = ("LANG", "LC_ALL", "LC_CTYPE", "SYSTEMROOT")
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"  # not the grader's PATH: its folders are theirs
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
    source: bytes,
    subjects: list[str],
    setup: dict[str, Any],
    shared: Connection | None = None,
) -> None:
    """The worker's entry point. It lives here, in the module the fork server imported,
    so a worker imports nothing more (not the judge's registry or checks); the pipes (and
    the memory the judge shares with it, see :mod:`runner.learner.arena`) arrive as
    Connections (so the fork server can pass them) and are used as raw descriptors."""
    memory = None
    if shared is not None:
        try:  # mapped before confinement, which closes every descriptor but the pipes
            memory = mmap.mmap(shared.fileno(), int(setup["shared_bytes"]))
        except (OSError, ValueError, KeyError, TypeError):
            memory = None  # a request that names a shared array then ends this worker
    serve(request.fileno(), reply.fileno(), output.fileno(), source, subjects, setup, memory)


def serve(
    request_fd: int,
    reply_fd: int,
    output_fd: int,
    source: bytes,
    subjects: list[str],
    setup: dict[str, Any],
    shared: mmap.mmap | None = None,
) -> None:
    """The worker's whole life: confine, load, answer. It never returns; it exits."""
    limits = Limits(max_bytes=int(setup["result_bytes"]), max_elements=int(setup["result_values"]))
    try:
        inherited = _prctl(PR_GET_DUMPABLE, 0)  # the fork server's, before this worker's own
        isolation, missing, path = confine(request_fd, reply_fd, output_fd, setup)
        # the judge's folders and this worker's place among them: code that walks up to
        # these frames (or to the Process object holding the same dict) finds them gone
        setup.clear()
    except BaseException as exc:  # not one line of the learner's code has run yet
        _send(
            reply_fd, {"status": "unconfined", "what": f"{type(exc).__name__}: {exc}"[:300]}, limits
        )
        os._exit(0)
    # sent before the learner's code runs, so the judge can believe it
    confined = {
        "status": "confined",
        "isolation": isolation,
        "missing": missing,
        "server_dumpable": inherited,
    }
    _send(reply_fd, confined, limits)
    try:
        functions, reply = _load(path, source, subjects)
    except BaseException as exc:  # a learner's import may raise anything
        _send(reply_fd, _raised(exc, path, during="import"), limits)
        os._exit(0)
    _send(reply_fd, reply, limits)
    # the objects a call was given, where the judge asked for them to be kept: its next
    # request is one call on them, their arrays written over (runner.in_place)
    kept: tuple[str, list[Any]] | None = None
    while True:
        try:
            os.set_blocking(request_fd, True)  # the learner's code may have changed it
            call = decode(_receive(request_fd), REQUEST, shared)
            name, measure, watch = call["name"], call["measure"], call.get("watch") is True
            # one call, or a batch of them (``cases``): one reply each, in order
            cases = call["cases"] if "cases" in call else [[call["args"], call["kwargs"]]]
            # a batch whose raised exceptions are outcomes to judge, not the end of it
            through_raises = call.get("through_raises") is True
            if call.get("fresh") is True:
                _warn_afresh()
            if not isinstance(cases, list) or not all(_is_case(c) for c in cases):
                raise TypeError
        except (CodecError, EOFError, OSError, KeyError, TypeError, AttributeError):
            os._exit(0)  # the judge is gone or said something this worker does not speak
        if name == QUIT or name not in functions:
            os._exit(0)
        earlier, kept = kept, None
        if call.get("in_place") is True and earlier is not None and earlier[0] == name:
            over = written_over(earlier[1], cases[0])
            if over is not None:
                cases = [over, *cases[1:]]
                _RETURNED.forget(functions[name])  # a result that is a view of them changed
        for args, kwargs in cases:
            # the judge stops reading a batch at the first reply that is not a value (as a
            # loop of single calls stops at the first exception), or not a value nor a raised
            # exception in a batch ``through_raises``: so does the worker
            sent = _send(
                reply_fd, _call(functions[name], args, kwargs, measure, path, watch), limits
            )
            if sent != "returned" and not (through_raises and sent == "raised"):
                break
        else:
            if call.get("keep") is True and cases:
                kept = (name, cases[-1])


def _warn_afresh() -> None:
    """Forget which warnings were shown (NumPy's overflow warning is shown once per place
    and process): each claim's captured output is what its own calls print, whichever claims
    this worker answered before."""
    with contextlib.suppress(BaseException):  # the learner's code may have replaced warnings
        getattr(warnings, "onceregistry", {}).clear()
        with warnings.catch_warnings():  # leaving it marks the filters changed: every
            pass  # module's record of shown warnings is cleared at its next warning


def _is_case(case: Any) -> bool:
    return (
        isinstance(case, list)
        and len(case) == 2
        and isinstance(case[0], list)
        and isinstance(case[1], dict)
    )


# -- confinement ------------------------------------------------------------------------------
def confine(
    request_fd: int, reply_fd: int, output_fd: int, setup: dict[str, Any]
) -> tuple[str, list[str], str]:
    """Everything the worker does to itself before the learner's code runs (see the module
    docstring and :mod:`runner.learner.sandbox`). Returns what it achieved as to users
    (``own-user``, ``nobody``, ``root`` or ``same-user``), every guarantee it could not
    give (``"namespaces: ..."``), and the path the learner's entry module has here.

    The process the fork server started (the *keeper*) stays outside the new namespaces
    and only waits: it mirrors how its child ended, so the judge sees the worker's exit
    code or signal. That child is process 1 of the new process namespace (the *init*): it
    makes the private root, starts the process that runs the learner's code, reaps
    whatever is orphaned, and ends with it, and with it everything in the namespace."""
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
    _first_to_go()
    _hide_command_line()
    workdir = str(setup["workdir"])
    submission = os.path.join(workdir, "submission")
    entry = str(setup["entry"])
    missing: list[str] = []
    as_root = os.geteuid() == 0
    uid: int | None = None
    if as_root and setup.get("drop_root", True):
        uid = _own_id(int(setup["uid"]))
        _give(workdir, uid)
    elif as_root:
        missing.append("own-user: asked to keep root")
    else:
        missing.append("own-user: the judge is not root")
    if uid is None or uid == NOBODY:
        _cap_processes()  # before the namespaces: the user's processes, as the host counts them
    # the server ends: so does this keeper (set after the probe of ids above: a change of
    # credentials clears it, and this process changes none after this)
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(0)
    namespaced = False
    if setup.get("namespaces", True):
        try:
            sandbox.enter_namespaces(as_root)
            namespaced = True
        except sandbox.Unavailable as exc:
            missing.append(f"namespaces: {exc}")
    else:
        missing.append("namespaces: not asked for")
    if namespaced:
        _keep_until_child_ends()  # returns in process 1 of the new namespace
        missing += [f"namespaces: {m}" for m in sandbox.private_root(
            os.path.join(workdir, "root"), submission, setup.get("private", ()),
            int(setup.get("tmp_mib", 64)),
        )]  # fmt: skip
        _init_until_worker_ends()  # returns in the process that runs the learner's code
        folder, home = sandbox.SUBMISSION, "/tmp"
    else:
        folder, home = submission, os.path.join(workdir, "tmp")
        os.makedirs(home, exist_ok=True)
        if uid is not None:
            os.chown(home, uid, uid)
    path = os.path.join(folder, entry)
    sys.argv[:] = [path]  # not the judge's command line
    if isinstance(getattr(sys, "orig_argv", None), list):  # Python's own copy of it (3.10+)
        sys.orig_argv[:] = [path]
    # isolated imports: the learner's own folder, the standard library, NumPy; no current
    # directory, no folder of the judge's, nothing from the environment
    sys.path[:] = [folder, *_library_path()]
    sys.path_importer_cache.clear()
    isolation = "same-user"
    if uid is not None:
        isolation = _drop_root(uid)
    elif as_root:
        isolation = "root"
    if uid is None and (as_root or namespaced):
        # no capability left: an ordinary user's worker is root of its user namespace, and
        # root's user id kept (asked for) is not its capabilities: with them a learner's code
        # could open the memory of the namespace's process 1, which runs no system call
        # filter, for writing (an attack round, 2026-12-07), or signal and trace any process
        sandbox.drop_capabilities()
    os.chdir(home)
    environment = {
        k: os.environ[k] for k in (*KEPT_ENVIRONMENT, *setup["environment"]) if k in os.environ
    }
    os.environ.clear()
    os.environ.update(
        environment, PATH=SAFE_PATH, HOME=home, TMPDIR=home, PYTHONDONTWRITEBYTECODE="1"
    )
    sys.dont_write_bytecode = True  # a learner's helper modules leave no caches behind
    _Hidden.packages = tuple({ENGINE_PACKAGE, *map(str, setup.get("hidden_packages", ()))})
    _Hidden.directories = tuple({ENGINE_DIRECTORY, *map(str, setup.get("hidden_directories", ()))})
    _hide_judge()
    _guard_measurement()
    _prctl(PR_SET_NO_NEW_PRIVS, 1)  # no set-user-id program regains what was dropped
    if not namespaced:
        try:
            sandbox.landlock(
                [*sandbox.readable_folders(), submission],
                [home],
                [f"/dev/{d}" for d in sandbox.DEVICES],
            )
        except (sandbox.Unavailable, OSError) as exc:
            missing.append(f"landlock: {exc}")
    _prctl(PR_SET_DUMPABLE, 0)  # other processes of this user cannot read or trace it
    try:  # last of the calls it makes to confine itself (it denies PR_SET_DUMPABLE after)
        sandbox.deny_calls()
    except (sandbox.Unavailable, OSError) as exc:
        missing.append(f"seccomp: {exc}")
    # Its parent ends (however it ends): this process ends with it, even while the
    # learner's code loops. Set last: a change of user clears it.
    before = os.getppid()
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != before:  # the parent ended before that
        os._exit(0)
    return isolation, missing, path


def _hide_command_line() -> None:
    """Blank this process's command line and environment as /proc shows them (anyone may
    read another process's ``cmdline``): the fork server's names the judge's import path and
    current directory. The kernel reads them from the process's own memory, between the
    addresses /proc/self/stat gives (fields 48 to 51); zeros there are what it then shows."""
    try:
        with open("/proc/self/stat", "rb") as fh:
            fields = fh.read().rsplit(b")", 1)[1].split()
        # fields after the command's name: arg_start is the 48th field of the whole line
        arg_start, arg_end, env_start, env_end = (int(fields[i]) for i in (45, 46, 47, 48))
    except (OSError, ValueError, IndexError):
        return
    for start, end in ((arg_start, arg_end), (env_start, env_end)):
        if 0 < start < end and end - start < 1 << 20:
            with contextlib.suppress(Exception):
                ctypes.memset(start, 0, end - start)


def _library_path() -> list[str]:
    """The interpreter's own import path without anything of the judge's: the standard
    library and NumPy's folder (where the fork server found it)."""
    keep = sandbox._standard_library()
    keep.append(os.path.dirname(os.path.dirname(os.path.abspath(np.__file__))))
    return list(dict.fromkeys(p for p in keep if p))


def _keep_until_child_ends() -> None:
    """Fork: the child returns (it is process 1 of the new process namespace); this keeper
    closes everything, waits for it, and ends as it ended: with its exit code, or killed
    by the same signal (process 1 cannot be killed by its own signal, so it says which in
    its exit code: 128 + the signal's number)."""
    child = os.fork()
    if child == 0:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # the keeper ends: so does the namespace
        return
    os.closerange(0, _max_fd())
    try:
        while True:
            pid, status = os.waitpid(child, 0)
            if pid == child:
                break
    except BaseException:
        os._exit(1)
    code = os.waitstatus_to_exitcode(status)
    if code < 0 or code > 128:
        number = -code if code < 0 else code - 128
        with contextlib.suppress(BaseException):
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
    os._exit(code if code >= 0 else 1)


def _init_until_worker_ends() -> None:
    """In process 1 of the new namespace: fork the process that runs the learner's code;
    this one reaps every process of the namespace until that one ends, then ends as it did
    (and the kernel kills whatever else is left in the namespace)."""
    child = os.fork()
    if child == 0:
        return
    os.closerange(0, _max_fd())
    code = 1
    try:
        while True:
            pid, status = os.wait()
            if pid == child:
                code = os.waitstatus_to_exitcode(status)
                break
    except BaseException:
        os._exit(1)
    os._exit(128 - code if code < 0 else min(code, 128))


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


class _CourseCode(ImportError):
    """An import of the course's own code (a module of it, or a function it defined), which
    the judge says in the reader's language: ``code`` names it."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


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
        raise _CourseCode(fullname, f"{fullname} is the course's own code, not importable here")


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
    # past the worker's own lowered limit: descriptors opened before it may lie above it
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return min(max(soft, 1 << 16), 1 << 20)


def _limit(which: int, value: int) -> None:
    """Soft and hard limit alike: the learner's code cannot raise it again."""
    _, hard = resource.getrlimit(which)
    cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
    resource.setrlimit(which, (cap, cap))


def _own_id(uid: int) -> int:
    """The user id this worker takes (a root judge's): ``uid``, one of its own, or nobody
    where the user namespace maps no such id (rootless containers)."""
    try:
        os.setresgid(-1, uid, -1)  # a probe, undone below: does the id exist here?
        os.setresgid(-1, 0, -1)
    except (OSError, AttributeError):
        return NOBODY
    return uid


def _give(workdir: str, uid: int) -> None:
    """The worker's folder, and the submission's private copy in it, become its user's:
    nobody else (no other learner's worker) can read them."""
    for top, _folders, files in os.walk(workdir):
        os.chown(top, uid, uid)
        os.chmod(top, 0o700)
        for name in files:
            os.chown(os.path.join(top, name), uid, uid, follow_symlinks=False)


def _first_to_go() -> None:
    """The kernel's out-of-memory killer takes this worker, and what it starts, first: the
    memory limit binds each process (and the judge sums them only every 50 ms), so a
    learner's many processes could together exhaust the machine's memory, and then the
    judge or a classmate's worker must not be what goes.
    Raising one's own score needs no privilege; lowering it again needs CAP_SYS_RESOURCE,
    which a worker that dropped root does not have."""
    try:
        with open("/proc/self/oom_score_adj", "w", encoding="ascii") as fh:
            fh.write("1000")
    except OSError:  # no /proc (not Linux): the memory limit per process still holds
        pass


def _drop_root(uid: int) -> str:
    """Become user ``uid`` (no groups); what was achieved."""
    try:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    except (OSError, AttributeError):  # no setresuid: stays root, and says so
        return "root"
    if uid == NOBODY:
        return "nobody"
    _limit(resource.RLIMIT_NPROC, SANDBOX_NPROC)
    return "own-user"


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


def sandbox_uid() -> int:
    """A user id for a root judge's next worker: drawn at random, so that it tells the
    learner's code nothing (one made from the worker's process id told it how many processes
    the machine had started since, another learner's among them); 2^26 of them, below 2^31
    (some programs take a user id for a signed int), so two workers alive at once share one
    with a chance of about 1 in 70 million; and none that names a user of this machine (the
    judge kills every process of the worker's id when it ends)."""
    import pwd
    import secrets

    uid = SANDBOX_UID_BASE
    for _ in range(8):
        uid = SANDBOX_UID_BASE + secrets.randbelow(1 << 26)
        try:
            pwd.getpwuid(uid)
        except KeyError:  # nobody's
            return uid
    return uid


def _prctl(option: int, value: int) -> int | None:
    """prctl(2)'s answer, or None where there is none (not Linux)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(option, value, 0, 0, 0))
    except (OSError, AttributeError):  # no prctl: the other defences still hold
        return None


def die_with_parent() -> None:
    """SIGKILL to this process when its parent ends (Linux; a no-op elsewhere): a judge
    killed with SIGKILL leaves no fork server, judge or worker behind."""
    parent = os.getppid()
    _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it ended before that
        os._exit(0)


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
                raise _CourseCode(
                    f"{name}() ({borrowed})",
                    f"{name} is the course's own code ({borrowed}), not the learner's",
                )
            functions[name] = fn
            signatures[name] = _signature(fn)
    return functions, {"status": "loaded", "signatures": signatures, "defined": _defined(module)}


def _defined(module: types.ModuleType) -> list[str]:
    """The other functions the file defines, by name (a misspelt ``softmaxx`` beside the
    ``softmax`` a claim waits for is named to the learner): plain functions whose code
    is the file's own, at most DEFINED of them."""
    out: list[str] = []
    for name, value in list(module.__dict__.items()):
        if len(out) == DEFINED:
            break
        own = type(value) is types.FunctionType and value.__module__ == MODULE_NAME
        if own and type(name) is str and not name.startswith("__"):
            out.append(name[:100])
    return out


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
        try:
            if _RETURNED.changed_by(fn, value):
                reply["modified"].append(EARLIER_RESULT)
        except BaseException:  # a result of the learner's that cannot be looked at so
            pass
    return reply


_RETURNED = LastResults()  # the learner's functions' last results, for calls that watch


def _snapshot(value: Any) -> Any:
    """A copy of the arguments as they arrived: arrays copied, lists and dicts rebuilt."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, SEQUENCES):
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
            i
            for i, (a, b) in enumerate(zip(args0, args1, strict=True))
            if not unchanged(a, b) or _locked(b)
        ]
        return changed + [
            k for k in kwargs0 if not unchanged(kwargs0[k], kwargs1.get(k)) or _locked(kwargs1[k])
        ]
    except BaseException:  # an object of the learner's that raises when compared
        return [*range(len(args0)), *kwargs0]


def _locked(value: Any) -> bool:
    """Whether the call made an array it was given read-only: every array arrives writable,
    and a caller's array that no longer is has been changed as surely as its values."""
    if isinstance(value, np.ndarray):
        return not value.flags.writeable
    if isinstance(value, SEQUENCES):
        return any(_locked(v) for v in value)
    if isinstance(value, dict):
        return any(_locked(v) for v in value.values())
    return False


def _raised(exc: BaseException, path: str, during: str) -> dict[str, Any]:
    try:
        text = (exc.msg if isinstance(exc, SyntaxError) and exc.msg else str(exc)).strip()
    except BaseException:  # a __str__ that raises says nothing more
        text = ""
    lines = text.splitlines()
    line, function = None, None
    try:
        for frame in traceback.extract_tb(exc.__traceback__):
            if frame.filename == path:
                line, function = frame.lineno, frame.name
    except BaseException:  # a traceback the learner's code tampered with
        line, function = None, None
    if isinstance(exc, SyntaxError) and line is None and type(exc.lineno) is int:
        line = exc.lineno
    return {
        "status": "raised",
        "during": during,
        "type": _type_name(exc),
        "names": [str(c.__name__)[:200] for c in type(exc).__mro__ if c is not object][:32],
        "message": (lines[-1] if lines else "")[:1000],
        "line": line if type(line) is int else None,
        # the function of the file that line is in (a written function calling one that
        # still raises NotImplementedError waits for that one)
        "function": function[:200] if type(function) is str else None,
        # what a message in the reader's language names, where the course's code was imported
        **({"course_code": str(exc.code)[:300]} if isinstance(exc, _CourseCode) else {}),
    }


def _type_name(exc: BaseException) -> str:
    return str(type(exc).__name__)[:200]


# -- the pipes --------------------------------------------------------------------------------
def _send(fd: int, reply: dict[str, Any], limits: Limits) -> str:
    """Send ``reply`` within the judge's limits; the status of what was sent ("returned",
    "raised", or why a value could not be sent as it is)."""
    for stream in (sys.stdout, sys.stderr):  # printed before replying: it belongs to this call
        with contextlib.suppress(BaseException):  # the learner may have replaced the stream
            stream.flush()
    data, status = _encoded(reply, limits)
    for part in (FRAME.pack(len(data)), data):  # the reply as it is, not a copy behind a frame
        view = memoryview(part)
        while view:
            try:
                view = view[os.write(fd, view) :]
            except BlockingIOError:  # the learner's code made the pipe non-blocking
                os.set_blocking(fd, True)
    return status


def _encoded(reply: dict[str, Any], limits: Limits) -> tuple[bytes, str]:
    """``reply`` as a message within the judge's limits, or a message saying why not; and
    the status of the message sent."""
    try:
        data = encode(reply, limits, answer="value")
    except CodecError as exc:
        # where inside the returned value, not inside this reply
        where = exc.where.removeprefix("['value']")
        unplain = {"status": "unplain", "what": exc.what[:300], "where": _short(where)}
        return encode(unplain), "unplain"
    except BaseException as exc:  # e.g. a recursion limit hit while encoding
        unplain = {"status": "unplain", "what": f"a value that raised {kind_of(exc)}", "where": ""}
        return encode(unplain), "unplain"
    if len(data) > limits.max_bytes:
        return encode({"status": "too_large", "bytes": len(data)}), "too_large"
    return data, str(reply.get("status"))


def _short(where: str, keep: int = 120) -> str:
    """An index path no longer than a line: its start and its end."""
    return where if len(where) <= keep else f"{where[: keep // 2]}…{where[-keep // 2 :]}"


def _receive(fd: int) -> bytearray:
    head = _exactly(fd, FRAME.size)
    return _exactly(fd, FRAME.unpack(head)[0])


def _exactly(fd: int, n: int) -> bytearray:
    """``n`` bytes, read straight into the buffer that holds them."""
    data = bytearray(n)
    view, got = memoryview(data), 0
    while got < n:
        read = os.readv(fd, [view[got:]])
        if not read:
            raise EOFError
        got += read
    view.release()
    return data
