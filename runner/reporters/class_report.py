"""A class's report, built as each learner is judged, so that judging a class does not make
the judging process grow with it.

Each learner's run is rendered the moment it is judged (its row, its JSON entry, its JUnit
suites) and then let go: rows are a line each, and the JSON and JUnit parts wait in
temporary files (unlinked, so no path leads to them) until the class is done.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from typing import IO, TextIO

from runner.api import Run
from runner.exits import EXIT_OK
from runner.i18n import Catalog
from runner.reporters import json_out, junit, text


class ClassReport:
    """What a class run reports at its end, kept small: add each learner as it is judged."""

    def __init__(self, words: Catalog, *, width: int, as_json: bool, as_junit: bool) -> None:
        self.words = words
        self.width = width
        self.rows: list[str] = []  # one line per learner
        self.all_ok = True
        self.partial = False  # a learner's file loaded but some of its claims did not run
        self.missing: dict[str, None] = {}  # sandbox guarantees this machine could not give
        self._json: IO[str] | None = _spool() if as_json else None
        self._junit: IO[str] | None = _spool() if as_junit else None
        self.junit_totals = junit.Totals()

    def add(self, name: str, run: Run) -> None:
        self.rows.append(text.class_row(name, run, self.words, self.width))
        self.all_ok &= run.exit_code() == EXIT_OK
        self.partial |= run.load_failure is None and not run.complete
        self.missing.update(dict.fromkeys(run.missing))
        if self._json is not None:
            entry = json_out.class_entry(name, run, self.words)
            self._json.write(json.dumps(entry, ensure_ascii=False, allow_nan=False) + "\n")
        if self._junit is not None:
            for suite in junit.run_suites(run, self.words, label=name):
                # each part preceded by its length: its text may hold newlines
                part = junit.suite_xml(suite, self.junit_totals)
                self._junit.write(f"{len(part)}\n{part}")

    def lines(self) -> list[str]:
        """The class table: a header and a row per learner."""
        return [text.class_header(len(self.rows), self.words), *self.rows]

    def emit_json(self, out: TextIO, written: list[str], code: int, notes: list[str]) -> None:
        """The class's JSON document (``json_out.class_document``), written as it is read
        back: indented for a person at a terminal, compact for a script."""
        assert self._json is not None
        rest = {"written": written, "notes": notes, "exit_code": code}
        indent = 2 if out.isatty() else None
        self._json.seek(0)
        entries = (json.loads(line) for line in self._json)
        for part in json_out.class_document(entries, rest, indent):
            out.write(part)
        out.write("\n")

    def junit_parts(self) -> Iterator[str]:
        """Each suite's XML, in the order the learners were added."""
        assert self._junit is not None
        self._junit.seek(0)
        while header := self._junit.readline():
            yield self._junit.read(int(header))

    def close(self) -> None:
        for spool in (self._json, self._junit):
            if spool is not None:
                spool.close()


def _spool() -> IO[str]:
    # newline="": read back exactly as written (a message may hold a carriage return)
    return tempfile.TemporaryFile("w+", encoding="utf-8", newline="")


__all__ = ["ClassReport"]
