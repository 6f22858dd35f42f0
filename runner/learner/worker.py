"""The worker: the only process where a learner's code is imported and called.

It is forked from a server that has imported NumPy once (so a learner costs a fork, not a
Python start-up), then it limits itself, imports the learner's file, says which of the
chapter's functions the file defines, and answers calls until it is told to stop or killed.
Everything it sends is plain data (:mod:`runner.learner.codec`), framed on a pipe of its own;
the judge trusts none of it.

This module imports nothing of the judge: no models, no registry, no evidence writer. Code
that runs here can only decide what its own functions return.
"""

from __future__ import annotations

import importlib.util
import inspect
import os
import resource
import struct
import sys
import traceback
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np  # noqa: F401  (imported here so the fork server holds it for every worker)

from runner.learner.codec import CodecError, decode, encode, kind_of

MODULE_NAME = "learner_impl"
FRAME = struct.Struct("<Q")  # each message: its length, then its bytes
QUIT = "$quit"


def serve(
    request_fd: int,
    reply_fd: int,
    output_fd: int,
    path: str,
    subjects: list[str],
    limits: dict[str, int],
) -> None:
    """The worker's whole life: limit, load, answer. It never returns; it exits."""
    os.setsid()  # its own process group: the judge kills it with everything it started
    _limit(limits)
    os.dup2(output_fd, 1)  # whatever the learner prints goes to the judge, beside the claim
    os.dup2(output_fd, 2)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    try:
        functions, reply = _load(path, subjects)
    except BaseException as exc:
        _send(reply_fd, _raised(exc, path, during="import"))
        os._exit(0)
    _send(reply_fd, reply)
    while True:
        try:
            call = decode(_receive(request_fd))
            name, args, kwargs = call["name"], call["args"], call["kwargs"]
            measure = call["measure"]
        except (CodecError, EOFError, OSError, KeyError, TypeError):
            os._exit(0)  # the judge is gone or said something this worker does not speak
        if name == QUIT or name not in functions:
            os._exit(0)
        _send(reply_fd, _call(functions[name], args, kwargs, measure, path))


def _limit(limits: dict[str, int]) -> None:
    for name, value in limits.items():
        which = getattr(resource, name)
        _, hard = resource.getrlimit(which)
        cap = value if hard == resource.RLIM_INFINITY else min(value, hard)
        resource.setrlimit(which, (cap, hard))


def _load(path: str, subjects: list[str]) -> tuple[dict[str, Callable[..., Any]], dict[str, Any]]:
    sys.path.insert(0, str(Path(path).parent))  # the learner's own helper modules
    spec = importlib.util.spec_from_file_location(MODULE_NAME, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{Path(path).name} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE_NAME] = module
    spec.loader.exec_module(module)
    functions: dict[str, Callable[..., Any]] = {}
    signatures: dict[str, list[list[Any]]] = {}
    for name in subjects:
        fn = getattr(module, name, None)
        if callable(fn):
            functions[name] = fn
            signatures[name] = _signature(fn)
    return functions, {"status": "loaded", "signatures": signatures}


def _signature(fn: Callable[..., Any]) -> list[list[Any]]:
    """[name, kind, has_default] per parameter, or [] when Python cannot tell."""
    try:
        params = inspect.signature(fn).parameters.values()
        return [
            [str(p.name), int(p.kind), p.default is not inspect.Parameter.empty] for p in params
        ]
    except BaseException:
        return []


def _call(
    fn: Callable[..., Any], args: Any, kwargs: Any, measure: bool, path: str
) -> dict[str, Any]:
    """Call ``fn``; with ``measure``, also the peak of memory it allocated beyond its inputs
    (NumPy reports its arrays to tracemalloc)."""
    peak = None
    try:
        if measure:
            tracemalloc.start()
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
        try:
            value = fn(*args, **kwargs)
        finally:
            if measure:
                if tracemalloc.is_tracing():  # the learner's code may have stopped it
                    peak = tracemalloc.get_traced_memory()[1] - base
                tracemalloc.stop()
    except BaseException as exc:
        return _raised(exc, path, during="call")
    reply: dict[str, Any] = {"status": "returned", "value": value}
    if measure:
        reply["peak_bytes"] = peak
    return reply


def _raised(exc: BaseException, path: str, during: str) -> dict[str, Any]:
    try:
        text = (exc.msg if isinstance(exc, SyntaxError) and exc.msg else str(exc)).strip()
    except BaseException:
        text = ""
    lines = text.splitlines()
    line = None
    target = os.path.realpath(path)
    for frame in traceback.extract_tb(exc.__traceback__):
        if os.path.realpath(frame.filename) == target:
            line = frame.lineno
    if isinstance(exc, SyntaxError) and line is None and isinstance(exc.lineno, int):
        line = exc.lineno
    return {
        "status": "raised",
        "during": during,
        "type": type(exc).__name__[:200],
        "names": [c.__name__[:200] for c in type(exc).__mro__ if c is not object][:32],
        "message": (lines[-1] if lines else "")[:1000],
        "line": line,
    }


def _send(fd: int, reply: dict[str, Any]) -> None:
    for stream in (sys.stdout, sys.stderr):  # printed before replying: it belongs to this call
        try:
            stream.flush()
        except BaseException:
            pass
    try:
        data = encode(reply)
    except CodecError as exc:
        # where inside the returned value, not inside this reply
        where = exc.where.removeprefix("['value']")
        data = encode({"status": "unplain", "what": exc.what[:300], "where": where[:300]})
    except BaseException as exc:
        data = encode(
            {"status": "unplain", "what": f"a value that raised {kind_of(exc)}", "where": ""}
        )
    view = memoryview(FRAME.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


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
