"""Progress of a class run (issue 19): rows as each learner is judged, a bar on a terminal,
a line per learner elsewhere, nothing with --quiet. No timing is asserted: the order of
events is (the first row is out before the last learner is judged)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from runner import api, progress
from tests.conftest import MODULE, ROOT

STUB = "def softmax_temperature(logits, temperature):\n    raise NotImplementedError\n"
K = ("-k", "temperature.table")  # one claim: the learners are judged quickly


@pytest.fixture
def klass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("a", "b", "c"):
        (folder / f"{name}.py").write_text(STUB, encoding="utf-8")
    return folder


def test_each_row_is_printed_before_the_next_learner_is_judged(cli, klass, monkeypatch):
    """The learners are judged one at a time, only when the command asks for the next: what
    stdout holds as each judging starts shows the rows came out as the learners finished."""
    seen: list[str] = []

    def one_at_a_time(packs, paths, options=None, jobs=1, claim_paths=None, entry=None):
        for path in paths:
            seen.append(sys.stdout.getvalue())  # what was printed before this one is judged
            yield path, api.run_packs(packs, api.LearnerFile(path, entry), options)

    monkeypatch.setattr(api, "run_class", one_at_a_time)

    result = cli("run", str(MODULE), "--impl", "class", *K, "--lang", "en", "--out", "ev")

    row = "  class/{}.py  0/1 points · 0 passed, 0 failed, 1 skipped"
    assert result.out.splitlines()[:4] == [
        "3 implementations:",
        row.format("a"),
        row.format("b"),
        row.format("c"),
    ]
    assert seen[0] == "3 implementations:\n"  # the header before any learner is judged
    assert seen[2] == "\n".join(result.out.splitlines()[:3]) + "\n"  # a and b before c
    assert result.err == ""  # not a terminal, and stdout carries a row per learner


def test_json_output_shows_a_line_per_learner_on_stderr_and_quiet_none(cli, klass):
    loud = cli("run", str(MODULE), "--impl", "class", *K, "--format", "json", "--lang", "en")
    quiet = cli("run", str(MODULE), "--impl", "class", *K, "--format", "json", "--quiet")

    assert loud.err.splitlines() == [
        f"[{i}/3] class/{n}.py  0/1 points · 0 passed, 0 failed, 1 skipped"
        for i, n in enumerate("abc", 1)
    ]
    assert quiet.err == ""
    assert loud.code == quiet.code == 1


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_counts_on_a_terminal_and_lines_printed_meanwhile_are_whole():
    screen, out = Terminal(), io.StringIO()

    with progress.Progress(3, "bar", "judging", stream=screen, out=out, redraw_s=0) as shown:
        for name in "abc":
            shown.out(f"row {name}")
            shown.advance(name)

    assert out.getvalue() == "row a\nrow b\nrow c\n"
    drawn = screen.getvalue()
    assert "judging" in drawn and "0/3" in drawn and "3/3" in drawn
    assert "[1/3]" not in drawn  # a bar, not lines


@pytest.mark.parametrize(
    ("quiet", "tty", "has_lines", "expected"),
    [
        (True, True, False, "off"),
        (False, True, True, "bar"),
        (False, False, True, "off"),
        (False, False, False, "lines"),
    ],
)
def test_progress_mode(quiet, tty, has_lines, expected):
    stream = Terminal() if tty else io.StringIO()
    assert progress.mode(quiet, stream, has_lines) == expected


def test_tqdm_is_imported_only_for_a_bar():
    code = (
        "import io, sys\n"
        "from runner import progress\n"
        "p = progress.Progress(2, 'lines', stream=io.StringIO())\n"
        "p.advance('a'); p.close()\n"
        "print('tqdm' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout == "False\n"
