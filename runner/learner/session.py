"""The judge's side of the worker boundary: a learner's functions as proxies.

A :class:`LearnerSession` starts a worker for one learner's file (forked from a server that
has NumPy imported, see :mod:`runner.learner.worker`), and hands the checks an
:class:`~checks.registry.Implementation` whose functions are :class:`RemoteFunction` proxies:
calling one sends the arguments as plain data, waits for the answer until the claim's
deadline, and decodes it with limits. Whatever the learner's code does (hang, exit, print,
exhaust memory, patch modules, return a lying object) happens in the worker; here it can
only become a value, a :class:`~checks.outcome.ForeignError`, or a
:class:`~checks.outcome.BoundaryError` for the claim at hand. A worker that failed is killed
with its whole process group and a fresh one is started for the next claim.
"""

from __future__ import annotations

import hashlib
import inspect
import multiprocessing
import os
import selectors
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from checks.outcome import BoundaryError, ForeignError, ForeignNotImplemented
from checks.registry import Implementation
from runner.learner.limits import WorkerLimits
from runner.learner import codec
from runner.learner.worker import FRAME, serve

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


class _Server:
    """The multiprocessing context workers are forked from, started on first use."""

    _context: Any = None

    @classmethod
    def context(cls) -> Any:
        if cls._context is None:
            methods = multiprocessing.get_all_start_methods()
            method = "forkserver" if "forkserver" in methods else "spawn"
            ctx = multiprocessing.get_context(method)
            if method == "forkserver":
                ctx.set_forkserver_preload(["runner.learner.worker"])
            cls._context = ctx
        return cls._context

    @classmethod
    def start(cls, target: Any, args: tuple[Any, ...]) -> Any:
        ctx = cls.context()
        saved = {k: os.environ.get(k) for k in SINGLE_THREADED}
        os.environ.update(SINGLE_THREADED)  # the server (and so every worker) inherits these
        try:
            process = ctx.Process(target=target, args=args, daemon=True)
            process.start()
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
        return process


@dataclass
class ClaimCapture:
    """What one claim's calls left behind: the learner's printed output, trimmed."""

    output: str = ""
    dropped: int = 0  # characters beyond the kept part


@dataclass
class LoadFailure:
    """Why the learner's file could not be used at all (the run exits 2)."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


class LearnerSession:
    """One learner's file, loaded in a worker, for as many claims as the run has."""

    def __init__(self, path: Path, subjects: list[str], limits: WorkerLimits) -> None:
        self.path = path
        self.subjects = subjects
        self.limits = limits
        self.size = path.stat().st_size
        self.sha256 = (
            hashlib.sha256(path.read_bytes()).hexdigest() if self.size <= MAX_IMPL_BYTES else ""
        )
        self.signatures: dict[str, inspect.Signature] = {}
        self.load_output = ""
        self.deadline = 0.0
        self.capture = ClaimCapture()
        self._process: Any = None
        self._fds: tuple[int, int, int] | None = None  # request (write), reply, output (read)
        self._buffer = bytearray()
        self._loaded_once = False

    # -- life ---------------------------------------------------------------------------
    def open(self) -> LoadFailure | None:
        """Start the worker and import the file once; the reason when that fails."""
        if self.size > MAX_IMPL_BYTES:
            return LoadFailure("load.too_large", {"bytes": self.size, "limit": MAX_IMPL_BYTES})
        self.deadline = time.monotonic() + self.limits.timeout_s
        try:
            reply = self._start()
        except BoundaryError as exc:
            return LoadFailure(exc.code, dict(exc.params))
        self.load_output, self.capture = self.capture.output, ClaimCapture()
        if reply.get("status") == "raised":
            return LoadFailure(
                "load.raised",
                {
                    "error": reply.get("type"),
                    "message": reply.get("message"),
                    "line": reply.get("line"),
                },
            )
        self._loaded_once = True
        return None

    def _start(self) -> dict[str, Any]:
        self.close()
        request_r, request_w = os.pipe()
        reply_r, reply_w = os.pipe()
        output_r, output_w = os.pipe()
        args = (
            Connection(request_r),
            Connection(reply_w),
            Connection(output_w),
            os.fspath(self.path.resolve()),
            list(self.subjects),
            self.limits.rlimits(),
        )
        try:
            self._process = _Server.start(_serve_connections, args)
        finally:
            for conn in args[:3]:
                conn.close()  # type: ignore[union-attr]
        for fd in (request_w, reply_r, output_r):
            os.set_blocking(fd, False)
        self._fds = (request_w, reply_r, output_r)
        self._buffer.clear()
        reply = self._receive("(import)")
        if reply.get("status") == "loaded":
            self.signatures = _signatures(reply.get("signatures"), self.subjects)
        elif reply.get("status") != "raised":
            self.kill()
            raise BoundaryError("boundary.garbled", {"function": "(import)"})
        return reply

    def close(self) -> None:
        """Stop the worker. It holds nothing worth a graceful exit, so it is killed."""
        self.kill()

    def kill(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            if process.pid is not None:
                for kill in (os.killpg, os.kill):
                    try:
                        kill(process.pid, signal.SIGKILL)
                    except (ProcessLookupError, PermissionError):
                        pass
            process.join(timeout=5)
        fds, self._fds = self._fds, None
        for fd in fds or ():
            try:
                os.close(fd)
            except OSError:
                pass

    def __enter__(self) -> LearnerSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- claims -------------------------------------------------------------------------
    def begin_claim(self) -> None:
        self.deadline = time.monotonic() + self.limits.timeout_s
        self.capture = ClaimCapture()

    def end_claim(self) -> ClaimCapture:
        capture, self.capture = self.capture, ClaimCapture()
        return capture

    def implementation(self) -> Implementation:
        functions = {
            name: RemoteFunction(self, name, signature)
            for name, signature in self.signatures.items()
        }
        return Implementation(
            kind="learner",
            name=self.path.name,
            functions=functions,
            sha256=self.sha256,
            source=str(self.path),
        )

    # -- calls --------------------------------------------------------------------------
    def call(
        self, name: str, args: tuple[Any, ...], kwargs: Mapping[str, Any], measure: bool
    ) -> tuple[Any, int | None]:
        if self._process is None:  # killed after an earlier claim failed: start afresh
            if time.monotonic() >= self.deadline:
                raise BoundaryError("boundary.timeout", self._timeout_params(name))
            reply = self._start()
            if reply.get("status") != "loaded":
                raise BoundaryError("boundary.reload", {"function": name})
        try:
            request = codec.encode(
                {"name": name, "args": list(args), "kwargs": dict(kwargs), "measure": measure}
            )
        except codec.CodecError as exc:  # our own inputs: a bug in a check, not the learner's
            raise TypeError(f"cannot send the inputs of {name}(): {exc}") from None
        self._write(request, name)
        reply = self._receive(name)
        status = reply.get("status")
        if status == "returned":
            peak = reply.get("peak_bytes")
            return reply.get("value"), peak if type(peak) is int and peak >= 0 else None
        if status == "raised":
            error, names = str(reply.get("type")), reply.get("names")
            line = reply.get("line") if type(reply.get("line")) is int else None
            if error == "NotImplementedError":
                raise ForeignNotImplemented(name, line)
            raise ForeignError(
                name,
                error,
                str(reply.get("message") or ""),
                tuple(str(n) for n in names) if isinstance(names, list) else (error,),
                line,
            )
        if status == "unplain":
            where = str(reply.get("where") or "")
            code = "boundary.unplain_at" if where else "boundary.unplain"
            raise BoundaryError(
                code, {"function": name, "what": str(reply.get("what")), "at": where}
            )
        self.kill()
        raise BoundaryError("boundary.garbled", {"function": name})

    def _timeout_params(self, name: str) -> dict[str, Any]:
        return {"function": name, "seconds": self.limits.timeout_s}

    def _write(self, data: bytes, name: str = "") -> None:
        assert self._fds is not None
        fd = self._fds[0]
        view = memoryview(FRAME.pack(len(data)) + data)
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_WRITE)
            sel.register(self._fds[2], selectors.EVENT_READ)
            while view:
                remaining = self.deadline - time.monotonic()
                if remaining <= 0:
                    self.kill()
                    raise BoundaryError("boundary.timeout", self._timeout_params(name))
                for key, _ in sel.select(remaining):
                    if key.fd == self._fds[2]:
                        self._drain_output()
                    else:
                        try:
                            view = view[os.write(fd, view) :]
                        except BlockingIOError:
                            pass
                        except OSError:  # the worker is gone
                            self._died(name)

    def _receive(self, name: str) -> dict[str, Any]:
        """The next framed reply, decoded; BoundaryError for anything else."""
        assert self._fds is not None
        limit = self.limits.result_mib * 2**20
        _, reply_fd, output_fd = self._fds
        with selectors.DefaultSelector() as sel:
            sel.register(reply_fd, selectors.EVENT_READ)
            sel.register(output_fd, selectors.EVENT_READ)
            while True:
                if len(self._buffer) >= FRAME.size:
                    size = FRAME.unpack_from(self._buffer)[0]
                    if size > limit:
                        self.kill()
                        raise BoundaryError(
                            "boundary.too_large",
                            {"function": name, "bytes": size, "limit": limit},
                        )
                    if len(self._buffer) >= FRAME.size + size:
                        message = bytes(self._buffer[FRAME.size : FRAME.size + size])
                        del self._buffer[: FRAME.size + size]
                        self._drain_output()
                        return self._decode(message, name, limit)
                remaining = self.deadline - time.monotonic()
                if remaining <= 0:
                    self.kill()
                    raise BoundaryError("boundary.timeout", self._timeout_params(name))
                for key, _ in sel.select(remaining):
                    if key.fd == output_fd:
                        self._drain_output()
                        continue
                    try:
                        chunk = os.read(reply_fd, 1 << 20)
                    except BlockingIOError:
                        continue
                    if not chunk:
                        self._died(name)
                    self._buffer += chunk

    def _decode(self, message: bytes, name: str, limit: int) -> dict[str, Any]:
        try:
            reply = codec.decode(message, codec.Limits(max_bytes=limit))
        except codec.CodecError as exc:
            self.kill()
            raise BoundaryError("boundary.garbled", {"function": name, "what": str(exc)}) from None
        if not isinstance(reply, dict):
            self.kill()
            raise BoundaryError("boundary.garbled", {"function": name})
        return reply

    def _died(self, name: str) -> None:
        process = self._process
        if process is not None:
            process.join(timeout=2)
        code = process.exitcode if process is not None else None
        self.kill()
        if code is not None and code < 0:
            raise BoundaryError(
                "boundary.signal", {"function": name, "signal": _signal_name(-code)}
            )
        raise BoundaryError("boundary.exited", {"function": name, "code": code})

    def _drain_output(self) -> None:
        if self._fds is None:
            return
        keep = self.limits.output_chars
        while True:
            try:
                chunk = os.read(self._fds[2], 1 << 16)
            except (BlockingIOError, OSError):
                return
            if not chunk:
                return
            text = chunk.decode("utf-8", "replace")
            room = max(0, keep - len(self.capture.output))
            self.capture.output += text[:room]
            self.capture.dropped += len(text) - min(room, len(text))


class RemoteFunction:
    """A learner's function, seen from a check: call it, or call it and measure its memory."""

    def __init__(self, session: LearnerSession, name: str, signature: inspect.Signature) -> None:
        self.session = session
        self.__name__ = name
        self.__signature__ = signature

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.session.call(self.__name__, args, kwargs, measure=False)[0]

    def measured(self, *args: Any, **kwargs: Any) -> tuple[Any, int | None]:
        return self.session.call(self.__name__, args, kwargs, measure=True)

    def __repr__(self) -> str:
        return f"<learner function {self.__name__}>"


def _serve_connections(
    request: Connection,
    reply: Connection,
    output: Connection,
    path: str,
    subjects: list[str],
    limits: dict[str, int],
) -> None:
    """The worker's entry point: the pipes arrive as Connections (so the fork server can
    pass them) and are used as raw file descriptors."""
    serve(request.fileno(), reply.fileno(), output.fileno(), path, subjects, limits)


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
        except (ValueError, TypeError, IndexError):
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
