"""``python -m runner`` and the ``learn-llm-claims`` script.

Ctrl-C is held from run()'s first line: until then only what ``python -m`` has already
imported may be imported here (no ``typing``), so that the window before is the
interpreter's own start-up and nothing of the runner's.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
import types

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

PYDANTIC_LOADER = "pydantic.plugin._loader"
# The judge's NumPy works on small arrays, one claim at a time: a second BLAS thread buys no
# wall time and burns about a second of CPU per run (and two threads per process make a
# forked process a risk). Set before NumPy starts; a value the user set is kept.
ONE_THREAD = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


def _no_plugins() -> tuple[()]:
    return ()


def _without_plugin_loader() -> None:
    """With plugins disabled, pydantic's plugin loader answers no plugins, but importing it
    imports importlib.metadata (and email): 30-55 ms of every run. Stand in for it with a
    module that answers the same; any other name it is asked for comes from the real one."""
    if os.environ.get("PYDANTIC_DISABLE_PLUGINS") != "__all__" or PYDANTIC_LOADER in sys.modules:
        return
    stand_in = types.ModuleType(PYDANTIC_LOADER)

    def real(name: str) -> Any:
        if name.startswith("__"):  # the import system asking what the module is
            raise AttributeError(name)
        sys.modules.pop(PYDANTIC_LOADER, None)
        import importlib

        return getattr(importlib.import_module(PYDANTIC_LOADER), name)

    stand_in.get_plugins = _no_plugins  # type: ignore[attr-defined]
    stand_in.__getattr__ = real  # type: ignore[method-assign]
    sys.modules[PYDANTIC_LOADER] = stand_in


# Ctrl-C and SIGTERM that came while the runner was starting: runner.pools.signals_deferred
# does this for a pool's start, but importing it would import typing before anything is held
_HELD: list[int] = []


def _hold(signum: int, frame: object) -> None:
    _HELD.append(signum)


def _settled() -> None:
    """The command's code is imported and its arguments are read.

    What it has imported lives as long as the process: kept out of the collector's sight,
    it is not walked again by every full collection (about a tenth of validating 1,000
    files). Nothing was collected while it was imported: little of it is garbage, and none
    of that garbage grows.

    Ctrl-C and SIGTERM act from here on; one that came before is acted on now. Raised in
    the middle of an import, a KeyboardInterrupt can leave a module half made (pydantic_core
    then panics over a half-imported ``datetime``), and a traceback rather than a word."""
    gc.freeze()
    gc.enable()
    from runner.cli import stop_on_sigterm

    stop_on_sigterm()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for signum in dict.fromkeys(_HELD):
        signal.raise_signal(signum)


def run() -> None:
    gc.disable()  # until _settled: the imports make objects that stay
    signal.signal(signal.SIGINT, _hold)
    signal.signal(signal.SIGTERM, _hold)
    # The runner uses no pydantic plugin. Without this, building the first model class scans
    # the entry points of every installed distribution for one (~10 ms of every run); a
    # value the user set is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    for variable in ONE_THREAD:
        os.environ.setdefault(variable, "1")
    _without_plugin_loader()
    from runner.cli import main

    try:
        try:
            code = main(started=_settled)
        finally:
            _finished()
    except KeyboardInterrupt as exc:  # a second Ctrl-C while the first is said, or one as
        _finished()  # the command returned (perhaps inside _finished, before it ignored it)
        from runner.cli import interrupted

        code = interrupted(exc)
    _exit(code)


# how long the threads left at exit get to end, all together
THREADS_S = 5.0


def _exit(code: int) -> None:
    """Exit with ``code``. The interpreter waits at exit for every process pool's manager
    thread; one that a cut-short cleanup left without an end (Python 3.11's has been seen
    spinning for ever on workers already gone, after a double Ctrl-C in the first
    milliseconds of a pool) would hold the exit for ever, with the command's work done and
    said. They get a few seconds; then the process ends without them, its streams flushed
    (every file it wrote is complete: see runner.record.write)."""
    from runner.pools import live_managers  # the command has run: anything may be imported

    left = live_managers()
    if left:
        import time

        deadline = time.monotonic() + THREADS_S
        for thread in left:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
        if any(thread.is_alive() for thread in left):
            import contextlib

            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):  # a closed pipe: nothing more to say there
                    stream.flush()
            os._exit(code)
    sys.exit(code)


def _finished() -> None:
    """The command has done its work and said so: a signal from here on (a late Ctrl-C, a
    supervisor's SIGTERM while the interpreter shuts down) is ignored, and the process ends
    with the command's own exit code, not as killed by it with nothing said (-2, -15).
    Ignored, not handled: Python puts back the default action of every signal it handles
    while it shuts down, and ignoring is what it leaves in place. What is left to do then
    waits on nothing (the pools and workers are gone); SIGKILL still ends it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    _end_what_is_left()
    # CPython (3.11, 3.12) notes an interruption as unhandled when a KeyboardInterrupt leaves
    # code run from a string (the classes dataclasses and namedtuple write and exec), even
    # when a caller catches it, as the command does; at exit, `python -m` then kills itself
    # with SIGINT (-2) instead of returning the command's code. Each string exec clears that
    # note before it runs: an empty one, once no signal can raise, clears it for good.
    exec("")


def _end_what_is_left() -> None:
    """A second Ctrl-C (or a SIGTERM) that lands while the first one's cleanup runs cuts it
    short, and a learner's worker it had yet to kill lives on; multiprocessing then waits for
    it at exit, for ever. Once the command has returned, nothing it started has work left:
    every learner's worker and what it started is killed, its folder removed, and any other
    process multiprocessing would wait for is killed, now that no signal can cut this short."""
    sessions = sys.modules.get("runner.learner.session")
    try:
        if sessions is not None:
            sessions.LearnerSession.kill_all()
            sessions.LearnerSession.remove_workdirs()
        from runner.pools import let_managers_end

        let_managers_end()
        if "multiprocessing" in sys.modules:
            import multiprocessing

            left = multiprocessing.active_children()
            for child in left:
                child.kill()
            for child in left:
                child.join(timeout=5)
    except Exception:  # the command's exit code stands, whatever is left to end
        pass


if __name__ == "__main__":
    run()
