"""The judge's side of the worker boundary: a learner's functions as proxies.

A :class:`LearnerSession` reads one learner's submission once (a file, or a folder of the
learner's own modules: :mod:`runner.learner.staging`), starts a worker for it (forked from a
server that has NumPy imported, see :mod:`runner.learner.worker`) with a private copy of it,
and hands the checks an :class:`~runner.pack.Implementation` whose functions are
:class:`RemoteFunction` proxies: calling one sends the arguments as plain data, waits for the
answer within the claim's budget, and decodes it with limits. Whatever the learner's code does
(hang, exit, print, exhaust memory, patch modules, return a lying object) happens in the
worker; here it can only become a value, a :class:`~runner.pack.outcome.ForeignError`, or a
:class:`~runner.pack.outcome.BoundaryError` for the claim at hand. A worker that failed is
killed with everything it started and a fresh one is started for the next claim.

What holds (Linux; tried in tests/test_boundary.py and, as the attacker, tests/test_sandbox.py):

* The judge never imports the learner's code; the worker's answers are decoded as JSON and raw
  bytes of real numeric arrays, so no object of the learner's reaches the judge, and every
  string in them (dict keys included) is made printable here, once (:mod:`runner.text`).
* Nothing of the grader's is reachable from a worker (:mod:`runner.learner.sandbox`): its own
  namespaces and a private root holding its submission's copy, the standard library and NumPy;
  no claim file, other learner's file, evidence or results folder, network or other process;
  no inherited descriptor, environment or current directory; isolated imports. As root it
  also takes a user id of its own. Where a machine refuses namespaces, Landlock keeps the same
  folders; what could not be guaranteed is reported (``missing``), never silently dropped.
* Budgets: each claim may use ``timeout_s`` of the worker's CPU time (all its processes; the
  judge's own work in the check is not counted, and has its own cap, :mod:`.cost`), with a
  wall-clock backstop (``wall_s``) for calls that sleep or block; importing the file has its
  own budget, once. Address space, file size, no core dumps, and 64 processes beyond what its
  user runs (a fork bomb stops there).
* After each learner and after any failure, the worker is killed with everything it started:
  its process namespace ends with its process 1; its process group, every descendant and, as
  root, every process of its user id are killed too. The judge, the fork server and the
  worker each carry a death signal: whatever kills the judge kills them.
* The judge and the fork server are not dumpable: processes of the same user cannot read
  their memory, file descriptors or environment, or trace them. The fork server starts with
  its standard streams on /dev/null, a bare environment and no current directory on its
  import path, so nothing reaches the judge's output except through the protocol.

What the boundary does not decide (the learner's code runs with real rights, only fewer):

* The worker measures peak memory (``measured``) with tracemalloc in its own process; code
  that patches tracemalloc, or writes frames of its own onto the reply pipe, decides what
  its own calls report, as it decides what they return. It can change no other learner's
  verdict, nor anything the judge computes itself.
* Without namespaces and without Landlock (reported as missing), a worker reads what its
  user may read; as an ordinary user it could also signal that user's processes.
"""

from __future__ import annotations

import contextlib
import fcntl
import inspect
import math
import multiprocessing
import os
import selectors
import signal
import sys
import tempfile
import time
import types
import weakref
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

import numpy as np

from runner.files import remove_tree
from runner.learner import codec
from runner.learner.arena import Arena, Watched
from runner.learner.cost import capped, check_cost, wall_paused
from runner.learner.limits import TRACED_BUDGET, WALL_FACTOR, WorkerLimits
from runner.learner.staging import LoadFailure, Submitted, copy_into, read_submission
from runner.learner.worker import (
    FRAME,
    not_dumpable,
    sandbox_uid,
    serve_connections,
)
from runner.pack.outcome import BoundaryError, ForeignError, ForeignNotImplemented
from runner.pack.registry import Implementation, argument_names
from runner.pools import signals_deferred
from runner.returned import EARLIER_RESULT
from runner.text import printable, printable_data, printable_line

MAX_IMPL_BYTES = 1_000_000
# The worker's own threads would multiply by every worker of a class run, and forking a
# process whose BLAS has started threads can deadlock it: one thread each.
SINGLE_THREADED = {
    name: "1"
    for name in (
        "OPENBLAS_NUM_THREADS",
        "OMP_NUM_THREADS",
        "MKL_NUM_THREADS",
        "VECLIB_MAXIMUM_THREADS",
    )
}
# What the fork server keeps of the judge's environment (the rest may hold a grader's
# secrets, and a learner's code can read its own process's environment).
SERVER_ENVIRONMENT = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "SYSTEMROOT", "TMPDIR")
DRAIN_BYTES = 1 << 22  # output read in one go before the deadline is looked at again
# A fresh worker must say it is confined within this long (the fork server's own start, on
# first use, included); only then does the learner's time start.
START_S = 60.0
WORKDIR_PREFIX = "learn-llm-worker-"  # then the judge's process id: whose it is
PIPE_BYTES = 1 << 20  # a request's or reply's pipe holds this much (the unprivileged maximum)
CPU_POLL_S = 0.05  # how often the worker's CPU time is read while the judge waits
# a learner's wall-clock allowance grows by this many times the seconds its processes
# computed or waited for a CPU (see LearnerSession._earned)
RUN_SLACK = 2.0
MAX_TRACKED = 8192  # threads whose wait for a CPU is remembered across readings
_clock = time.monotonic  # when the waits are read (a test sets the time)
PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class _Server:
    """The multiprocessing context workers are forked from, started on first use."""

    _context: Any = None
    _hardened = False
    # a judge forked to share one learner's claims (runner.learner.share) uses its
    # parent's fork server, which is not its child: it cannot ask the server's state
    _borrowed = False

    @classmethod
    def context(cls) -> Any:
        if cls._context is None:
            methods = multiprocessing.get_all_start_methods()
            method = "forkserver" if "forkserver" in methods else "spawn"
            ctx = multiprocessing.get_context(method)
            if method == "forkserver":
                # the server imports the worker's code and NumPy once, and hardens itself
                ctx.set_forkserver_preload(["runner.learner.server"])
            cls._context = ctx
        return cls._context

    @classmethod
    def start(cls, target: Any, args: tuple[Any, ...]) -> Any:
        ctx = cls.context()
        if not cls._hardened:  # before the first worker: no learner may read this process
            not_dumpable()
            remove_orphaned_workdirs()
            cls._hardened = True
        if not cls._borrowed:
            start_server()  # (re)started here if a learner killed it
        try:
            with _bare_process(streams=False), _without_main(), _nothing_of_the_judges():
                process = ctx.Process(target=target, args=args, daemon=True)
                process.start()
        except OSError:
            if not cls._borrowed:
                raise
            # the parent's server is gone (a learner's code killed it): one of this
            # process's own from now on
            cls._borrowed = False
            forget_inherited_server()
            return cls.start(target, args)
        return process


def start_server() -> None:
    """Start the fork server if it is not running: before a worker starts, and early in a
    learner's run, where it imports NumPy on another core while the judge loads its claims
    (a tenth of a second of the run)."""
    if _Server.context().get_start_method() == "forkserver":
        from multiprocessing import forkserver

        with _bare_process(), _nothing_of_the_judges():
            forkserver.ensure_running()


def _widen(*pipes: int) -> None:
    """Pipes that hold PIPE_BYTES at once (Linux; elsewhere as they are): an (T, T) array of
    float64 at T = 1,024 (8 MiB) crosses in 8 writes, each waking the other side once, where
    the default 64 KiB would take 128."""
    setpipe = getattr(fcntl, "F_SETPIPE_SZ", None)
    if setpipe is None:
        return
    for fd in pipes:
        with contextlib.suppress(OSError):  # above /proc/sys/fs/pipe-max-size: kept as it is
            fcntl.fcntl(fd, setpipe, PIPE_BYTES)


def borrow_server() -> None:
    """In a judge forked from one whose fork server runs (a learner's claims shared, see
    :mod:`.share`): start workers from that server (a fork, not a new interpreter importing
    NumPy), asking nothing of its state (its process is the parent's child: only the parent
    can wait for it). Should the server be gone, this process starts one of its own."""
    context = _Server._context
    if context is None or context.get_start_method() != "forkserver":
        forget_inherited_server()
        return
    from multiprocessing import forkserver

    server: Any = getattr(forkserver, "_forkserver")  # noqa: B009 - private, and untyped
    if server._forkserver_address is None:
        return  # none was started: this process starts its own when it needs one
    server.ensure_running = lambda: None  # the connection fails if the server is gone
    _Server._borrowed = True


def remove_orphaned_workdirs() -> None:
    """Working directories of judges that were killed (they could not remove their own)."""
    base = tempfile.gettempdir()
    with contextlib.suppress(OSError):
        for entry in os.scandir(base):
            if not entry.name.startswith(WORKDIR_PREFIX):
                continue
            judge = entry.name[len(WORKDIR_PREFIX) :].split("-", 1)[0]
            if judge.isdigit() and not _alive(int(judge)) and entry.is_dir(follow_symlinks=False):
                remove_tree(entry.path)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's
        return True
    return True


def forget_inherited_server() -> None:
    """In a process forked from a judge (a class run's judging processes): the fork server
    is the parent's child, not this process's; this process starts its own on first use."""
    try:
        from multiprocessing import forkserver
    except ImportError:  # pragma: no cover - platforms without it use spawn
        return
    server: Any = getattr(forkserver, "_forkserver")  # noqa: B009 - private, and untyped
    fd = server._forkserver_alive_fd
    server._forkserver_pid = None
    server._forkserver_address = None
    server._forkserver_alive_fd = None
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)


@contextlib.contextmanager
def _without_main() -> Iterator[None]:
    """While a worker is started: no main module, so multiprocessing does not run the
    judge's own script (the command line, pytest, a benchmark) again in the worker."""
    main = sys.modules.get("__main__")
    sys.modules["__main__"] = types.ModuleType("__main__")
    try:
        yield
    finally:
        if main is not None:
            sys.modules["__main__"] = main


@contextlib.contextmanager
def _nothing_of_the_judges() -> Iterator[None]:
    """While a worker is started: what multiprocessing sends it to prepare itself holds
    nothing of the judge's. It would send the judge's command line (``--out``, ``--impl``,
    ``--challenge`` ...), its current directory and its import path, and the worker would
    take them on (an attack read them in the worker's memory); the worker needs none of
    them (its working directory, import path and command line are its own)."""
    from multiprocessing import spawn

    real = spawn.get_preparation_data

    def bare(name: str) -> dict[str, Any]:
        data: dict[str, Any] = real(name)
        for key in ("orig_dir", "main_path", "init_main_from_path", "init_main_from_name"):
            data.pop(key, None)
        # the import path: the engine's and NumPy's folders, and Python's own (under its
        # prefixes), not the judge's current directory or a class folder on it
        prefixes = tuple(os.path.join(p, "") for p in {sys.prefix, sys.base_prefix})
        own = [p for p in sys.path if p and os.path.join(p, "").startswith(prefixes)]
        path = list(dict.fromkeys([*_server_path(), *own]))
        data.update(sys_argv=["learn-llm-worker"], dir="/", sys_path=path)
        data.update(authkey=os.urandom(32))  # not the judge's key: the worker serves none
        return data

    spawn.get_preparation_data = bare
    try:
        yield
    finally:
        spawn.get_preparation_data = real


@contextlib.contextmanager
def _bare_process(streams: bool = True) -> Iterator[None]:
    """While a process is started from here: a bare environment (with one BLAS thread), and
    with ``streams`` standard streams on /dev/null, so that the fork server and the
    resource tracker (which last for the whole run) hold neither the judge's output nor its
    environment. Their imports are isolated: no current directory (``PYTHONSAFEPATH``, as
    ``-P``), no user site, and for the import path only where the engine and NumPy are
    (Python 3.11's fork server ignores the path it is sent, and must find
    ``runner.learner.server`` wherever the runner comes from: an install, a checkout).

    Ctrl-C and SIGTERM are held meanwhile, and acted on once all is put back: one that
    landed while the streams were being put back cut that short, and the command's
    "interrupted" line went to /dev/null (a run ended by SIGTERM with nothing said)."""
    with signals_deferred(signal.SIGINT, signal.SIGTERM), _bare(streams):
        yield


@contextlib.contextmanager
def _bare(streams: bool) -> Iterator[None]:
    saved_env = dict(os.environ)
    saved_fds: list[tuple[int, int]] = []
    try:
        kept = {k: v for k, v in saved_env.items() if k in SERVER_ENVIRONMENT}
        os.environ.clear()
        os.environ.update(
            kept,
            PYTHONPATH=os.pathsep.join(_server_path()),
            PYTHONSAFEPATH="1",
            PYTHONNOUSERSITE="1",
            **SINGLE_THREADED,
        )
        if streams:
            devnull = os.open(os.devnull, os.O_RDWR)
            try:
                for fd in (0, 1, 2):
                    with contextlib.suppress(OSError):
                        saved_fds.append((fd, os.dup(fd)))
                        os.dup2(devnull, fd)
            finally:
                os.close(devnull)
        yield
    finally:
        for fd, copy in saved_fds:
            os.dup2(copy, fd)
            os.close(copy)
        os.environ.clear()
        os.environ.update(saved_env)


def _server_path() -> list[str]:
    """The folders the fork server imports the engine and NumPy from (nothing else of the
    judge's import path: not its current directory, not a class folder)."""
    import numpy

    import runner

    found = [os.path.dirname(os.path.abspath(d)) for d in runner.__path__]
    found.append(os.path.dirname(os.path.dirname(os.path.abspath(numpy.__file__))))
    return list(dict.fromkeys(found))


class _Allowance:
    """Seconds of wall clock left, as a shared ``ctypes`` value holds them (``value``)."""

    def __init__(self, value: float) -> None:
        self.value = value


@dataclass
class ClaimCapture:
    """What one claim's calls left behind: the learner's printed output, trimmed."""

    output: str = ""
    dropped: int = 0  # characters beyond the kept part
    read: int = 0  # bytes read from the output in all (bounded: see _drain_output)


class LearnerSession:
    """One learner's file, loaded in a worker, for as many claims as the run has."""

    # the sessions of this process with a worker: what a judge stopped by a signal kills
    # before it exits (kill_all)
    live: ClassVar[weakref.WeakSet[LearnerSession]] = weakref.WeakSet()

    def __init__(
        self,
        path: Path,
        subjects: list[str],
        limits: WorkerLimits,
        hidden: tuple[list[str], list[str]] = ([], []),
        private: tuple[str, ...] = (),
        entry: str | None = None,
    ) -> None:
        LearnerSession.live.add(self)
        self.path = path
        # the course's code: packages the learner's file may not import, and directories no
        # function of the learner's may come from (the engine's and every pack's)
        self.hidden_packages, self.hidden_directories = hidden
        # the judge's folders (claims, packs, outputs, where it runs): never in a worker's view
        self.private = tuple(dict.fromkeys([*private, *self.hidden_directories]))
        self.subjects = subjects
        self.limits = limits
        self.signatures: dict[str, inspect.Signature] = {}
        self.defined: list[str] = []  # the file's other functions, as the worker named them
        self.load_output = ""
        self.isolation = ""  # what the worker achieved (worker.confine): own-user, nobody, ...
        self.missing: list[str] = []  # the guarantees it could not give, and why
        self.server_dumpable: Any = None  # 0 when the fork server hardened itself (Linux)
        self.capture = ClaimCapture()
        self._fresh = False
        self._budget = limits.timeout_s  # CPU seconds the current claim may still use
        self._wall_budget = limits.wall_s  # and wall-clock seconds it may still wait
        # ... and all its claims together: seconds left, in ``value`` (shared memory when two
        # judges share the learner's claims, see share_allowance)
        self._wall: Any = _Allowance(limits.learner_wall_s)
        self._deadline = 0.0  # the wall-clock backstop of the exchange under way ...
        # ... and where the learner's allowance ends, before what the exchange earns on it
        self._allowance_end = math.inf
        self._cpu_limit = 0.0  # CPU seconds the exchange under way may use (inf: starting)
        self._cpu_seen = 0.0  # the current worker's CPU time, as last read
        self._cpu_base = 0.0  # ... when the exchange under way began
        self._cpu_spent = 0.0  # what the exchange under way has used, across worker restarts
        self._cpu_read_at = -math.inf  # when _cpu_seen was read (time.monotonic())
        self._cpu_charged = 0.0  # the current worker's CPU time charged to claims so far
        self._cpu_unread = False  # an exchange ended with no reading after it
        # seconds the current worker's processes waited for a CPU (runnable, not running),
        # as CPU time above: None where the kernel does not say (schedstat)
        self._delay_seen: float | None = 0.0
        self._delay_base = self._delay_charged = 0.0
        self._delays: dict[int, float] = {}  # each process's own, as last read
        self._delays_read_at = _clock()  # when they were
        self._process: Any = None
        self._uid = 0  # the user id of its worker (see sandbox_uid), drawn as each starts
        self._resident = 0  # bytes its worker's processes hold, as last read from /proc
        # ... counted again past the limit with each shared page once (their PSS, moved by
        # _pss_offset to the resident sizes' scale), else the resident sizes
        self._held: float = 0
        self._pss_offset: float = 0
        self._pss_held: float = 0  # ... as last read, when the resident sizes were
        self._pss_resident = 0
        self._pss_next = -math.inf  # ... and when it may be read again
        self._resident_base = math.inf  # ... before the learner's code ran (none yet: inf)
        self._workdir: str | None = None
        self._fds: tuple[int, int, int] | None = None  # request (write), reply, output (read)
        self._arena: Arena | None = None  # the arrays of watched calls, shared with the worker
        self._output_open = False  # the worker's output pipe, until its end is read
        self._selector: selectors.BaseSelector | None = None  # reply and output, while alive
        self._buffer = bytearray()
        self._decoder = _utf8()
        read = read_submission(path, entry)
        self._failure: LoadFailure | None = read if isinstance(read, LoadFailure) else None
        self.submitted: Submitted | None = read if isinstance(read, Submitted) else None
        # as messages show it (a file name is the learner's)
        self.name = self.submitted.name if self.submitted else printable_line(path.name)
        self.source = self.submitted.source if self.submitted else b""
        self.size = len(self.source)
        self.sha256 = self.submitted.sha256 if self.submitted else ""

    # -- life ---------------------------------------------------------------------------
    def open(self) -> LoadFailure | None:
        """Start the worker and import the file once; the reason when that fails."""
        if self._failure is not None:
            return self._failure
        self.begin_claim()
        try:
            reply = self._start("")
        except BoundaryError as exc:
            return _load_failure(exc)
        finally:
            self.load_output = self.end_claim().output
        if reply.get("status") == "raised":
            self.kill()
            line = reply.get("line") if type(reply.get("line")) is int else None
            course = reply.get("course_code")
            if isinstance(course, str) and course:  # said in the reader's language
                return LoadFailure("load.course_code", {"code": shown(course, 300), "line": line})
            return LoadFailure(
                "load.raised",
                {
                    "error": shown(reply.get("type"), 200),
                    "message": shown(reply.get("message") or "", 1000),
                    "line": line,
                },
            )
        return None

    def _spawn(self, name: str) -> None:
        """The worker forked from the server with its pipes and shared memory, recorded
        (``_process``, ``_fds``, ``_selector``); BoundaryError when none can start."""
        assert self.submitted is not None and self._workdir is not None
        request_r, request_w = os.pipe()
        reply_r, reply_w = os.pipe()
        output_r, output_w = os.pipe()
        _widen(request_w, reply_w)
        self._arena = Arena.create()
        self._uid = sandbox_uid()
        self._resident_base = math.inf  # until the worker says it is confined
        setup = {
            "rlimits": self.limits.rlimits(),
            "workdir": self._workdir,
            "entry": self.submitted.entry,
            "private": list(self.private),
            "tmp_mib": self.limits.tmp_mib,
            "environment": sorted(SINGLE_THREADED),
            "hidden_packages": list(self.hidden_packages),
            "hidden_directories": list(self.hidden_directories),
            "drop_root": self.limits.drop_root,
            "namespaces": self.limits.namespaces,
            "result_bytes": self.limits.result_mib * 2**20,
            "result_values": self.limits.result_values,
            "uid": self._uid,
            "shared_bytes": len(self._arena.memory) if self._arena is not None else 0,
        }
        # the Connection owns the descriptor from here on, and closes it once it is sent
        shared = Connection(self._arena.give_fd()) if self._arena is not None else None
        args = (
            Connection(request_r),
            Connection(reply_w),
            Connection(output_w),
            self.source,
            list(self.subjects),
            setup,
            shared,
        )
        try:
            self._process = _Server.start(serve_connections, args)
        except (OSError, EOFError, ValueError) as exc:  # no fork (process limit), no server
            for fd in (request_w, reply_r, output_r):
                os.close(fd)
            self.kill()
            params = {"function": name, "reason": f"{type(exc).__name__}: {exc}"[:300]}
            raise BoundaryError("boundary.no_worker", params) from None
        finally:
            for conn in args[:3]:
                conn.close()
            if shared is not None:  # the worker has its own descriptor: ours goes
                shared.close()
        for fd in (request_w, reply_r, output_r):
            os.set_blocking(fd, False)
        self._fds = (request_w, reply_r, output_r)
        self._selector = selectors.DefaultSelector()
        self._selector.register(reply_r, selectors.EVENT_READ)
        self._selector.register(output_r, selectors.EVENT_READ)
        self._output_open = True

    def _start(self, name: str) -> dict[str, Any]:
        """A fresh worker with the file imported: its reply (``loaded`` or ``raised``)."""
        self.kill()
        assert self.submitted is not None
        if self._wall.value <= 0:  # spent: not another fork, nor another import of the file
            raise BoundaryError("boundary.learner_stalled", self._learner_params(name))
        self._workdir = tempfile.mkdtemp(prefix=f"{WORKDIR_PREFIX}{os.getpid()}-")
        os.mkdir(os.path.join(self._workdir, "submission"), 0o700)
        os.mkdir(os.path.join(self._workdir, "root"), 0o700)
        copy_into(self.submitted, os.path.join(self._workdir, "submission"))
        # the judge's timers held back while the worker and its pipes are made: one firing
        # between the fork and self._process would leave a worker no kill() could find
        with signals_deferred(signal.SIGALRM, signal.SIGPROF):
            self._spawn(name)
        self._buffer.clear()
        # the worker's first word, before any of the learner's code has run: trustworthy
        self._deadline = time.monotonic() + START_S
        self._allowance_end = math.inf
        self._cpu_limit = float("inf")
        first = self._receive(name)
        if first.get("status") != "confined":
            self.kill()
            what = shown(first.get("what") or "", 300)
            raise BoundaryError("boundary.unconfined", {"function": name, "what": what})
        # what the worker's processes hold before any of the learner's code: the rest is the
        # learner's, --memory-mib in all, however many processes share it (--memory-mib binds
        # each process's address space too, but 62 processes of 47 MB each took a machine's
        # memory, and the out-of-memory killer took a classmate's larger worker)
        self._worker_cpu()
        self._resident_base = self._resident
        # PSS is below RSS by the pages the worker shares (NumPy's, with its fork server):
        # a reading of PSS is moved up by that much, to compare with this base
        worker = self._process.pid if self._process is not None else None
        base = _tree_pss(worker, self._resident) if worker is not None else self._resident
        self._pss_offset = base - self._resident
        self.isolation = str(first.get("isolation") or "")
        missing = first.get("missing")
        self.missing = [shown(m, 300) for m in missing[:16]] if isinstance(missing, list) else []
        self.server_dumpable = first.get("server_dumpable")
        reply: dict[str, Any] = self._spending(name, lambda: self._receive(name))  # importing
        status = reply.get("status")
        if status == "loaded":
            self.signatures = _signatures(reply.get("signatures"), self.subjects)
            defined = reply.get("defined")
            if isinstance(defined, list):  # a name for the learner to read: one short line
                self.defined = [shown(n, 100) for n in defined[:256] if isinstance(n, str)]
        elif status != "raised":
            self.kill()
            raise BoundaryError("boundary.garbled", {"function": name})
        return reply

    def close(self) -> None:
        """Stop the worker. It holds nothing worth a graceful exit, so it is killed."""
        self.kill()

    def kill(self) -> None:
        """Kill the worker and everything it started (see :func:`_kill_tree`)."""
        process, self._process = self._process, None
        self._credit(*self._uncharged())  # read, not yet charged
        # the next worker's time starts at its zero
        self._restart_clocks()
        if process is not None and process.pid is not None:
            with wall_paused():  # the worker's time, not the check's
                _kill_tree(process.pid, self._own_uid())
                process.join(timeout=5)
        self._let_go()
        workdir, self._workdir = self._workdir, None
        if workdir is not None:
            remove_tree(workdir)

    @classmethod
    def kill_all(cls) -> None:
        """Kill every worker of this process's sessions and what they started (from a signal
        handler: nothing here waits on a lock another thread may hold)."""
        for session in list(cls.live):
            process = session._process
            if process is not None and process.pid is not None:
                with contextlib.suppress(Exception):
                    _kill_tree(process.pid, session._own_uid())

    def disown(self) -> None:
        """In a judge forked from this session's (:mod:`.share`): the worker is the
        parent's. This process lets go of it without killing it: its copies of the pipes and
        of the shared memory are closed, and the worker's folder stays the parent's."""
        self._process = None
        self._workdir = None
        self._let_go()
        self._restart_clocks()

    def _restart_clocks(self) -> None:
        self._cpu_seen = self._cpu_base = self._cpu_charged = 0.0
        self._cpu_read_at = -math.inf
        self._cpu_unread = False
        if self._delay_seen is not None:
            self._delay_seen = 0.0
        self._delay_base = self._delay_charged = 0.0
        self._delays = {}
        self._delays_read_at = _clock()

    def _forget_ended(self, read: Mapping[int, float]) -> None:
        """Down to MAX_TRACKED threads remembered: first those missing from the last
        reading (ended), oldest first; a thread still running is forgotten only where more
        than that many run at once (threads count among a worker's processes, which are
        capped far below). Forgetting the oldest first had a learner's stream of short
        threads push its long-lived ones out, each then counting its whole wait again."""
        over = len(self._delays) - MAX_TRACKED
        ended = [tid for tid in self._delays if tid not in read][:over]
        for tid in ended:
            del self._delays[tid]
        while len(self._delays) > MAX_TRACKED:
            del self._delays[next(iter(self._delays))]

    def _let_go(self) -> None:
        """Close this process's side of the worker: its pipes, and the shared memory."""
        selector, self._selector = self._selector, None
        if selector is not None:
            selector.close()
        fds, self._fds = self._fds, None
        for fd in fds or ():
            with contextlib.suppress(OSError):
                os.close(fd)
        arena, self._arena = self._arena, None
        if arena is not None:
            arena.close()

    def restart(self) -> None:
        """A worker of this process's own, with the file imported again, before any claim:
        what the import prints was shown when the file was first imported, and is not a
        claim's output. A worker that cannot start is the first claim's to report."""
        self.begin_claim()
        try:
            if self._start("").get("status") != "loaded":
                self.kill()
        except BoundaryError:
            pass
        finally:
            self.end_claim()

    def share_allowance(self, shared: Any) -> None:
        """The learner's wall-clock allowance from now on in ``shared`` (a double in memory
        a judge forked from this one sees too, :mod:`.share`): what either judge waits is
        taken from the one allowance, as it is when one judge runs every claim."""
        shared.value = self._wall.value
        self._wall = shared

    def fold(self, isolation: str, missing: list[str]) -> None:
        """What a judge forked from this one (:mod:`.share`) reports of its own worker: the
        guarantees it could not give join this session's."""
        self.isolation = self.isolation or isolation
        self.missing += [m for m in missing if m not in self.missing]

    @classmethod
    def remove_workdirs(cls) -> None:
        """Remove the folders of this process's workers (a judge ending at once, after
        :meth:`kill_all`; what it does not remove the next run's judge does)."""
        for session in list(cls.live):
            workdir = session._workdir
            if workdir is not None:
                remove_tree(workdir)

    def __enter__(self) -> LearnerSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- claims -------------------------------------------------------------------------
    def begin_claim(self) -> None:
        self.last_returned: str | None = None
        if self._cpu_unread:  # the previous claim's last exchanges: not this claim's time
            self._charge()
        self._budget = self.limits.timeout_s
        self._wall_budget = self.limits.wall_s
        self._traced = False  # whether a call of this claim has had its memory traced
        self.capture = ClaimCapture()
        self._decoder = _utf8()
        # the claim's first request tells the worker to show warnings afresh: what a claim
        # prints must not depend on which claims the same worker answered before it
        self._fresh = True

    def end_claim(self) -> ClaimCapture:
        self._keep(self._decoder.decode(b"", final=True))
        capture, self.capture = self.capture, ClaimCapture()
        return capture

    def judging(self) -> contextlib.AbstractContextManager[None]:
        """The judge's own cap while a check computes on this learner's values."""
        limits = self.limits
        return check_cost(limits.check_memory_mib, limits.check_cpu_s, self, limits.check_wall_s)

    def wall_left(self) -> float:
        """Wall-clock seconds this learner's calls may still wait (see _credit)."""
        return float(self._wall.value)

    def diagnosing(self) -> contextlib.AbstractContextManager[None]:
        """The judge's own cap while the diagnosis replays this learner's calls on the
        twins: a check's memory, and the CPU time the learner's claim itself may use (a
        diagnosis takes milliseconds; Overrun past them, the worker untouched)."""
        return capped(self.limits.check_memory_mib, self.limits.timeout_s)

    def implementation(self) -> Implementation:
        functions = {
            name: RemoteFunction(self, name, signature)
            for name, signature in self.signatures.items()
        }
        return Implementation(
            kind="learner",
            name=self.name,
            functions=functions,
            sha256=self.sha256,
            source=str(self.path),
        )

    # -- calls --------------------------------------------------------------------------
    def call(
        self,
        name: str,
        args: tuple[Any, ...],
        kwargs: Mapping[str, Any],
        measure: bool,
        watch: bool = False,
    ) -> Answer:
        """Call the learner's ``name`` in the worker; with ``measure`` the answer carries the
        call's peak memory, with ``watch`` the arguments the call modified."""
        self._ready(name)
        if measure and not self._traced:
            # tracemalloc, which measures the peak in the worker, slows code that makes many
            # Python objects about tenfold (a pure-Python tiled flash attention: 2.7 s at
            # T = 2,048, 34 s traced): the claim's budget grows for it, once, so that the
            # measurement's cost is not taken for the learner's code being too slow
            self._traced = True
            self._budget += (TRACED_BUDGET - 1) * self.limits.timeout_s
            self._wall_budget += (TRACED_BUDGET - 1) * self.limits.wall_s
        request: dict[str, Any] = {"name": name, "measure": measure}
        request.update(args=list(args), kwargs=dict(kwargs))
        watched: list[Watched] = [[]]
        if watch:
            request["watch"] = True
            placed = self._place([[list(args), dict(kwargs)]])
            if placed is not None:
                ((request["args"], request["kwargs"]),), watched = placed
        try:
            encoded = self._request(request)
        except codec.CodecError as exc:  # our own inputs: a bug in a check, not the learner's
            raise TypeError(f"cannot send the inputs of {name}(): {exc}") from None
        (reply,) = self._exchange(name, encoded, 1)
        changed = self._changed(watched[0]) if watch else []
        return self._answer(name, reply, args, kwargs, watch, changed)

    def call_each(
        self, name: str, cases: Sequence[tuple[tuple[Any, ...], Mapping[str, Any]]]
    ) -> tuple[list[Any], Exception | None]:
        """Call the learner's ``name`` on each case in order, the cases sent together (one
        exchange with the worker for as many as one request holds, not one per case): the
        values of the cases answered, and the exception of the first that raised (or could
        not be answered), after which no case runs, as in a loop of single calls."""
        values: list[Any] = []
        for answer in self._answers(name, cases, through_raises=False):
            if isinstance(answer, Exception):  # the outcome of this case; the batch ends here
                return values, answer
            values.append(answer.value)
        return values, None

    def attempt_each(
        self,
        name: str,
        cases: Sequence[tuple[tuple[Any, ...], Mapping[str, Any]]],
        in_place: Collection[int] = (),
    ) -> tuple[list[Answer | ForeignError], Exception | None]:
        """Call the learner's ``name`` on each case in order, the cases sent together, each
        call watched (its answer says which arguments it modified): the outcome of each case
        answered, an :class:`Answer` or the :class:`ForeignError` it raised (an outcome to
        judge: the batch goes on), and the exception that ended the batch early (the
        function is not written yet, or the boundary failed), after which no outcome is
        given. The worker goes on through every raised exception, NotImplementedError
        included: the replies of the cases after it are read, to stay in step, and dropped.
        ``in_place``: the cases called on the objects the worker gave the case before them,
        their arrays written over (:mod:`runner.in_place`)."""
        outcomes: list[Answer | ForeignError] = []
        for answer in self._answers(name, cases, through_raises=True, in_place=in_place):
            if isinstance(answer, Exception) and not isinstance(answer, ForeignError):
                return outcomes, answer  # not written yet (ForeignNotImplemented), or the boundary
            outcomes.append(answer)
        return outcomes, None

    def _answers(
        self,
        name: str,
        cases: Sequence[tuple[tuple[Any, ...], Mapping[str, Any]]],
        through_raises: bool,
        in_place: Collection[int] = (),
    ) -> Iterator[Answer | Exception]:
        """Each case's answer, or the exception its reply stands for, in order, the cases
        sent in as few requests as the request limit allows; ``through_raises`` and
        ``in_place`` as in :meth:`_batches` (and its calls are watched). A caller may stop at
        any exception: the worker stopped there too, unless it goes on through raised ones."""
        for start, encoded, n, watched in self._batches(name, cases, through_raises, in_place):
            replies = self._exchange(name, encoded, n, through_raises)
            # read back once every reply is in: what the calls left in their arrays
            changed = [self._changed(w) for w in watched[: len(replies)]]
            for offset, reply in enumerate(replies):
                args, kwargs = cases[start + offset]
                try:
                    # nothing was placed for a call not watched: no change to add
                    also = changed[offset]
                    yield self._answer(name, reply, args, kwargs, through_raises, also)
                except Exception as exc:
                    yield exc

    def _batches(
        self,
        name: str,
        cases: Sequence[tuple[tuple[Any, ...], Mapping[str, Any]]],
        through_raises: bool = False,
        in_place: Collection[int] = (),
    ) -> Iterator[tuple[int, bytes, int, list[Watched]]]:
        """The cases as requests within the request limit: (first case, request, cases,
        what was placed in shared memory for each). ``through_raises``: every call watched
        (its arrays placed where the judge reads them back), and a raised exception does not
        end the batch (the worker goes on to the next case).

        ``in_place`` (with ``through_raises``): the cases the worker calls on the objects it
        gave the case before, their arrays written over. Each begins a request, sent once the
        replies before it are in and the arrays they left are read back: its contents are
        placed where the case before's were (the worker's objects are views of them), and
        the request before it asks the worker to keep its last case's objects."""
        over = frozenset(in_place) if through_raises else frozenset()
        start = 0
        kept: Watched | None = None  # where the arrays of the case just sent were placed
        while start < len(cases):
            worker = self._process
            self._ready(name)
            if self._process is not worker:  # started afresh: nothing of the last is kept
                kept = None
            # up to the next case called in place, which begins a request
            n = min([i for i in over if i > start] + [len(cases)]) - start
            while True:
                chunk = [[list(a), dict(k)] for a, k in cases[start : start + n]]
                watched: list[Watched] = [[] for _ in chunk]
                request: dict[str, Any] = {"name": name, "cases": chunk, "measure": False}
                if start + n in over:
                    request["keep"] = True
                if start in over and kept is not None:  # the case before was sent, kept
                    request["in_place"] = True
                if through_raises:
                    request.update(watch=True, through_raises=True)
                    placed = self._place(chunk, kept if request.get("in_place") else None)
                    if placed is not None:
                        request["cases"], watched = placed
                try:
                    encoded = self._request(request)
                    break
                except codec.CodecError as exc:
                    if n == 1:  # our own inputs: a bug in a check, not the learner's
                        raise TypeError(f"cannot send the inputs of {name}(): {exc}") from None
                    n = (n + 1) // 2  # too much for one request: fewer cases in it
            kept = watched[n - 1] if watched else None
            yield start, encoded, n, watched
            start += n

    def _request(self, request: dict[str, Any]) -> bytes:
        """``request`` encoded; the claim's first says so (``fresh``)."""
        if self._fresh:
            encoded = _request({**request, "fresh": True})
            self._fresh = False
            return encoded
        return _request(request)

    def _ready(self, name: str) -> None:
        """A worker to send to, started afresh if an earlier claim's failure ended it: the
        memory a request's arrays are placed in is that worker's."""
        if self._process is None:
            reply = self._start(name)
            if reply.get("status") != "loaded":
                self.kill()
                raise BoundaryError("boundary.reload", {"function": name})

    def _place(
        self, cases: list[list[Any]], over: Watched | None = None
    ) -> tuple[list[list[Any]], list[Watched]] | None:
        """The cases' arrays in the worker's shared memory; None where there is none (the
        worker's own report then says what changed) or they do not fit together. ``over``:
        where the first case's arrays go, if they fit there (see :meth:`_batches`)."""
        return self._arena.place_cases(cases, over) if self._arena is not None else None

    def _changed(self, watched: Watched) -> list[int | str]:
        return self._arena.changed(watched) if self._arena is not None and watched else []

    def _answer(
        self,
        name: str,
        reply: dict[str, Any],
        args: Sequence[Any],
        kwargs: Mapping[str, Any],
        watch: bool,
        changed: Sequence[int | str] = (),
    ) -> Answer:
        """One reply to the call of ``name`` on ``args`` and ``kwargs`` as its answer, or the
        exception it stands for. ``changed``: the arguments whose arrays the judge found
        changed after the call, whatever the worker says (it runs the learner's code, which
        can rewrite its report)."""
        status = reply.get("status")
        started = time.process_time()
        wider = status == "returned" and _wider(reply.get("value"))
        self._charge_judging(name, time.process_time() - started)
        if wider and not _wider([args, kwargs]):
            # a long double answer to a call given none could hold what float64 cannot
            # (1e-4000 where the future should weigh 0), and a check reading it as float64
            # would never see it: refused, as an answer no check can judge
            raise BoundaryError(
                "boundary.unplain", {"function": name, "what": WIDER_UNASKED, "at": ""}
            )
        if status == "returned":
            peak = reply.get("peak_bytes")
            self.last_returned = name  # what a check that chokes on a value was given last
            return Answer(
                reply.get("value"),
                peak if type(peak) is int and peak >= 0 else None,
                self._modified(name, reply.get("modified"), len(args), kwargs, changed)
                if watch
                else None,
            )
        if status == "raised":
            error, names = shown(reply.get("type"), 200), reply.get("names")
            line = reply.get("line") if type(reply.get("line")) is int else None
            if error == "NotImplementedError":
                raised_in = reply.get("function")
                # the function of the contract that is not written yet: the one called, or
                # one it calls that still raises (named by the worker: trusted only when it
                # names another function of the contract)
                if raised_in != name and raised_in in self.subjects:
                    raise ForeignNotImplemented(raised_in, line, called=name)
                raise ForeignNotImplemented(name, line)
            raise ForeignError(
                name,
                error,
                shown(reply.get("message") or "", 1000),
                tuple(shown(n, 200) for n in names[:32]) if isinstance(names, list) else (error,),
                line,
            )
        if status == "unplain":
            where = shown(reply.get("where") or "", 300)
            code = "boundary.unplain_at" if where else "boundary.unplain"
            raise BoundaryError(
                code, {"function": name, "what": shown(reply.get("what"), 300), "at": where}
            )
        if status == "too_large" and type(reply.get("bytes")) is int:
            limit = self.limits.result_mib * 2**20
            raise BoundaryError(
                "boundary.too_large", {"function": name, "bytes": reply["bytes"], "limit": limit}
            )
        self.kill()
        raise BoundaryError("boundary.garbled", {"function": name})

    def _modified(
        self,
        name: str,
        raw: Any,
        n_args: int,
        kwargs: Mapping[str, Any],
        changed: Sequence[int | str] = (),
    ) -> list[str]:
        """The worker's list of modified arguments (positions, keyword names), with those the
        judge saw changed, as parameter names; a reply that is not such a list says every
        argument may have changed."""
        signature = self.signatures.get(name)  # as the worker reported it, or None
        positions: list[int] = []
        keys: list[str] = []
        if not isinstance(raw, list) or len(raw) > n_args + len(kwargs) + 1:
            raw = [*range(n_args), *kwargs]
        for item in [*raw, *changed]:
            if type(item) is int and 0 <= item < n_args and item not in positions:
                positions.append(item)
            elif isinstance(item, str) and item in kwargs and item not in keys:
                keys.append(item)
        # in the order of the call, whichever side saw the change first
        keys.sort(key=list(kwargs).index)
        shared = [EARLIER_RESULT] if EARLIER_RESULT in raw else []
        return argument_names(signature, sorted(positions), keys) + shared

    def _exchange(
        self, name: str, request: bytes, cases: int, through_raises: bool = False
    ) -> list[dict[str, Any]]:
        """Send one request of ``cases`` calls and wait for their replies, within what the
        claim may still wait: one per case, up to the first that is not a returned value
        (nor a raised exception, ``through_raises``), where the worker stops too."""
        going_on = ("returned", "raised") if through_raises else ("returned",)
        self._ready(name)  # the callers have started it; a worker ended meanwhile is again

        def exchange() -> list[dict[str, Any]]:
            self._write(request, name)
            replies = [self._receive(name)]
            while len(replies) < cases and replies[-1].get("status") in going_on:
                replies.append(self._receive(name))
            return replies

        replies: list[dict[str, Any]] = self._spending(name, exchange)
        return replies

    def _spending(self, name: str, exchange: Any) -> Any:
        """Run one exchange with the worker on the claim's budgets: the CPU time the
        worker's processes use (what a busy machine does not change) and, as a backstop
        against a call that sleeps or blocks, the wall-clock time the judge waits."""
        if self._budget <= 0:
            self.kill()
            raise BoundaryError("boundary.timeout", self._timeout_params(name))
        if self._wall_budget <= 0:
            self.kill()
            raise BoundaryError("boundary.stalled", self._stalled_params(name))
        if self._wall.value <= 0:  # nothing more is called: every claim left says so
            self.kill()
            raise BoundaryError("boundary.learner_stalled", self._learner_params(name))
        started = time.monotonic()
        # Reading the worker's processes in /proc is most of what a quick call costs the
        # judge, so they are read at most every CPU_POLL_S, before an exchange, while it
        # waits, or after it: quick exchanges between two readings are charged at the next
        # (a claim that has spent its budget is stopped within CPU_POLL_S of wall).
        if started - self._cpu_read_at >= CPU_POLL_S:
            self._charge()
            if self._budget <= 0:
                self.kill()
                raise BoundaryError("boundary.timeout", self._timeout_params(name))
        self._cpu_base = self._cpu_charged
        self._delay_base = self._delay_charged
        self._cpu_spent = self._cpu_seen - self._cpu_charged  # read, not yet charged
        self._cpu_limit = self._budget
        self._deadline = started + self._wall_budget
        self._allowance_end = started + self._wall.value
        try:
            return exchange()
        finally:
            if time.monotonic() - self._cpu_read_at >= CPU_POLL_S:
                self._charge()
            else:
                self._cpu_unread = True
            waited = time.monotonic() - started
            self._wall_budget -= waited
            self._wall.value -= waited

    def _charge(self) -> None:
        """Read the worker's CPU time and charge the claim what it used since the last
        charge."""
        self._worker_cpu()
        self._credit(*self._uncharged())
        self._cpu_charged = self._cpu_seen
        self._delay_charged = self._delay_seen or 0.0
        self._cpu_unread = False

    def _uncharged(self) -> tuple[float, float | None]:
        """CPU seconds and seconds waiting for a CPU read and not yet charged."""
        delay = None if self._delay_seen is None else self._delay_seen - self._delay_charged
        return self._cpu_seen - self._cpu_charged, delay

    def _credit(self, used: float, delayed: float | None) -> None:
        """Charge the claim ``used`` CPU seconds; the learner's wall-clock allowance grows by
        what they earn (see _earned): it bounds waiting that computing does not account for
        (a sleeper's), so neither a larger --timeout nor a busy machine stops a learner
        whose calls compute."""
        self._budget -= used
        self._wall.value += _earned(used, delayed)

    def _worker_cpu(self) -> float:
        """CPU seconds the worker and every process it started have used (Linux: /proc;
        elsewhere 0, and the wall-clock backstop is the only limit)."""
        process = self._process
        if process is None or process.pid is None:
            return self._cpu_seen
        used, self._resident, delays = _tree_usage(process.pid)
        if delays is None or self._delay_seen is None:
            self._delay_seen = None  # the kernel does not say: CPU time alone earns
        else:
            # the most any one process waited since the last reading: processes waiting on
            # each other for the cores (a hundred forks) earn no more than one that waits
            # for other work on the machine
            # a thread first seen now waited at most since the last reading (a thread once
            # forgotten and seen again would otherwise count its whole wait again)
            now = _clock()
            since, self._delays_read_at = now - self._delays_read_at, now
            grown = (
                d - self._delays[tid] if tid in self._delays else min(d, since)
                for tid, d in delays.items()
            )
            self._delay_seen += max(0.0, max(grown, default=0.0))
            # a thread missing from this reading keeps its figure: hidden from one reading,
            # it would count its wait again at the next
            for tid, d in delays.items():
                self._delays[tid] = max(d, self._delays.get(tid, 0.0))
            if len(self._delays) > MAX_TRACKED:
                self._forget_ended(delays)
        # past the limit in resident sizes, shared pages counted once (read here, at most
        # every CPU_POLL_S: smaps_rollup of 60 forks read at every wake kept a judge busy)
        self._held = self._resident
        if self._resident - self._resident_base > self.limits.memory_mib * 2**20:
            now = time.monotonic()
            if now >= self._pss_next:
                # at most a tenth of the judge's time: smaps_rollup of 60 forks of a
                # process of 1,400 MiB took longer to read than CPU_POLL_S (attack round 28)
                started = time.process_time()
                self._pss_held = _tree_pss(process.pid, self._resident) - self._pss_offset
                self._pss_resident = self._resident
                cost = time.process_time() - started
                self._pss_next = now + max(CPU_POLL_S, 10 * cost)
            # between readings of PSS, what the resident sizes grew by counts whole
            self._held = self._pss_held + max(0, self._resident - self._pss_resident)
        self._cpu_read_at = time.monotonic()
        # a process that ended unwaited takes its time with it: never count backwards
        self._cpu_seen = max(self._cpu_seen, used)
        self._cpu_spent = max(self._cpu_spent, self._cpu_seen - self._cpu_base)
        return self._cpu_seen

    def _timeout_params(self, name: str) -> dict[str, Any]:
        seconds = self.limits.timeout_s * (TRACED_BUDGET if self._traced else 1)
        return {"function": name, "seconds": seconds}

    def _stalled_params(self, name: str) -> dict[str, Any]:
        return {"function": name, "seconds": self.limits.wall_s}

    def _learner_params(self, name: str) -> dict[str, Any]:
        return {"function": name, "seconds": self.limits.learner_wall_s, "factor": WALL_FACTOR}

    def _write(self, data: bytes, name: str) -> None:
        """Send one framed request; a full pipe is waited on (reading what the learner's
        code prints meanwhile, so neither side blocks the other)."""
        assert self._fds is not None
        request_fd, _, output_fd = self._fds
        parts = [memoryview(FRAME.pack(len(data))), memoryview(data)]  # not a copy behind a frame
        while parts:
            try:
                written = os.writev(request_fd, parts)
            except BlockingIOError:
                written = -1
            except OSError:  # the worker is gone
                self._died(name)
            if written >= 0:
                while parts and written >= len(parts[0]):
                    written -= len(parts.pop(0))
                if parts:
                    parts[0] = parts[0][written:]
                continue
            with selectors.DefaultSelector() as sel:
                sel.register(request_fd, selectors.EVENT_WRITE)
                if self._output_open:
                    sel.register(output_fd, selectors.EVENT_READ)
                with wall_paused():
                    ready = sel.select(self._remaining(name))
                for key, _ in ready:
                    if key.fd == output_fd:
                        self._drain_output(name)

    def _remaining(self, name: str) -> float:
        """How long to wait before looking again: until the wall-clock backstop, and at most
        CPU_POLL_S, so the CPU budget is looked at while the worker computes (read again once
        CPU_POLL_S has passed since the last reading, however often the worker wakes us)."""
        now = time.monotonic()
        if now - self._cpu_read_at >= CPU_POLL_S:
            self._worker_cpu()
        if self._cpu_spent >= self._cpu_limit:
            self.kill()
            raise BoundaryError("boundary.timeout", self._timeout_params(name))
        if self._held - self._resident_base > self.limits.memory_mib * 2**20:
            self.kill()
            raise BoundaryError(
                "boundary.memory", {"function": name, "mib": self.limits.memory_mib}
            )
        # what this exchange has computed so far is credited to the allowance (see _credit)
        delayed = None if self._delay_seen is None else self._delay_seen - self._delay_base
        allowance = self._allowance_end + _earned(
            max(0.0, self._cpu_seen - self._cpu_base), delayed
        )
        remaining = min(self._deadline, allowance) - now
        if remaining <= 0:
            self.kill()
            if self._cpu_limit == float("inf"):  # starting: the worker's own deadline
                raise BoundaryError("boundary.timeout", {"function": name, "seconds": START_S})
            if allowance < self._deadline:
                raise BoundaryError("boundary.learner_stalled", self._learner_params(name))
            raise BoundaryError("boundary.stalled", self._stalled_params(name))
        until_read = self._cpu_read_at + CPU_POLL_S - now  # not positive: no reading (no /proc)
        return min(remaining, until_read if until_read > 0 else CPU_POLL_S)

    def _receive(self, name: str) -> dict[str, Any]:
        """The next framed reply, decoded; BoundaryError for anything else."""
        assert self._fds is not None and self._selector is not None
        limit = self.limits.result_mib * 2**20
        _, reply_fd, output_fd = self._fds
        message: bytearray | None = None  # once its frame is read: the message, filling
        got = 0
        while True:
            if message is None and len(self._buffer) >= FRAME.size:
                size = FRAME.unpack_from(self._buffer)[0]
                if size > limit:  # the worker itself says when an answer is too large
                    self.kill()
                    raise BoundaryError("boundary.garbled", {"function": name})
                # what was read already, and the rest read straight into the message
                got = min(size, len(self._buffer) - FRAME.size)
                message = bytearray(size)
                with memoryview(self._buffer) as buffered:  # released before the buffer shrinks
                    message[:got] = buffered[FRAME.size : FRAME.size + got]
                del self._buffer[: FRAME.size + got]
            if message is not None and got == len(message):
                self._drain_output(name)  # what it printed before replying
                return self._decode(message, name, limit)
            with wall_paused():
                ready = self._selector.select(self._remaining(name))
            for key, _ in ready:
                if key.fd == output_fd:
                    self._drain_output(name)
                    continue
                try:
                    if message is None:
                        chunk = os.read(reply_fd, 1 << 16)
                        if not chunk:
                            self._died(name)
                        self._buffer += chunk
                    else:
                        with memoryview(message) as view:
                            read = os.readv(reply_fd, [view[got:]])
                        if not read:
                            self._died(name)
                        got += read
                except BlockingIOError:
                    continue

    def _decode(self, message: bytes | bytearray, name: str, limit: int) -> dict[str, Any]:
        """``message`` as a reply, its texts made safe to show. What the judge spends on it
        is charged to the claim's CPU budget as the learner's own time is (see
        :meth:`_charge_judging`)."""
        started = time.process_time()
        try:
            return self._decoded(message, name, limit)
        finally:
            self._charge_judging(name, time.process_time() - started)

    def _charge_judging(self, name: str, used: float) -> None:
        """A reply's cost to the judge (decoding it, looking it over) charged to the claim:
        a learner's code that reaches the worker's own frames can send the same 4 MB reply
        again and again, each costing the judge seconds and the worker a write (an attack:
        45 s of the judge's CPU for one claim, 2 s of the worker's). Past the claim's budget
        the claim ends as a timeout, as if the learner had spent the time itself."""
        self._budget -= used
        if self._budget <= 0 and self._process is not None:
            self.kill()
            raise BoundaryError("boundary.timeout", self._timeout_params(name))

    def _decoded(self, message: bytes | bytearray, name: str, limit: int) -> dict[str, Any]:
        try:
            reply = codec.decode(
                message,
                codec.Limits(max_bytes=limit, max_elements=self.limits.result_values + 64),
                answer="value",
            )
        except codec.CodecError:
            self.kill()
            raise BoundaryError("boundary.garbled", {"function": name}) from None
        if not isinstance(reply, dict):
            self.kill()
            raise BoundaryError("boundary.garbled", {"function": name})
        # every text the worker sent (messages, type names, signatures, and the keys of a
        # returned dict: the one text a value may hold) safe to show and to write as UTF-8
        sanitized: dict[str, Any] = printable_data(reply)
        return sanitized

    def _died(self, name: str) -> None:
        """The reply pipe was closed: the worker exited, was killed, or closed it."""
        process = self._process
        code = None
        if process is not None:
            with wall_paused():
                process.join(timeout=min(0.5, max(0.0, self._deadline - time.monotonic())))
            code = process.exitcode
        self.kill()
        if code is None:
            raise BoundaryError("boundary.closed", {"function": name})
        if code > 128 and self._in_namespaces():
            # process 1 of the worker's namespaces (the keeper) cannot die of its own
            # signal: it ends with 128 + the number of the one that killed the worker
            code = 128 - code
        if code < 0:
            raise BoundaryError(
                "boundary.signal", {"function": name, "signal": _signal_name(-code)}
            )
        raise BoundaryError("boundary.exited", {"function": name, "code": code})

    def _own_uid(self) -> int | None:
        """The user id whose every process a kill of this worker looks for: its own, when
        it has one and no process namespace holds all its processes (see _kill_tree)."""
        return self._uid if self.isolation == "own-user" and not self._in_namespaces() else None

    def _in_namespaces(self) -> bool:
        """Whether the worker ran in namespaces of its own (below a keeper process)."""
        return bool(self.isolation) and not any(m.startswith("namespaces") for m in self.missing)

    def _drain_output(self, name: str) -> None:
        """Read what the learner's code printed, until the pipe is empty or the deadline
        passes (a process that prints without end cannot hold the judge here)."""
        if self._fds is None:
            return
        fd = self._fds[2]
        while True:
            read = 0
            while read < DRAIN_BYTES:
                try:
                    chunk = os.read(fd, 1 << 16)
                except (BlockingIOError, OSError):
                    return
                if not chunk:
                    # the learner's code closed its output: an ended pipe is readable for
                    # ever, and waiting on it would spin the judge until the call returns
                    self._output_open = False
                    if self._selector is not None:
                        with contextlib.suppress(KeyError, ValueError):
                            self._selector.unregister(fd)
                    return
                read += len(chunk)
                self.capture.read += len(chunk)
                if self.capture.read > self.limits.output_mib * 2**20:
                    # printing is cheap for the learner and reading it is not for the judge
                    # (106 GB printed with sendfile cost the judge 4.4 times the learner's
                    # CPU, an attack round): past the limit, the claim's error
                    self.kill()
                    raise BoundaryError(
                        "boundary.printed", {"function": name, "mib": self.limits.output_mib}
                    )
                self._keep_bytes(chunk)
            self._remaining(name)

    def _keep_bytes(self, chunk: bytes) -> None:
        if len(self.capture.output) >= self.limits.output_chars:
            # full: the rest is counted, not decoded (2 GiB of invalid UTF-8 decoded only to
            # be dropped cost the judge 17 times the CPU the printing cost the learner); each
            # byte that does not continue a character is one, as the decoder would count it
            self.capture.dropped += len(chunk.translate(None, _CONTINUATION))
            return
        self._keep(self._decoder.decode(chunk))

    def _keep(self, text: str) -> None:
        room = max(0, self.limits.output_chars - len(self.capture.output))
        self.capture.output += printable(text[:room])
        self.capture.dropped += max(0, len(text) - room)


# Where a long double holds more than a double (x86-64 Linux: 80 bits), an answer in one
# is judged only for a call that was given one (see LearnerSession._answer).
WIDE = np.finfo(np.longdouble).eps < np.finfo(np.float64).eps
WIDER_UNASKED = "a long double, though it was given none"


def _wider(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` holds a long double wider than a double (arrays, scalars, inside
    lists, tuples and dicts as the codec builds them)."""
    if not WIDE or depth > codec.MAX_DEPTH:
        return False
    if isinstance(value, np.ndarray | np.generic):
        return value.dtype == np.longdouble
    if isinstance(value, list | tuple):
        return any(_wider(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(_wider(v, depth + 1) for v in value.values())
    return False


class Answer(NamedTuple):
    """What a call of a learner's function returned, with what was asked about it."""

    value: Any
    peak_bytes: int | None = None  # with ``measure``
    modified: list[str] | None = None  # with ``watch``: the arguments it changed, by name


class RemoteFunction:
    """A learner's function, seen from a check: call it, or call it and measure its memory."""

    def __init__(self, session: LearnerSession, name: str, signature: inspect.Signature) -> None:
        self.session = session
        self.__name__ = name
        self.__signature__ = signature

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.session.call(self.__name__, args, kwargs, measure=False).value

    def measured(self, *args: Any, **kwargs: Any) -> tuple[Any, int | None]:
        answer = self.session.call(self.__name__, args, kwargs, measure=True)
        return answer.value, answer.peak_bytes

    def modifies(self, *args: Any, **kwargs: Any) -> tuple[Any, list[str]]:
        answer = self.session.call(self.__name__, args, kwargs, measure=False, watch=True)
        return answer.value, list(answer.modified or ())

    def each(
        self, cases: Sequence[tuple[tuple[Any, ...], Mapping[str, Any]]]
    ) -> tuple[list[Any], Exception | None]:
        return self.session.call_each(self.__name__, cases)

    def attempt_each(
        self,
        cases: Sequence[tuple[tuple[Any, ...], Mapping[str, Any]]],
        in_place: Collection[int] = (),
    ) -> tuple[list[tuple[Any, list[str]] | ForeignError], Exception | None]:
        """Each case's (value, modified arguments), or the ForeignError it raised."""
        outcomes, error = self.session.attempt_each(self.__name__, cases, in_place)
        return [
            o if isinstance(o, ForeignError) else (o.value, list(o.modified or ()))
            for o in outcomes
        ], error

    def __repr__(self) -> str:
        return f"<learner function {self.__name__}>"


def _tree_pss(root: int, resident: float) -> float:
    """The proportional set size of ``root`` and its descendants (``smaps_rollup``), or
    ``resident`` where a process's cannot be read."""
    total = 0
    for pid in _descend(root):
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as fh:
                for line in fh.read().splitlines():
                    if line.startswith(b"Pss:"):
                        total += int(line.split()[1]) * 1024  # kB
                        break
        except ProcessLookupError:
            continue  # ended, not yet reaped: it holds no memory
        except FileNotFoundError:  # gone meanwhile, or a kernel without the file
            if os.path.exists(f"/proc/{pid}/stat"):
                return resident
        except (OSError, ValueError, IndexError):
            return resident
    return total


def _descend(root: int) -> Iterator[int]:
    """``root`` and every process below it, each once (at most 4,096), read from /proc
    (``task/*/children`` links each process to the ones it started); a process gone before
    its children are read ends its branch."""
    for pid, _ in _descend_tasks(root):
        yield pid


def _descend_tasks(root: int) -> Iterator[tuple[int, list[str]]]:
    """As :func:`_descend`, each process with its threads."""
    stack, seen = [root], set[int]()
    while stack and len(seen) < 4096:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        tasks: list[str] = []
        with contextlib.suppress(OSError):
            tasks, children = _family(pid)
            stack += children
        yield pid, tasks


def _earned(used: float, delayed: float | None) -> float:
    """The wall-clock seconds a learner's processes earn on its allowance by computing for
    ``used`` CPU seconds and waiting ``delayed`` seconds for a CPU (runnable while other work
    ran): RUN_SLACK times both, never more than WALL_FACTOR times the CPU time. What they
    earn is time they were not sleeping: a call that computed 20 s and then slept 180 s
    earned the sleep as well when CPU time alone earned 10 times itself, and held a judge
    for hours (an attack round, 2026-12-07); on a machine 10 times busy, a call that computed
    20 s and waited 180 s for the CPU earns its 200 s, as CPU time alone did. Where the
    kernel does not say how long a process waited (``delayed`` None), CPU time alone earns,
    WALL_FACTOR times itself."""
    if delayed is None:
        return WALL_FACTOR * used
    return min(WALL_FACTOR * used, RUN_SLACK * (used + max(0.0, delayed)))


def _tree_usage(root: int) -> tuple[float, int, dict[int, float] | None]:
    """CPU seconds (user and system) of ``root`` and its descendants, with what they reaped
    from children that ended, the bytes resident in their memory now (each process's,
    summed), and each process's seconds waiting for a CPU (its main thread's ``run_delay``
    in ``/proc/<pid>/schedstat``; None where the kernel keeps none)."""
    total = resident = 0
    delays: dict[int, float] | None = {}
    for pid, tasks in _descend_tasks(root):
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
            total += sum(int(fields[i]) for i in (11, 12, 13, 14))  # utime stime cutime cstime
            resident += int(fields[21])  # rss, in pages
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile, or no /proc
        for task in tasks:
            if delays is not None:
                delays = _delay_of(pid, task, delays)
    return total / CLOCK_TICKS, resident * PAGE_BYTES, delays


# whether the kernel keeps each process's time waiting for a CPU (decided once: a process
# that ends between the open and the read of its file is no kernel without it, and a learner
# forking in a storm once turned the figure off for the rest of its run)
SCHEDSTAT = os.path.exists("/proc/self/schedstat")


def _delay_of(pid: int, task: str, delays: dict[int, float]) -> dict[int, float] | None:
    """``delays`` with thread ``task``'s (of process ``pid``) seconds waiting for a CPU, by
    its id (left out when it cannot be read: gone meanwhile); None where the kernel keeps
    no such figure. Every thread's: a correct learner computing in a thread of its own, on
    a busy machine, waited there while its main thread slept on the result."""
    if not SCHEDSTAT:
        return None
    try:
        with open(f"/proc/{pid}/task/{task}/schedstat", "rb") as fh:
            delays[int(task)] = int(fh.read().split()[1]) / 1e9  # cpu ns, run_delay ns, slices
    except (OSError, ValueError, IndexError):
        pass  # gone meanwhile
    return delays


def _children(pid: int) -> list[int]:
    """The processes ``pid``'s threads started that have not ended (``task/*/children``:
    an orphan is adopted by the nearest child subreaper, the keeper or the namespace's
    process 1, so every process a worker started stays below it). OSError when ``pid`` is
    gone, or where /proc has no ``children`` files."""
    return _family(pid)[1]


def _family(pid: int) -> tuple[list[str], list[int]]:
    """(``pid``'s threads, the processes they started: see _children). A thread that ends
    while its file is read is left out, not its process: a learner's threads starting and
    ending without pause once hid a child from half the readings, which then counted its
    whole wait again at each full one."""
    tasks = os.listdir(f"/proc/{pid}/task")
    found: list[int] = []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as fh:
                found += [int(c) for c in fh.read().split()]
        except (FileNotFoundError, ProcessLookupError):
            if os.path.isdir(f"/proc/{pid}/task/{task}"):
                raise  # the thread is there, its file is not: a kernel without them
    return tasks, found


def _walked(root: int) -> set[int] | None:
    """Every descendant of ``root``, from the ``children`` files of it and of what it
    started: a few files for a worker's tree, where reading every process's ``stat`` reads
    a file for each process of the machine. None where the kernel has no such files."""
    found: set[int] = set()
    stack = [root]
    while stack:  # no cap: every process found is one to freeze (the process limit bounds it)
        pid = stack.pop()
        try:
            children = _children(pid)
        except FileNotFoundError:
            if pid == root and os.path.isdir(f"/proc/{pid}/task"):
                return None  # a kernel without CONFIG_PROC_CHILDREN
            continue  # gone meanwhile
        except (OSError, ValueError):
            continue
        for child in children:
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def _kill_tree(pid: int, uid: int | None) -> None:
    """Kill worker ``pid`` and everything it started. Its process group is frozen first
    (SIGSTOP: nothing in it forks any more), then every descendant (the worker is a child
    subreaper, so a process that left the group and lost its parent is still the worker's
    descendant) and, given ``uid`` (a worker with a user id of its own outside namespaces),
    every process of ``uid``, until a look at /proc finds nothing new; then all of them are
    killed. A worker in namespaces of its own needs no ``uid``: every process of its user id
    is in its process namespace, whose process 1 is the keeper's child, a descendant; when
    it is killed, the kernel kills every process of the namespace."""
    signal_group(pid, signal.SIGSTOP)
    frozen: set[int] = set()
    for _ in range(20):
        walked = _walked(pid) if uid is None else None
        if walked is not None:
            found = walked
        else:
            table = _process_table(with_uid=uid is not None)
            found = _descendants(pid, table)
            if uid is not None:
                found |= {p for p, (_, owner) in table.items() if owner == uid}
        new = found - frozen - {pid}
        if not new:
            break
        for p in new:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(p, signal.SIGSTOP)
        frozen |= new
    signal_group(pid, signal.SIGKILL)
    for p in frozen:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(p, signal.SIGKILL)


def signal_group(pid: int, sig: int) -> None:
    """``sig`` to the worker's process group and to the worker itself."""
    for kill in (os.killpg, os.kill):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            kill(pid, sig)


def _process_table(with_uid: bool) -> dict[int, tuple[int, int | None]]:
    """pid -> (parent pid, real user id when asked) of every process /proc shows."""
    table: dict[int, tuple[int, int | None]] = {}
    try:
        entries = [int(e) for e in os.listdir("/proc") if e.isdigit()]
    except OSError:  # no /proc: the process group is all there is to kill
        return table
    for p in entries:
        try:
            with open(f"/proc/{p}/stat", "rb") as fh:
                ppid = int(fh.read().rsplit(b")", 1)[1].split()[1])
            uid = None
            if with_uid:
                with open(f"/proc/{p}/status", "rb") as fh:
                    uid = next(int(line.split()[1]) for line in fh if line.startswith(b"Uid:"))
        except (OSError, ValueError, IndexError, StopIteration):
            continue  # gone meanwhile
        table[p] = (ppid, uid)
    return table


def _descendants(root: int, table: dict[int, tuple[int, int | None]]) -> set[int]:
    children: dict[int, list[int]] = {}
    for p, (ppid, _) in table.items():
        children.setdefault(ppid, []).append(p)
    found: set[int] = set()
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def _request(request: dict[str, Any]) -> bytes:
    """A request as the worker reads it; CodecError if it is over the worker's limits."""
    encoded = codec.encode(request, codec.REQUEST)
    if len(encoded) > codec.REQUEST.max_bytes:
        raise codec.CodecError(
            f"{len(encoded):,} bytes, over the limit of {codec.REQUEST.max_bytes:,}"
        )
    return encoded


def shown(value: Any, limit: int) -> str:
    """A string the worker sent for a message (an exception's type or message, a type's
    name): one printable line of at most ``limit`` characters, whatever it sent."""
    return printable_line(str(value)[:limit])


_CONTINUATION = bytes(range(0x80, 0xC0))  # UTF-8's continuation bytes, 10xxxxxx


def _utf8() -> Any:
    import codecs

    return codecs.getincrementaldecoder("utf-8")("replace")


def _load_failure(exc: BoundaryError) -> LoadFailure:
    """What stopped an import, said as the import's failure: ``boundary.X`` as ``load.X``,
    or, for a code with no import form, as the worker stopped with that code (a code with
    no message once made the class run's report raise, and lost every later learner)."""
    from runner.i18n import catalog

    code = exc.code.replace("boundary.", "load.", 1)
    if code not in catalog("en").entries:
        return LoadFailure("load.stopped", {"code": exc.code})
    return LoadFailure(code, _without_function(exc.params))


def _without_function(params: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if k != "function"}


def _signatures(raw: Any, subjects: list[str]) -> dict[str, inspect.Signature]:
    """Signatures rebuilt from the worker's [name, kind, has_default] lists; parameters we
    cannot read make the function take *args, **kwargs (it is still called as written)."""
    out: dict[str, inspect.Signature] = {}
    if not isinstance(raw, dict):
        return out
    for name in subjects:
        params = raw.get(name)
        if not isinstance(params, list):
            continue
        try:
            out[name] = inspect.Signature(
                [
                    inspect.Parameter(
                        str(p[0]),
                        inspect._ParameterKind(int(p[1])),
                        default=None if p[2] else inspect.Parameter.empty,
                    )
                    for p in params
                ]
            )
        except Exception:  # the worker's frame is the learner's to forge: any shape at all
            out[name] = inspect.Signature(
                [
                    inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
                    inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD),
                ]
            )
    return out


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)
