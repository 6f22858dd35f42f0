"""Progress of long work (a class judged, a batch of submissions validated), on stderr.

On a terminal it is a bar drawn by tqdm (imported only then: about 6 ms once the runner is
loaded, against 40 ms for rich's); elsewhere (a log, CI) a line per item as each finishes,
unless the output itself already has one (a row per learner, a line per submission); with
``--quiet``, nothing. The bar is drawn on stderr and cleared when the work ends; lines the
command prints meanwhile go through :meth:`Progress.out`, so the bar never garbles them.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Literal, TextIO

Mode = Literal["bar", "lines", "off"]


def mode(quiet: bool, stream: TextIO, output_has_lines: bool) -> Mode:
    """How to show progress on ``stream``: a bar on a terminal, lines where the output does
    not already give one per item, else nothing."""
    if quiet:
        return "off"
    if _isatty(stream):
        return "bar"
    return "off" if output_has_lines else "lines"


class Progress:
    """``total`` items, advanced one at a time as each finishes."""

    def __init__(
        self,
        total: int,
        how: Mode,
        label: str = "",
        stream: TextIO | None = None,
        out: TextIO | None = None,
        redraw_s: float = 0.1,  # at most this often (tqdm's own default)
    ) -> None:
        self.total, self.how, self.done = total, how, 0
        self.stream = stream or sys.stderr
        self.output = out
        self._bar: Any = None
        if how == "bar":
            from tqdm import tqdm  # the dependency only a terminal pays for

            self._bar = tqdm(
                total=total,
                desc=label,
                file=self.stream,
                leave=False,
                dynamic_ncols=True,
                mininterval=redraw_s,
                # counts and times only: no English unit words in a Chinese run
                bar_format="{desc} {bar} {n_fmt}/{total_fmt} [{elapsed}<{remaining}]",
            )

    def advance(self, text: str = "") -> None:
        """One more item finished; ``text`` says which (shown only as a line)."""
        self.done += 1
        if self._bar is not None:
            self._bar.update(1)
        elif self.how == "lines":
            # one write, the newline with it: print() writes them apart, and an interruption
            # between the two glued the "interrupted" line to this one
            self.stream.write(f"[{self.done}/{self.total}] {text}\n")
            self.stream.flush()

    def out(self, line: str) -> None:
        """Print ``line`` on stdout (the command's own output) without garbling the bar."""
        target = self.output or sys.stdout
        if self._bar is not None and _isatty(target):
            self._bar.write(line, file=target)
        else:
            print(line, file=target, flush=self._bar is not None or self.how == "lines")

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _isatty(stream: TextIO) -> bool:
    isatty: Callable[[], bool] | None = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except ValueError:  # a closed stream
        return False
