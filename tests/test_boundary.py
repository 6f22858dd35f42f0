"""The worker boundary, tried the way a hostile learner's file would (issue 11).

Each file in ``tests/learners/hostile/`` is a learner's file that does one bad thing: exits,
hangs, crashes, prints without end, patches the judge, returns something that is not plain
data, tampers with the worker's pipes, reaches for the judge's process. Most import every
other function from ``reference_impl`` (the reference scaffold) and replace
``logits_memory_bytes``, which only ``tokenizer.logits-memory`` calls: they are handed in as a
learner with a helper module hands them in, a folder of their own holding the file and
``reference_impl.py`` (see :func:`submission`). Every one is judged through the command line
in ``tmp_path``, and must get the verdict its functions deserve (exit 0 only when every claim
truly passes, 1 otherwise, 2 when the file cannot be loaded), with no traceback, JSON that
parses, nothing of the learner's on the runner's own output, the error naming the function
and the type, no evidence under the reference's name, and evidence of sane size. No test here
depends on how fast the machine is: limits are CPU time, and the wall-clock backstop is only
met by calls that sleep or block.

The attacks on the grader's files, processes and hidden claims, as root and as an ordinary
user, are in tests/test_sandbox.py.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from runner.cli import main
from tests.conftest import MODULE, ROOT, VERSION, deep_folder, quick_module

MODULE_ID = "23-design-tradeoffs"
HOSTILE = ROOT / "tests" / "learners" / "hostile"
LOGITS = "tokenizer.logits-memory"  # the chapter's claim that calls logits_memory_bytes
# ... and the claim judging it whole, on its whole signature (it breaks with any wrong answer)
LOGITS_CONTRACT = "contract.logits-memory-bytes"
TIMEOUT = 2.0  # --timeout of every run here: CPU seconds, once per claim a loop touches
# --wall-timeout of runs whose learner sleeps or blocks (it uses no CPU, so whatever the
# machine's load, the backstop is what stops it); every other run keeps the default backstop
SLEEPS = ("--wall-timeout", "1")
SLEEPERS = {"call_sleep.py", "call_blocking_read.py", "import_sleep.py", "import_blocking_read.py"}
MAX_EVIDENCE_BYTES = 1_000_000
AS_ROOT = os.geteuid() == 0 if hasattr(os, "geteuid") else False


CALLS = {LOGITS: "logits_memory_bytes"}


@functools.cache
def pack_claims() -> dict[str, tuple[str, ...]]:
    """Every claim of the module, and the chapter functions its check calls."""
    from runner.api import load_claims
    from tests.conftest import REGISTRY

    (pack,) = load_claims([MODULE])
    return {
        c.claim.id: REGISTRY.resolve_check(c.claim.check).needs_of(c.claim.inputs)
        for c in pack.claims
    }


def claims_calling(function: str) -> set[str]:
    return {claim for claim, needs in pack_claims().items() if function in needs}


N_CLAIMS = len(pack_claims())


@functools.cache
def scaffold_reference() -> str:
    """The reference scaffold: every one of the chapter's functions, right."""
    out = io.StringIO()
    with redirect_stdout(out):
        code = main(["scaffold", MODULE_ID, "--reference", "--claims", str(MODULE), "--lang", "en"])
    assert code == 0
    return out.getvalue()


@pytest.fixture
def reference_source() -> str:
    return scaffold_reference()


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def learner_dir(work: Path, reference_source: str) -> Path:
    """A directory of learners' files with ``reference_impl.py`` beside them, readable by the
    worker even when it runs as a user of its own."""
    folder = work / "learners"
    folder.mkdir(exist_ok=True)
    folder.chmod(0o755)
    (folder / "reference_impl.py").write_text(reference_source, encoding="utf-8")
    return folder


def hostile(work: Path, reference_source: str, name: str) -> Path:
    folder = learner_dir(work, reference_source)
    path = folder / name
    shutil.copyfile(HOSTILE / name, path)
    return path


@dataclass
class Judged:
    code: int
    payload: dict[str, Any]
    err: str
    seconds: float
    evidence: list[Path]

    @property
    def claims(self) -> dict[str, dict[str, Any]]:
        return {c["id"]: c for m in self.payload.get("results", []) for c in m["claims"]}

    def statuses(self) -> dict[str, str]:
        return {i: c["status"] for i, c in self.claims.items()}

    def others(self, claim_id: str = LOGITS) -> set[str]:
        """The statuses of every claim that does not call the function ``claim_id`` calls."""
        touched = claims_calling(CALLS[claim_id])
        return {s for i, s in self.statuses().items() if i not in touched}


def sleeping(name: str) -> tuple[str, ...]:
    """A short wall-clock backstop for a file that sleeps or blocks (it uses no CPU, so the
    backstop is what stops it however busy the machine is), and only the claim it sleeps in:
    every other claim keeps the default backstop, which a busy machine cannot reach."""
    if name not in SLEEPERS:
        return ()
    return (*SLEEPS, "-k", LOGITS) if name.startswith("call_") else SLEEPS


def submission(path: Path) -> tuple[Path, list[str]]:
    """A learner's file that imports ``reference_impl`` (a helper module beside it), handed
    in the way a learner with helper modules hands it in: a folder of its own holding the
    file and the modules beside it, the file as its entry (``--entry``). Anything else (a
    file that imports nothing of its own, a directory, a link, a pipe) is handed in as it is."""
    try:
        text = path.read_text(encoding="utf-8") if path.is_file() else ""
    except (OSError, UnicodeDecodeError):
        text = ""
    if path.is_symlink() or "from reference_impl import" not in text:
        return path, []
    folder = path.parent.parent / "submissions" / path.stem
    folder.mkdir(parents=True, exist_ok=True)
    for module in path.parent.glob("*.py"):
        if module == path or "from reference_impl import" not in module.read_text("utf-8"):
            shutil.copyfile(module, folder / module.name)
    return folder, ["--entry", path.name]


def shown_name(path: Path) -> str:
    """How a submission is named in messages and evidence: ``x.py``, or ``x/x.py``."""
    folder, _ = submission(path) if path.exists() or path.is_symlink() else (path, [])
    return f"{path.stem}/{path.name}" if folder != path else path.name


def judge(cli: Any, work: Path, path: Path, *extra: str, whole: bool = False) -> Judged:
    """``run claims --impl PATH --format json`` in-process; what a grader would see. On the
    quick module (the claim a hostile file breaks, claims before and after it) unless
    ``whole``: what a boundary does around one claim does not need 65 claims to show."""
    start = time.monotonic()
    handed, entry = submission(path)
    module = MODULE if whole else quick_module()
    result = cli(
        "run", str(module), "--impl", str(handed), *entry, "--out", str(work / "ev"),
        "--timeout", str(TIMEOUT), "--format", "json", "--lang", "en", *extra,
    )  # fmt: skip
    seconds = time.monotonic() - start
    payload = json.loads(result.out)  # JSON that parses, whatever the file did
    assert payload["exit_code"] == result.code
    evidence = sorted((work / "ev").glob("*.json")) if (work / "ev").exists() else []
    return Judged(result.code, payload, result.err, seconds, evidence)


def assert_sane(judged: Judged, stem: str | None) -> None:
    """No traceback, nothing under the reference's name, small evidence."""
    assert judged.err == ""
    names = [p.name for p in judged.evidence]
    assert f"{MODULE_ID}-v{VERSION}.json" not in names
    assert "module-manifest-v1.json" not in names
    if stem is None:
        assert names == []
        return
    assert names == [f"{MODULE_ID}-v{VERSION}.{stem}.json"]
    size = judged.evidence[0].stat().st_size
    assert size < MAX_EVIDENCE_BYTES
    doc = json.loads(judged.evidence[0].read_text(encoding="utf-8"))
    assert doc["implementation"]["kind"] == "learner"
    assert doc["implementation"]["name"] in (f"{stem}.py", f"{stem}/{stem}.py")


# -- files that cannot be loaded: exit 2 -------------------------------------------------------
LOAD_FAILURES = {
    "import_sys_exit.py": (
        "load.raised", r"^import_sys_exit\.py:\d+: SystemExit while importing"),
    "import_os_exit.py": ("load.exited", r"exited while the file was imported \(exit code 0\)"),
    "import_raise_systemexit.py": ("load.raised", r"SystemExit while importing the file: 3$"),
    "import_keyboardinterrupt.py": ("load.raised", r":\d+: KeyboardInterrupt while importing"),
    "import_baseexception.py": ("load.raised", r":\d+: Boom while importing the file: not an"),
    "import_infinite_loop.py": (
        "load.timeout", r"importing the file took longer than 2 s of CPU time"),
    "import_sleep.py": ("load.stalled", r"importing the file waited 1 s without finishing"),
    "import_blocking_read.py": ("load.stalled", r"importing the file waited 1 s without finishing"),
    "import_segfault.py": ("load.signal", r"killed by SIGSEGV while the file was imported"),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(LOAD_FAILURES))
def test_a_file_whose_import_exits_hangs_or_crashes_exits_2(cli, work, reference_source, name):
    code, message = LOAD_FAILURES[name]

    judged = judge(cli, work, hostile(work, reference_source, name), *sleeping(name))

    assert judged.code == 2
    assert judged.payload["results"] == []
    assert judged.payload["load_failure"]["code"] == code
    assert re.search(message, judged.payload["load_failure"]["message"])
    assert_sane(judged, stem=None)


def test_the_import_time_limit_is_paid_once(cli, work, reference_source):
    """A file whose import loops is stopped once, at import: no claim is tried (each would
    pay the limit again)."""
    judged = judge(cli, work, hostile(work, reference_source, "import_infinite_loop.py"))

    assert judged.payload["load_failure"]["code"] == "load.timeout"
    assert judged.payload["results"] == []


def unloadable(work: Path, reference_source: str, kind: str) -> Path:
    """Files that are not Python a worker could import, made here (they are not committed:
    the repository's linters read every .py file)."""
    folder = learner_dir(work, reference_source)
    path = folder / f"{kind}.py"
    if kind == "syntax_error":
        path.write_text('"""A syntax error on line 3."""\n\ndef f(:\n    pass\n', encoding="utf-8")
    elif kind == "not_utf8":
        path.write_bytes(b'"""Latin-1 bytes, no encoding declared."""\n\nNAME = "\xe9t\xe9"\n')
    elif kind == "too_large":
        path.write_text(reference_source + "#" * 2_000_000 + "\n", encoding="utf-8")
    elif kind == "directory":
        path.mkdir()
    elif kind == "dev_zero":
        path.symlink_to("/dev/zero")
    elif kind == "classmate_link":  # a class folder's entry naming a classmate's file
        (path.parent / "classmate_own.py").write_text(reference_source, encoding="utf-8")
        path.symlink_to(path.parent / "classmate_own.py")
    elif kind == "fifo":
        os.mkfifo(path)
    return path


UNLOADABLE = {
    "syntax_error": ("load.raised", r"^syntax_error\.py:3: SyntaxError while importing the file"),
    "not_utf8": ("load.raised", r"^not_utf8\.py:\d+: SyntaxError while importing the file"),
    "too_large": ("load.too_large", r"^too_large\.py: 2,\d{3},\d{3} bytes; the limit is 1,000,000"),
    "dev_zero": ("load.link", r"^dev_zero\.py: a symbolic link; .* no link is followed$"),
    "classmate_link": ("load.link", r"^classmate_link\.py: a symbolic link"),
    "fifo": ("load.not_a_file", r"^fifo\.py: not a regular file$"),
}


@pytest.mark.parametrize("kind", sorted(UNLOADABLE))
def test_a_file_that_is_not_importable_python_exits_2(cli, work, reference_source, kind):
    code, message = UNLOADABLE[kind]

    judged = judge(cli, work, unloadable(work, reference_source, kind))

    assert judged.code == 2
    assert judged.payload["load_failure"]["code"] == code
    assert re.search(message, judged.payload["load_failure"]["message"])
    assert_sane(judged, stem=None)


def test_a_directory_named_like_a_python_file_is_a_class_with_no_files(cli, work):
    """``--impl x.py`` naming a directory asks for a class (every *.py in it); with none,
    one line and exit 2 (with --format json, that line as JSON on stdout). (A directory
    ``x.py`` inside a class is that class's row: see tests/test_class_runs.py.)"""
    (work / "x.py").mkdir()

    result = cli("run", str(MODULE), "--impl", "x.py", "--format", "json", "--lang", "en")

    assert result.code == 2
    assert json.loads(result.out)["error"]["code"] == "use.no_learner_files"
    assert result.err == "error: no learner files (*.py) to judge\n"


def test_no_worker_at_all_is_a_load_failure_not_a_traceback(
    cli, work, reference_source, monkeypatch
):
    """When no process can be started (the user's process limit, a dead fork server), the
    run says so in one line and exits 2."""
    from runner.learner import session

    def refuse(cls: type, target: Any, args: Any) -> Any:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(session._Server, "start", classmethod(refuse))

    judged = judge(cli, work, hostile(work, reference_source, "return_numpy_scalar.py"))

    assert judged.code == 2
    assert judged.payload["load_failure"]["message"] == (  # handed in as a folder: its entry
        "return_numpy_scalar/return_numpy_scalar.py: no worker could be started to import the file: "
        "BlockingIOError: [Errno 11] Resource temporarily unavailable"
    )
    assert_sane(judged, stem=None)


def test_an_empty_file_skips_every_claim(cli, work, reference_source):
    path = learner_dir(work, reference_source) / "empty.py"
    path.write_text("", encoding="utf-8")

    judged = judge(cli, work, path, whole=True)

    assert judged.code == 1
    assert set(judged.statuses().values()) == {"skipped"}
    assert len(judged.claims) == N_CLAIMS
    assert_sane(judged, stem="empty")


# -- a function that misbehaves: its claim errors, every other claim passes --------------------
# file -> (the reason's code, what the message says: the function, and what went wrong)
CALL_ERRORS = {
    "call_sys_exit.py": ("claim.learner_raised", r"logits_memory_bytes\(\) raised SystemExit: 0"),
    "call_keyboardinterrupt.py": ("claim.learner_raised", r"raised KeyboardInterrupt"),
    "call_baseexception.py": ("claim.learner_raised", r"raised Boom: not an Exception"),
    "call_os_exit.py": ("boundary.exited", r"exited while logits_memory_bytes\(\) ran \(exit code"),
    "call_infinite_loop.py": (
        "boundary.timeout",
        r"^logits_memory_bytes\(\) timed out: .* 2 s of CPU time",
    ),
    "call_sleep.py": ("boundary.stalled", r"^logits_memory_bytes\(\) waited 1 s without finishing"),
    "call_blocking_read.py": (
        "boundary.stalled",
        r"^logits_memory_bytes\(\) waited 1 s without finishing",
    ),
    "call_segfault.py": ("boundary.signal", r"killed by SIGSEGV while logits_memory_bytes\(\) ran"),
    "call_memory.py": ("claim.learner_raised", r"logits_memory_bytes\(\) raised MemoryError"),
    "call_garbage_fds.py": ("boundary.garbled", r"of logits_memory_bytes\(\) sent back data"),
    "return_float_subclass.py": ("boundary.unplain", r"returned a Liar \(a subclass of float\)"),
    "return_complex.py": ("boundary.unplain", r"logits_memory_bytes\(\) returned a complex;"),
    "return_decimal.py": ("boundary.unplain", r"returned a decimal\.Decimal;"),
    "return_fraction.py": ("boundary.unplain", r"returned a fractions\.Fraction;"),
    "return_set.py": ("boundary.unplain", r"logits_memory_bytes\(\) returned a set;"),
    "return_bytes.py": ("boundary.unplain", r"logits_memory_bytes\(\) returned a bytes;"),
    "return_generator.py": ("boundary.unplain", r"logits_memory_bytes\(\) returned a generator;"),
    "return_raising_object.py": ("boundary.unplain", r"logits_memory_bytes\(\) returned a Trap;"),
    "return_object_array.py": ("boundary.unplain", r"returned an array of dtype object;"),
    "return_complex_array.py": ("boundary.unplain", r"returned an array of dtype complex128;"),
    "return_datetime_array.py": ("boundary.unplain", r"an array of dtype datetime64\[D\];"),
    "return_structured_array.py": ("boundary.unplain", r"returned an array of dtype \[\('bytes'"),
    "return_huge_int.py": ("boundary.unplain", r"returned an integer with over 4,000 digits;"),
    "return_string.py": ("boundary.unplain", r"logits_memory_bytes\(\) returned a str;"),
    "return_deep_list.py": ("boundary.unplain_at", r"returned a value nested more than 32 levels"),
    "return_too_large.py": ("boundary.unplain", r"returned a value of more than 2,097,152 numbers"),
}


# judged on the whole pack: the worker dies in one claim, and every claim after it, of every
# function, passes with the worker started afresh (the others show it on the quick module)
WHOLE_PACK = {"call_os_exit.py", "call_segfault.py"}


@pytest.mark.parametrize("name", sorted(CALL_ERRORS))
def test_a_misbehaving_function_errors_its_claim_only(cli, work, reference_source, name, capfd):
    code, message = CALL_ERRORS[name]

    whole = name in WHOLE_PACK
    judged = judge(cli, work, hostile(work, reference_source, name), *sleeping(name), whole=whole)

    assert judged.code == 1
    claim = judged.claims[LOGITS]
    assert (claim["status"], claim["reason"]["code"]) == ("error", code)
    assert re.search(message, claim["message"]), claim["message"]
    if name not in SLEEPERS:  # (those run their one claim: a 1 s backstop fits no other)
        assert judged.others() == {"passed"}
    assert_sane(judged, stem=None if name in SLEEPERS else name.removesuffix(".py"))
    assert capfd.readouterr() == ("", "")  # nothing reached the runner's own streams


@pytest.mark.parametrize("name", ["call_recursion.py", "call_close_fds.py"])
def test_a_function_that_recurses_or_closes_the_pipes_errors_its_claim(
    cli, work, reference_source, name
):
    """How they fail depends on the machine (memory, or the time limit first; the worker's
    exit, or the pipe closing first); that the claim errors, naming the function, does not."""
    judged = judge(cli, work, hostile(work, reference_source, name))

    assert judged.code == 1
    claim = judged.claims[LOGITS]
    assert claim["status"] == "error"
    assert "logits_memory_bytes()" in claim["message"]
    assert judged.others() == {"passed"}
    assert_sane(judged, stem=name.removesuffix(".py"))


@pytest.mark.parametrize(
    "name",
    [
        "return_big_list.py",
        "return_big_array.py",
        "return_nan.py",
        "return_inf.py",
        "return_none.py",
    ],
)
def test_huge_or_non_finite_answers_never_pass_and_keep_evidence_small(
    cli, work, reference_source, name
):
    """A million numbers cross (they are plain data, within the limits); the check wanted
    three integers, so the claim is an error. NaN and infinity never pass: they reach the
    measure, which fails; nor does a function that forgot to return (None crosses: it is
    what the function returned, and no count)."""
    judged = judge(cli, work, hostile(work, reference_source, name))

    assert judged.code == 1
    non_finite = name in ("return_nan.py", "return_inf.py")
    assert judged.claims[LOGITS]["status"] == ("failed" if non_finite else "error")
    assert judged.others() == {"passed"}
    assert_sane(judged, stem=name.removesuffix(".py"))


def test_patching_the_judge_numpy_and_builtins_changes_no_verdict(cli, work, reference_source):
    judged = judge(cli, work, hostile(work, reference_source, "patch_judge.py"), whole=True)

    assert judged.code == 1
    assert judged.claims[LOGITS]["status"] == "failed"
    verdicts = {m["name"]: m["verdict"] for m in judged.claims[LOGITS]["measurements"]}
    assert verdicts["bytes"] == "failed"
    # the learner's own chain_rule_nll refuses a joint that does not sum to 1 with
    # np.isclose, which the file patched in its worker: its function changed, the judge not
    others = {i: s for i, s in judged.statuses().items() if i not in claims_calling(CALLS[LOGITS])}
    assert {i for i, s in others.items() if s != "passed"} == {"contract.chain-rule-nll"}
    assert_sane(judged, stem="patch_judge")


def test_a_file_relabelling_itself_as_the_reference_writes_learner_evidence_only(
    cli, work, reference_source
):
    ev = work / "ev"
    ev.mkdir()
    reference = ev / f"{MODULE_ID}-v{VERSION}.json"
    manifest = ev / "module-manifest-v1.json"
    shutil.copyfile(ROOT / "evidence" / reference.name, reference)
    shutil.copyfile(ROOT / "evidence" / manifest.name, manifest)
    before = (reference.read_bytes(), manifest.read_bytes())

    judged = judge(cli, work, hostile(work, reference_source, "relabel_reference.py"))

    assert judged.code == 0
    assert (reference.read_bytes(), manifest.read_bytes()) == before
    written = ev / f"{MODULE_ID}-v{VERSION}.relabel_reference.json"
    doc = json.loads(written.read_text(encoding="utf-8"))
    assert doc["implementation"]["kind"] == "learner"
    assert judged.payload["implementation"]["kind"] == "learner"
    assert judged.payload["written"] == [f"ev/{written.name}"]


# -- prints are the claim's, never the runner's ------------------------------------------------
def test_printing_100_mb_in_a_function_is_kept_trimmed_with_its_claim(
    cli, work, reference_source, capfd
):
    judged = judge(cli, work, hostile(work, reference_source, "call_prints.py"))

    assert judged.code == 0
    claim = judged.claims[LOGITS]
    assert claim["output"].startswith("printed by logits_memory_bytes\n")
    assert len(claim["output"]) == 2000
    assert claim["output_dropped"] > 3 * 100_000_000 - 2000  # three calls, 100 MB each
    assert all(not c.get("output") for i, c in judged.claims.items() if i != LOGITS)
    assert capfd.readouterr() == ("", "")
    assert_sane(judged, stem="call_prints")


def test_printing_at_import_is_kept_as_the_files_own_output(cli, work, reference_source, capfd):
    judged = judge(cli, work, hostile(work, reference_source, "import_prints.py"))

    assert judged.code == 0
    assert judged.payload["load_output"].startswith("x" * 100)
    assert len(judged.payload["load_output"]) == 2000
    assert capfd.readouterr() == ("", "")


def test_terminal_escapes_from_a_learner_are_shown_not_obeyed(cli, work, reference_source):
    """What the learner's code prints, and the names and messages of what it raises, reach a
    grader's terminal: control characters come out as their escapes, never as commands."""
    path = hostile(work, reference_source, "call_terminal_escapes.py")

    judged = judge(cli, work, path)
    handed, entry = submission(path)
    text = cli("run", str(quick_module()), "--impl", str(handed), *entry, "--timeout", str(TIMEOUT), "-v",
               "--out", str(work / "ev"), "--lang", "en")  # fmt: skip

    claim = judged.claims[LOGITS]
    assert claim["status"] == "error"
    assert claim["message"].endswith("raised \\x1b[32mOK\\x1b[0m: passed")  # its last line
    assert claim["output"] == "\\x1b[2J\\x1b[H25 passed, 0 failed\\r\\x1b[8m\n"
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", text.out)
    assert "\\x1b[2J\\x1b[H25 passed" in text.out


def test_a_surrogate_or_a_bidi_override_in_what_a_learner_raises_stops_nothing(
    cli, work, reference_source
):
    """A lone surrogate cannot be written as UTF-8 and a right-to-left override reorders a
    terminal line: both come out as their escapes (which say what they were), the claim is an
    error, everything is written."""
    path = hostile(work, reference_source, "raise_surrogate.py")

    judged = judge(cli, work, path, "--junit-xml", str(work / "j.xml"))
    handed, entry = submission(path)
    text = cli("run", str(quick_module()), "--impl", str(handed), *entry, "--lang", "zh",
               "--out", str(work / "ev"))  # fmt: skip

    claim = judged.claims[LOGITS]
    assert judged.code == text.code == 1
    assert claim["status"] == "error"
    assert claim["message"].endswith("raised Bad\\u202eError: bad \\ud800 \\u202e deliaf")
    assert judged.others() == {"passed"}
    assert_sane(judged, stem="raise_surrogate")
    (work / "j.xml").read_text(encoding="utf-8")  # written, and UTF-8
    assert "\u202e" not in text.out and "Bad\\u202eError" in text.out


def test_a_file_name_with_newlines_stays_on_its_row_of_a_class(cli, work, reference_source):
    """A learner's file named like another row of the summary cannot forge that row."""
    folder = learner_dir(work, reference_source)
    forged = folder / "zz.py  0 points\n  bob.py  999 points · 99 passed, 0 failed\n  x\u202e.py"
    forged.write_text(reference_source, encoding="utf-8")

    result = cli("run", str(MODULE), "--impl", str(forged), "--impl", str(folder / "reference_impl.py"),
                 "-k", "tokenizer.logits-memory", "--lang", "en", "--out", str(work / "ev"))  # fmt: skip

    rows = [line for line in result.out.splitlines() if line.startswith("  ")]
    assert len(rows) == 2, result.out
    assert not any(line.lstrip().startswith("bob.py") for line in result.out.splitlines())
    assert "\u202e" not in result.out


@pytest.mark.parametrize("name", ["cost_reset_peak.py", "cost_in_mmap.py", "cost_stop_tracing.py"])
def test_a_learner_cannot_hide_memory_from_the_cost_claims(cli, work, reference_source, name):
    """A (T, T) matrix hidden from the measured peak (the peak reset, the tracing stopped,
    the matrix in an anonymous mmap) is still caught by the averaging cost claim, and only
    by the claims that measure memory."""
    path = hostile(work, reference_source, name)

    judged = judge(cli, work, path, "-k", "structure.averaging-cost", whole=True)

    assert judged.code == 1
    assert judged.statuses() == {"structure.averaging-cost": "failed"}


def test_a_file_name_made_of_escapes_is_shown_not_obeyed(cli, work, reference_source):
    path = learner_dir(work, reference_source) / "\x1b[2J\rfake.py"
    path.write_text("import sys\n\nsys.exit(0)\n", encoding="utf-8")

    result = cli("run", str(MODULE), "--impl", str(path), "--lang", "en")

    assert result.code == 2
    assert result.out.startswith("\\x1b[2J\\rfake.py:3: SystemExit while importing the file")
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f]", result.out + result.err)


def test_learner_output_never_reaches_the_runners_stdout_in_a_real_process(work, reference_source):
    """The same through a real process: its stdout is exactly one JSON document."""
    path, entry = submission(hostile(work, reference_source, "call_prints.py"))
    result = subprocess.run(
        [sys.executable, "-m", "runner", "run", str(MODULE), "--impl", str(path), *entry, "--out", "ev",
         "--format", "json", "--lang", "en"],
        capture_output=True, timeout=120, cwd=work, env=_environment(),
    )  # fmt: skip

    assert result.returncode == 0
    assert json.loads(result.stdout)["exit_code"] == 0
    assert result.stderr == b""


@pytest.mark.parametrize("as_class", [False, True], ids=["one-file", "class"])
@pytest.mark.parametrize(
    ("signal_name", "code"), [("SIGTERM", 143), ("SIGINT", 130)], ids=["sigterm", "ctrl-c"]
)
def test_sigterm_stops_the_run_and_every_process_a_learner_started(
    work, reference_source, as_class, signal_name, code
):
    """SIGTERM (what `timeout` and CI runners send, to the run) stops a run as Ctrl-C (to
    the run's whole process group, judges included, as a terminal sends it) does: one line,
    exit 143 or 130, the learners' workers and the processes they started in process groups
    of their own killed, no temporary file left beside the JUnit report."""
    marker = f"{time.time_ns() % 10**6}.{os.getpid()}"  # this test's own sleeping process
    folder = learner_dir(work, reference_source)
    source = (
        "import subprocess, time\nfrom reference_impl import *  # noqa: F403\n\n\n"
        "def sequence_support_log10(vocab, length):\n"
        # a process group of its own (a session is denied: see test_sandbox)
        f"    subprocess.Popen(['sleep', '{marker}'], process_group=0)\n"
        "    time.sleep(60)\n"
    )
    for name in ("a", "b") if as_class else ("a",):  # folder submissions: theirs, and the helper
        (folder / name).mkdir()
        (folder / name / "my_impl.py").write_text(source, encoding="utf-8")
        shutil.copyfile(folder / "reference_impl.py", folder / name / "reference_impl.py")
    impl = ["--impl", "a", "--impl", "b", "--jobs", "2"] if as_class else ["--impl", "a"]
    command = [sys.executable, "-m", "runner", "run", str(MODULE), "-k", "support.gpt2-vocab-1000-ctx",
               *impl, "--out", str(work / "ev"), "--junit-xml", str(work / "j" / "r.xml"),
               "--lang", "en"]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=folder, env=_environment(), stderr=subprocess.PIPE,
        start_new_session=True,  # a process group of its own, as a terminal's job is
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # Ctrl-C live
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while not _sleepers(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _sleepers(marker), "the learner's code never ran"

    if signal_name == "SIGINT":
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)

    assert process.returncode == code
    assert err.decode().splitlines() == [
        "interrupted; files listed as written are complete, and none is half-written"
    ]
    deadline = time.monotonic() + 10
    while _sleepers(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _sleepers(marker) == []
    assert not list((work / "j").glob(".*.tmp")) if (work / "j").exists() else True


def test_a_signal_while_the_streams_are_put_back_is_acted_on_once_they_are():
    """The fork server is started with the judge's streams on /dev/null. A SIGTERM that
    landed while they were being put back cut that short: the "interrupted" line went to
    /dev/null, and the run ended 143 with nothing said (about 1 in 50 SIGTERMs 0.26 s into
    a learner's run). It is acted on once all is back."""
    from runner.learner import session
    from tests.conftest import in_a_fork

    def child() -> None:
        original = os.readlink("/proc/self/fd/2")
        seen: list[str] = []

        def terminated(signum: int, frame: object) -> None:
            seen.append(os.readlink("/proc/self/fd/2"))
            raise RuntimeError("terminated")

        signal.signal(signal.SIGTERM, terminated)
        real, calls = os.dup2, []

        def dup2(fd: int, fd2: int, inheritable: bool = True) -> int:
            real(fd, fd2, inheritable)
            calls.append(fd2)
            if len(calls) == 4:  # stdin is back, stdout and stderr are not yet
                signal.raise_signal(signal.SIGTERM)
            return fd2

        os.dup2 = dup2
        try:
            with session._bare_process():
                pass
        except RuntimeError:
            pass
        finally:
            os.dup2 = real
        os.write(2, b"said" if seen == [original] else b"lost")
        os._exit(0)

    assert in_a_fork(child) == (0, b"said")


def _sleepers(marker: str) -> list[str]:
    found = subprocess.run(["pgrep", "-f", f"sleep {marker}"], capture_output=True, text=True)
    return found.stdout.split()


# -- the worker's pipes and processes ----------------------------------------------------------
def test_reading_the_protocols_pipes_changes_nothing(cli, work, reference_source):
    judged = judge(cli, work, hostile(work, reference_source, "call_read_fds.py"))

    assert (judged.code, set(judged.statuses().values())) == (0, {"passed"})
    assert_sane(judged, stem="call_read_fds")


def test_killing_its_parent_costs_at_most_that_claim(cli, work, reference_source):
    """In namespaces of its own, the worker's parent is process 1 of its namespace, which
    ignores the signals of the processes inside (the function then answers right). Without
    them, its parent is the fork server: as root it cannot signal it, as an ordinary user it
    can kill it and dies with it (its parent-death signal): that claim errs, the judge starts
    another server for the next."""
    judged = judge(cli, work, hostile(work, reference_source, "call_kill_parent.py"))
    again = judge(cli, work, hostile(work, reference_source, "call_os_exit.py"))

    namespaced = not judged.payload["sandbox"]["missing"] or AS_ROOT
    assert judged.claims[LOGITS]["status"] in (("passed",) if namespaced else ("error", "passed"))
    assert judged.others() == {"passed"}
    assert again.others() == {"passed"}  # later workers still start


def test_a_child_the_function_forked_is_killed_with_the_worker(cli, work, reference_source):
    judged = judge(cli, work, hostile(work, reference_source, "call_fork_child.py"))

    assert judged.code == 0
    names = re.findall(r"child (lrn\w+)", judged.claims[LOGITS]["output"])
    assert len(names) == 3  # one per call, each a process named so (pids are its namespace's)
    assert all(_gone_by_name(name) for name in names)


def test_a_grandchild_that_left_the_process_group_is_killed(cli, work, reference_source):
    judged = judge(cli, work, hostile(work, reference_source, "call_fork_escape.py"))

    assert judged.code == 0
    names = re.findall(r"grandchild (lrn\w+)", judged.claims[LOGITS]["output"])
    assert len(names) == 3
    assert all(_gone_by_name(name) for name in names)


@pytest.mark.parametrize("namespaces", [True, False], ids=["namespaces", "no-namespaces"])
@pytest.mark.parametrize("drop_root", [True, False], ids=["own-user-if-root", "same-user"])
def test_descendants_are_killed_by_user_or_by_descent(
    work, reference_source, drop_root, namespaces
):
    """Every way of finding what a worker started: its process namespace (its process 1
    ends, the kernel kills the rest), its own user id (a root judge), and descent (the
    worker is a child subreaper: an orphan of its children is still its own)."""
    from runner import api
    from runner.learner.session import WorkerLimits

    handed, entry = submission(hostile(work, reference_source, "call_fork_escape.py"))
    limits = WorkerLimits(timeout_s=TIMEOUT, drop_root=drop_root, namespaces=namespaces)
    options = api.RunOptions(pattern=LOGITS, limits=limits)

    run = api.run_packs(api.load_claims([MODULE]), api.LearnerFile(handed, entry[1]), options)

    (result,) = run.results
    names = re.findall(r"grandchild (lrn\w+)", result.output or "")
    assert result.status == "passed" and len(names) == 3
    assert all(_gone_by_name(name) for name in names)


@pytest.mark.skipif(not AS_ROOT, reason="a worker that keeps root's user id needs a root judge")
def test_a_worker_kept_as_root_has_no_capability_left(work, reference_source):
    """A root judge asked to keep root's user id for its workers (``drop_root=False``)
    keeps the id, not root's capabilities: with them, the learner's code opened the memory
    of its namespace's process 1, which runs no system call filter, for writing (an attack
    round, 2026-12-07)."""
    from runner import api
    from runner.learner.session import WorkerLimits

    handed, entry = submission(hostile(work, reference_source, "call_init_memory.py"))
    limits = WorkerLimits(timeout_s=TIMEOUT, drop_root=False)
    options = api.RunOptions(pattern=LOGITS, limits=limits)

    run = api.run_packs(api.load_claims([MODULE]), api.LearnerFile(handed, entry[1]), options)

    (result,) = run.results
    assert result.status == "passed", result.reason
    assert run.sandbox is not None and run.sandbox["isolation"] == "root"
    assert "init memory: Permission denied; capabilities 0000000000000000" in (result.output or "")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="capped where /proc counts")
def test_a_fork_bomb_is_capped_and_killed(cli, work, reference_source):
    """64 processes beyond what the worker's user runs (its own user id as root), then
    fork fails; all of them are killed with the worker. The bomb's processes carry a name
    of this test's own (their comm), so workers of other tests running beside it do not
    count."""
    name = f"lrn{os.urandom(5).hex()}"
    path = hostile(work, reference_source, "call_fork_bomb.py")
    path.write_text(path.read_text(encoding="utf-8").replace("lrnBOMB", name), encoding="utf-8")
    judged = judge(cli, work, path)

    assert judged.code == 1
    assert judged.claims[LOGITS]["reason"]["code"] == "boundary.timeout"
    assert judged.others() == {"passed"}, {
        i: c.get("message") for i, c in judged.claims.items() if c["status"] != "passed"
    }
    assert _gone_by_name(name)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a parent-death signal is Linux's")
def test_a_judge_that_dies_takes_its_workers_with_it(work, reference_source):
    """However the judge ends (here SIGKILL, while the learner's code loops), its fork server
    ends, and every worker with it; the next run removes the working directory it left."""
    path, entry = submission(hostile(work, reference_source, "call_infinite_loop.py"))
    judge_process = subprocess.Popen(
        [sys.executable, "-m", "runner", "run", str(MODULE), "--impl", str(path), *entry, "--out", "ev",
         "--timeout", "60", "-k", LOGITS],
        cwd=work, env=_environment(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        looping: list[int] = []
        # busy: 10 ticks (0.1 s of CPU) in 0.5 s, a fifth of a core, which a worker gets
        # even beside two CPU hogs per core
        while not looping and time.monotonic() < deadline:
            before = {p: _cpu_ticks(p) for p in _descendants(judge_process.pid)}
            time.sleep(0.5)
            looping = [p for p, ticks in before.items() if _cpu_ticks(p) - ticks >= 10]
        assert looping, "the worker never started looping"
        pattern = f"learn-llm-worker-{judge_process.pid}-*"
        workdirs = list(Path(tempfile.gettempdir()).glob(pattern))
    finally:
        judge_process.kill()
        judge_process.wait()

    assert all(_gone(pid) for pid in looping)
    assert workdirs and all(d.exists() for d in workdirs)  # nobody was left to remove them
    from runner.learner.session import remove_orphaned_workdirs

    remove_orphaned_workdirs()
    assert not any(d.exists() for d in workdirs)


def test_the_worker_cannot_read_or_write_the_judges_process(work, reference_source):
    """Run in a real process with a secret in its environment: the worker sees neither the
    secret nor the judge's output, memory or environment (the judge and the fork server are
    not dumpable, and start workers with a bare environment). As root it cannot signal the
    judge either."""
    path, entry = submission(hostile(work, reference_source, "call_spy.py"))
    env = _environment(GRADER_TOKEN="s3cret-token")
    result = subprocess.run(
        [sys.executable, "-m", "runner", "run", str(MODULE), "--impl", str(path), *entry, "--out", "ev",
         "--format", "json", "--lang", "en"],
        capture_output=True, timeout=120, cwd=work, env=env,
    )  # fmt: skip

    payload = json.loads(result.stdout)
    assert result.returncode == 0
    output = next(c for m in payload["results"] for c in m["claims"] if c["id"] == LOGITS)["output"]
    assert "OPENED" not in output
    assert "CAN SIGNAL" not in output
    assert "INJECTED" not in result.stdout.decode() + result.stderr.decode()
    assert "s3cret-token" not in json.dumps(payload)
    assert re.search(r"/proc/\d+/fd/1: (PermissionError|FileNotFoundError)", output)
    if AS_ROOT:
        assert re.match(r"uid 2\d{9} ", output)  # a user id of its own


def test_the_worker_cannot_write_the_evidence_directory(cli, work, reference_source):
    """In namespaces of its own the folder is not there at all; without them, as root, the
    worker's own user id cannot write it (tests/test_sandbox.py tries both, and an ordinary
    user's)."""
    ev = work / "ev"
    ev.mkdir()
    target = ev / f"{MODULE_ID}-v{VERSION}.json"
    path = learner_dir(work, reference_source) / "forger.py"
    path.write_text(
        "from reference_impl import *  # noqa: F403\n\n\n"
        "def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):\n"
        f"    with open({str(target)!r}, 'w') as fh:\n"
        "        fh.write('{}')\n"
        "    from reference_impl import logits_memory_bytes as right\n\n"
        "    return right(batch, length, vocab, bytes_per_value)\n",
        encoding="utf-8",
    )

    judged = judge(cli, work, path)

    assert judged.claims[LOGITS]["status"] == "error"
    assert re.search(r"raised (PermissionError|FileNotFoundError|OSError)",
                     judged.claims[LOGITS]["message"])  # fmt: skip
    assert not target.exists()


def test_the_worker_holds_none_of_the_judges_code(cli, work, reference_source):
    """What a learner's code finds already imported in its worker: NumPy, not the runner,
    the registry or the checks (the worker's own code keeps what it holds, out of reach of
    ``sys.modules``)."""
    path = learner_dir(work, reference_source) / "modules.py"
    path.write_text(
        "import sys\n\n\n"
        "def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):\n"
        "    print(sorted(m for m in sys.modules if m.split('.')[0] in ('runner', 'checks')))\n"
        "    from reference_impl import logits_memory_bytes as right\n\n"
        "    return right(batch, length, vocab, bytes_per_value)\n",
        encoding="utf-8",
    )

    judged = judge(cli, work, path)

    printed = judged.claims[LOGITS]["output"].splitlines()[0]
    assert printed == "[]"


BORROWING = {
    "import": "from checks.reference.memory import logits_memory_bytes\n",
    "import-submodule": "import checks.reference\n",
    "importlib": "import importlib\nimportlib.import_module('runner.judge')\n",
    "by-path": "import sys\nsys.path.insert(0, {root!r})\nimport checks.reference\n",
    # a learner who removes the worker's guard and imports the reference anyway: the
    # function's code is the course's file, refused at load
    "guard-removed": (
        "import sys\n"
        "sys.meta_path[:] = [f for f in sys.meta_path if 'Judge' not in type(f).__name__]\n"
        "sys.path.append({root!r})\n"
        "from checks.reference.memory import logits_memory_bytes\n"
    ),
    "guard-removed-wrapped": (
        "import functools, sys\n"
        "sys.meta_path[:] = [f for f in sys.meta_path if 'Judge' not in type(f).__name__]\n"
        "sys.path.append({root!r})\n"
        "from checks.reference import memory\n"
        "logits_memory_bytes = functools.wraps(memory.logits_memory_bytes)("
        "lambda *a, **k: memory.logits_memory_bytes(*a, **k))\n"
    ),
}


def test_a_learners_own_module_named_like_ours_is_theirs(cli, work, reference_source):
    """A helper module of the learner's called runner.py is theirs to import."""
    folder = learner_dir(work, reference_source)
    (folder / "runner.py").write_text("FACTOR = 4\n", encoding="utf-8")
    path = folder / "own_runner.py"
    path.write_text(
        "from reference_impl import *  # noqa: F403\nimport runner\n\n\n"
        "def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):\n"
        "    return batch * length * vocab * bytes_per_value * runner.FACTOR // 4\n",
        encoding="utf-8",
    )

    judged = judge(cli, work, path)

    assert judged.claims[LOGITS]["status"] == "passed"


@pytest.mark.parametrize("how", sorted(BORROWING))
def test_a_file_that_hands_in_the_courses_own_code_is_refused(cli, work, reference_source, how):
    """The reference is the answer: a file that imports it (or the judge) cannot be used,
    and the reason says so (nothing is judged, no evidence written)."""
    path = learner_dir(work, reference_source) / f"borrow_{how.replace('-', '_')}.py"
    path.write_text(
        "from reference_impl import *  # noqa: F403\n" + BORROWING[how].format(root=str(ROOT)),
        encoding="utf-8",
    )

    judged = judge(cli, work, path)

    assert judged.code == 2
    # refused as the course's own code, or not even there to import (the worker's root)
    failure = judged.payload["load_failure"]
    if failure["code"] == "load.course_code":
        assert "the course's own code: a learner's file may not use it" in failure["message"]
    else:
        assert failure["code"] == "load.raised", failure
        assert "No module named 'checks'" in failure["message"], failure
    assert_sane(judged, stem=None)


def test_a_refused_import_of_the_courses_code_is_said_in_the_readers_language(
    cli, work, reference_source
):
    """The worker refused `import runner` with an English ImportError, which a Chinese run
    (terminal, Gradescope) printed as it was (a pack written from the docs found it)."""
    path = work / "imports_runner.py"
    path.write_text(reference_source + "\nimport runner.api\n", encoding="utf-8")
    line = len((reference_source + "\n").splitlines()) + 1

    claims = str(ROOT / "claims")
    done = cli("run", claims, "--impl", str(path), "--out", str(work / "ev"), "--lang", "zh", "-q")

    assert done.code == 2, done.out + done.err
    said = (done.out + done.err).splitlines()
    assert any(
        f"imports_runner.py:{line}：文件导入了 runner，这是课程自己的代码，学习者的文件不能使用它"
        in said_line
        for said_line in said
    ), said
    assert not any("course's own code" in said_line for said_line in said), said


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_the_fork_server_and_the_judge_are_not_dumpable(reference_source, tmp_path):
    """What keeps other processes of the user out of the judge's and the fork server's
    memory, descriptors and environment (root passes that check anyway: see the spy test)."""
    import ctypes

    from runner.learner.session import LearnerSession, WorkerLimits

    path = tmp_path / "reference_impl.py"
    path.write_text(reference_source, encoding="utf-8")
    with LearnerSession(path, ["logits_memory_bytes"], WorkerLimits(timeout_s=TIMEOUT)) as s:
        assert s.open() is None
        assert s.server_dumpable == 0
    assert ctypes.CDLL(None).prctl(3, 0, 0, 0, 0) == 0  # PR_GET_DUMPABLE of this judge


@pytest.mark.skipif(not hasattr(fcntl, "F_GETPIPE_SZ"), reason="pipe sizes are Linux's")
def test_a_workers_request_and_reply_pipes_hold_a_mebibyte(reference_source, tmp_path):
    """An 8 MiB array crosses in eight writes, not 128 (each wakes the other side)."""
    from runner.learner.session import PIPE_BYTES, LearnerSession, WorkerLimits

    path = tmp_path / "reference_impl.py"
    path.write_text(reference_source, encoding="utf-8")
    with LearnerSession(path, ["logits_memory_bytes"], WorkerLimits(timeout_s=TIMEOUT)) as s:
        assert s.open() is None
        assert s._fds is not None
        request, reply, _ = s._fds
        limit = int(Path("/proc/sys/fs/pipe-max-size").read_text())
        for fd in (request, reply):
            assert fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ) == min(PIPE_BYTES, limit)


def test_large_and_small_answers_in_one_batch_arrive_whole_and_in_order(reference_source, tmp_path):
    """Replies larger than the pipe (read straight into their message) between small ones
    (read together, then parted): each case's answer is its own, byte for byte."""
    from checks.reference.attention import causal_masked_attention
    from runner.learner.session import LearnerSession, WorkerLimits

    path = tmp_path / "reference_impl.py"
    path.write_text(reference_source, encoding="utf-8")
    rng = np.random.default_rng(7)
    sizes = [3, 1024, 1, 2, 700, 5, 1024, 4]  # (T, T) scores: 8 MiB, 3.7 MiB, and tiny ones
    cases = [((rng.standard_normal((t, t)),), {}) for t in sizes]
    with LearnerSession(path, ["causal_masked_attention"], WorkerLimits(timeout_s=TIMEOUT)) as s:
        assert s.open() is None
        values, error = s.call_each("causal_masked_attention", cases)
        single = s.call("causal_masked_attention", cases[1][0], {}, measure=True).value

    assert error is None and len(values) == len(cases)
    for (args, _), value in zip(cases, values, strict=True):
        assert np.array_equal(value, causal_masked_attention(*args))
    assert np.array_equal(single, causal_masked_attention(*cases[1][0]))


def test_a_numpy_scalar_is_plain_data(cli, work, reference_source):
    judged = judge(cli, work, hostile(work, reference_source, "return_numpy_scalar.py"))

    assert (judged.code, set(judged.statuses().values())) == (0, {"passed"})


def test_every_hostile_fixture_is_judged_here():
    """A fixture added to tests/learners/hostile/ without a test is a case nobody checks."""
    tested = set(LOAD_FAILURES) | set(CALL_ERRORS) | {
        "call_recursion.py", "call_close_fds.py", "return_big_list.py", "return_big_array.py",
        "return_nan.py", "return_inf.py", "return_none.py", "patch_judge.py",
        "relabel_reference.py",
        "call_prints.py", "import_prints.py", "call_read_fds.py", "call_kill_parent.py",
        "call_fork_child.py", "call_fork_escape.py", "call_fork_bomb.py", "call_spy.py",
        "call_terminal_escapes.py", "raise_surrogate.py",
        "cost_reset_peak.py", "cost_in_mmap.py", "cost_stop_tracing.py",
        "return_numpy_scalar.py", "call_oom_score.py", "call_init_memory.py",
    }  # fmt: skip
    assert {p.name for p in HOSTILE.glob("*.py")} == tested


# -- helpers -----------------------------------------------------------------------------------
def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env.update(LEARN_LLM_LANG="en", PYTHONPATH=str(ROOT), **extra)
    return env


def _gone(pid: int, wait_s: float = 5.0) -> bool:
    """Whether ``pid`` no longer runs (a zombie waiting for init to reap it is dead)."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/stat", encoding="utf-8") as fh:
                state = fh.read().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False


def _gone_by_name(name: str, wait_s: float = 5.0) -> bool:
    """Whether no live process is named ``name`` (its comm; a zombie is dead)."""
    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        alive = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                comm = Path(f"/proc/{entry}/comm").read_text(encoding="utf-8").strip()
                state = Path(f"/proc/{entry}/stat").read_text(encoding="utf-8")
            except OSError:
                continue
            if comm == name and state.rsplit(")", 1)[1].split()[0] not in ("Z", "X"):
                alive.append(entry)
        if not alive:
            return True
        time.sleep(0.05)
    return False


def _descendants(root: int) -> list[int]:
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text(encoding="utf-8")
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, frontier = [], [root]
    while frontier:
        children = [p for p, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def _cpu_ticks(pid: int) -> int:
    """User time the process has spent, in clock ticks (a busy loop piles them up)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return 0
    return int(stat.rsplit(")", 1)[1].split()[11])


def test_inputs_too_large_for_the_worker_are_the_judges_error_and_the_worker_lives_on(
    reference_source, tmp_path
):
    """A check that sends more than the worker accepts is refused before it is sent (a
    TypeError of the judge's, not the learner's crash), and the next call is answered."""
    from runner.learner import codec
    from runner.learner.session import LearnerSession, WorkerLimits

    path = tmp_path / "reference_impl.py"
    path.write_text(reference_source, encoding="utf-8")
    with LearnerSession(path, ["logits_memory_bytes"], WorkerLimits(timeout_s=TIMEOUT)) as s:
        assert s.open() is None
        too_many = [0] * (codec.REQUEST.max_elements + 1)
        with pytest.raises(TypeError, match="cannot send the inputs of logits_memory_bytes"):
            s.call("logits_memory_bytes", (too_many, 1, 1), {}, measure=False)
        # as many numbers as allowed, at 8 bytes each, and some text: over the byte limit
        too_big = (np.zeros(codec.REQUEST.max_elements - 10), 1, 1)
        with pytest.raises(TypeError, match="over the limit"):
            s.call("logits_memory_bytes", too_big, {"note": "x" * 4096}, measure=False)
        assert s.call("logits_memory_bytes", (1, 2, 3), {}, measure=False).value == 24


def test_the_out_of_memory_killer_takes_a_worker_first(cli, work, reference_source):
    """The memory limit binds each process, so many processes of a learner could together
    exhaust the machine: the kernel must then kill the learner's worker, not the judge or a
    classmate's. Its oom_score_adj is the highest, and a worker that dropped root cannot
    lower it."""
    judged = judge(cli, work, hostile(work, reference_source, "call_oom_score.py"))
    assert judged.code == 0, judged.payload
    output = judged.claims[LOGITS]["output"]
    assert output.startswith("oom_score_adj 1000; lowering: "), output
    if judged.payload["sandbox"]["isolation"] in ("own-user", "nobody"):
        assert "LOWERED" not in output and output.endswith("now 1000\n"), output


DENIED_PROBE = """
import ctypes, mmap, os, threading

def i386_call(number):
    # mov eax, edi; int 0x80; ret: an i386 system call, which a 64-bit process may make
    page = mmap.mmap(-1, 4096, prot=7)
    page.write(bytes.fromhex("89f8cd80c3"))
    address = ctypes.addressof(ctypes.c_char.from_buffer(page))
    return ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_uint32)(address)(number)

def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    libc = ctypes.CDLL(None, use_errno=True)
    out = {}
    calls = {
        "unshare_user": lambda: libc.unshare(0x10000000 | 0x00020000),  # then mount a tmpfs
        "clone_user": lambda: libc.syscall(56, 0x10000000 | 17, 0, 0, 0, 0),
        "shmget": lambda: libc.syscall(29, 0, 1 << 20, 0o1600),
        "msgget": lambda: libc.syscall(68, 0, 0o1600),
        "mount": lambda: libc.mount(b"none", b"/tmp", b"tmpfs", 0, None),
        "add_key": lambda: libc.syscall(248, b"user", b"k", b"v", ctypes.c_size_t(1), -4),
        "keyctl": lambda: libc.syscall(250, 0, -4, 0, 0),  # KEYCTL_GET_KEYRING_ID of @u
        "ptrace": lambda: libc.syscall(101, 0, 0, 0, 0),  # PTRACE_TRACEME
        "x32_keyctl": lambda: libc.syscall(0x40000000 + 250, 0, -4, 0, 0),
    }
    for name, call in calls.items():
        out[name] = ctypes.get_errno() if call() < 0 else 0
    try:
        os.close(os.memfd_create("held"))
        out["memfd_create"] = 0
    except OSError as exc:
        out["memfd_create"] = exc.errno
    import socket
    for name, make in (("socket", lambda: socket.socket(socket.AF_UNIX)),
                       ("socketpair", socket.socketpair)):
        try:
            made = make()
            for end in made if isinstance(made, tuple) else (made,):
                end.close()
            out[name] = 0
        except OSError as exc:
            out[name] = exc.errno
    import fcntl
    shared = open(os.__file__, "rb")  # the standard library: every worker may read it
    for name, lock in (("flock", lambda: fcntl.flock(shared, fcntl.LOCK_SH)),
                       ("fcntl_setlk", lambda: fcntl.lockf(shared, fcntl.LOCK_SH)),
                       ("fcntl_notify", lambda: fcntl.fcntl(os.open("/", os.O_RDONLY), 1026, 1))):
        try:
            lock()
            out[name] = 0
        except OSError as exc:
            out[name] = exc.errno
    out["fcntl_getfl_works"] = fcntl.fcntl(shared, fcntl.F_GETFL) >= 0
    shared.close()
    pid = os.fork()
    if pid == 0:  # a child of the worker may not start a session (a share of the CPU) either
        try:
            os.setsid()
            os._exit(0)
        except OSError as exc:
            os._exit(exc.errno)
    out["setsid"] = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    # the machine's state a learner's code can move and another worker read later
    sysinfo = ctypes.create_string_buffer(256)
    out["sysinfo"] = ctypes.get_errno() if libc.sysinfo(sysinfo) else 0
    try:
        os.statvfs("/")
        out["statvfs"] = 0
    except OSError as exc:
        out["statvfs"] = exc.errno
    # pages given to a pipe, held by no process (vmsplice), in a pipe of many slots
    readable, writable = os.pipe()
    try:
        fcntl.fcntl(writable, 1031, 1 << 20)  # F_SETPIPE_SZ
        out["setpipe_sz"] = 0
    except OSError as exc:
        out["setpipe_sz"] = exc.errno
    page = ctypes.create_string_buffer(4096)
    iov = (ctypes.c_void_p * 2)(ctypes.addressof(page), 4096)
    out["vmsplice"] = ctypes.get_errno() if libc.vmsplice(writable, iov, 1, 0) < 0 else 0
    os.close(readable)
    os.close(writable)
    # which pages of a file every worker reads are cached: neither dropped nor asked about
    shared = os.open(os.__file__, os.O_RDONLY)
    try:
        os.posix_fadvise(shared, 0, 0, os.POSIX_FADV_DONTNEED)
        out["fadvise"] = 0
    except OSError as exc:
        out["fadvise"] = exc.errno
    try:
        os.preadv(shared, [bytearray(16)], 0, os.RWF_NOWAIT)
        out["preadv2"] = 0
    except OSError as exc:
        out["preadv2"] = exc.errno
    os.close(shared)
    import resource
    out["open_files"] = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    out["i386_getpid"] = i386_call(20)  # -EPERM: another architecture's calls are all denied
    out["i386_memfd_create"] = i386_call(356)
    libc.syscall(435, 0, 0)  # clone3: its flags are out of the filter's sight
    out["clone3"] = ctypes.get_errno()
    # what a function may still do: threads (the C library falls back to clone) and fork
    box = []
    thread = threading.Thread(target=box.append, args=(1,))
    thread.start()
    thread.join()
    pid = os.fork()
    if pid == 0:
        os._exit(7)
    out["works"] = (box, os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
    return out
"""


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or os.uname().machine != "x86_64",
    reason="the probe's system call numbers are x86_64's",
)
def test_a_learners_code_cannot_reach_the_keyrings_memfd_or_ptrace(tmp_path):
    """A user's kernel keyring outlives the worker and is shared by every process of that
    user (a hidden claim's inputs could wait there for a later claim, a classmate or the
    next run); a memfd, System V shared memory or a tmpfs mounted in a user namespace of
    the learner's own holds memory outside RLIMIT_AS and the OOM killer's view, and so do a
    socket's buffers (an attack held 2 GiB per process in filled socketpairs). The worker
    denies these system calls (EPERM) for the learner's code and whatever it starts, under
    x86_64's numbers and under i386's (``int 0x80``), and threads and fork still work."""
    import errno as errnos

    from runner.learner.session import LearnerSession, WorkerLimits

    path = tmp_path / "probe.py"
    path.write_text(DENIED_PROBE, encoding="utf-8")
    with LearnerSession(path, ["logits_memory_bytes"], WorkerLimits(timeout_s=TIMEOUT)) as s:
        assert s.open() is None
        s.begin_claim()
        got = s.implementation()["logits_memory_bytes"](1, 1, 1)
        s.end_claim()
        assert not any(m.startswith("seccomp") for m in s.missing), s.missing
    from runner.learner.limits import OPEN_FILES

    # pipes and tmpfs files hold memory outside RLIMIT_AS too: few may be open at once
    assert got.pop("open_files") == OPEN_FILES
    assert list(got.pop("works")) == [[1], 7]
    assert got.pop("clone3") == errnos.ENOSYS
    assert got.pop("fcntl_getfl_works") is True
    assert got.pop("i386_getpid") == got.pop("i386_memfd_create") == -errnos.EPERM
    denied = ("add_key", "keyctl", "ptrace", "x32_keyctl", "memfd_create", "socket", "socketpair")
    denied += ("unshare_user", "clone_user", "shmget", "msgget", "mount")
    denied += ("flock", "fcntl_setlk", "fcntl_notify", "setsid", "sysinfo", "statvfs")
    denied += ("setpipe_sz", "vmsplice", "fadvise", "preadv2")
    assert got == dict.fromkeys(denied, errnos.EPERM), got


def test_a_workdir_thousands_of_folders_deep_is_removed_and_stops_no_judge(tmp_path, monkeypatch):
    """A learner's code can leave a chain of folders 3,000 deep in its working directory
    (where namespaces are refused, that folder is in the judge's own /tmp). shutil.rmtree
    recursed into a RecursionError (ignore_errors does not catch it): the judge ended with
    an internal error, and so did every later judge on the machine, each trying to remove
    the orphan. Removed now, links inside it never followed."""
    import tempfile

    from runner.files import remove_tree
    from runner.learner.session import WORKDIR_PREFIX, remove_orphaned_workdirs

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "kept").write_text("the grader's", encoding="utf-8")
    for name in (f"{WORKDIR_PREFIX}{dead.pid}-orphan", "mine"):
        (tmp_path / name).mkdir()
        deep_folder(tmp_path / name, 3000, "deeper", link=outside)

    try:
        remove_orphaned_workdirs()
        remove_tree(str(tmp_path / "mine"))
    finally:  # what is left would stop pytest's own clean-up (it recurses)
        for name in (f"{WORKDIR_PREFIX}{dead.pid}-orphan", "mine"):
            remove_tree(str(tmp_path / name))

    assert sorted(p.name for p in tmp_path.iterdir()) == ["outside"]
    assert (outside / "kept").read_text(encoding="utf-8") == "the grader's"


TMPFS_PROBE = """
import os

def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    made = {}
    for folder in ("/tmp", "/dev/shm"):
        n = 0
        try:
            while n < 5000:
                with open(os.path.join(folder, f"f{n}"), "w"):
                    pass
                n += 1
        except OSError as exc:
            made[folder] = (n, exc.errno)
        else:
            made[folder] = (n, 0)
    return made
"""


def test_a_workers_tmp_and_shm_hold_few_files(tmp_path):
    """Each file of a tmpfs, and its extended attributes, is kernel memory its size= does
    not count: an attack made 300,000 empty files with a 4 kB attribute each in its /tmp
    and /dev/shm and held 1.4 GiB outside --memory-mib and the OOM killer's view. Where
    the worker has namespaces of its own, each holds at most 1,024 files."""
    import errno as errnos

    from runner.learner.session import LearnerSession, WorkerLimits

    path = tmp_path / "probe.py"
    path.write_text(TMPFS_PROBE, encoding="utf-8")
    with LearnerSession(path, ["logits_memory_bytes"], WorkerLimits(timeout_s=TIMEOUT)) as s:
        assert s.open() is None
        if not s._in_namespaces():
            pytest.skip(f"no namespaces here ({s.missing}): the worker's /tmp is the host's")
        s.begin_claim()
        got = s.implementation()["logits_memory_bytes"](1, 1, 1)
        s.end_claim()
    for folder in ("/tmp", "/dev/shm"):
        made, errno = got[folder]
        assert 900 <= made < 1024 and errno == errnos.ENOSPC, (folder, made, errno)


PROC_PROBE = """
import os


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    names = sorted(os.listdir("/proc"))  # (answers hold numbers only)
    out = {"uid": os.getuid(), "proc": [int(n) if n.isdigit() else len(n) for n in names]}
    for name in ("stat", "loadavg", "meminfo", "sys/fs/file-nr", "self/status"):
        try:
            with open("/proc/" + name, "rb") as fh:
                fh.read()
            out[name] = 0
        except OSError as exc:
            out[name] = exc.errno
    return out
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="namespaces are Linux's")
def test_a_workers_proc_shows_its_own_processes_only_and_its_user_id_says_nothing(tmp_path):
    """An attack round: a learner's code pushed the machine's count of processes ever
    started (/proc/stat) to a hidden claim's input, and a classmate judged after it read
    it there and printed it in a visible claim; the worker's user id, 2,000,000,000 + its
    process id, told the same count. The worker's /proc holds its own processes only, and
    its user id is drawn at random."""
    import errno as errnos

    from runner.learner.session import LearnerSession, WorkerLimits
    from runner.learner.worker import SANDBOX_UID_BASE

    path = tmp_path / "probe.py"
    path.write_text(PROC_PROBE, encoding="utf-8")
    seen = []
    for _ in range(2):
        with LearnerSession(path, ["logits_memory_bytes"], WorkerLimits(timeout_s=TIMEOUT)) as s:
            assert s.open() is None
            if s.isolation != "own-user" or any(m.startswith("namespaces") for m in s.missing):
                pytest.skip(f"no sandbox here: {s.isolation} {s.missing}")
            s.begin_claim()
            got = s.implementation()["logits_memory_bytes"](1, 1, 1)
            s.end_claim()
            assert got["uid"] != SANDBOX_UID_BASE + s._process.pid
            seen.append(got.pop("uid"))
        if any(m.startswith("namespaces: /proc of processes only") for m in s.missing):
            pytest.skip("a kernel before 5.8 mounts no /proc of processes only")
        gone = errnos.ENOENT
        assert got == {
            "proc": [1, 2, len("self"), len("thread-self")],
            "stat": gone, "loadavg": gone, "meminfo": gone, "sys/fs/file-nr": gone,
            "self/status": 0,
        }  # fmt: skip
    assert seen[0] != seen[1] and all(
        SANDBOX_UID_BASE <= u < SANDBOX_UID_BASE + 2**30 for u in seen
    )


MEMORY_CHILDREN = """
import os
import time


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    for _ in range(12):  # 12 x 32 MiB, each process well within --memory-mib
        if os.fork() == 0:
            held = bytearray(32 * 2**20)  # touched: resident
            time.sleep(60)
            os._exit(0)
    time.sleep(60)
    return batch * length * vocab * bytes_per_value
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="read from /proc")
def test_a_learners_processes_together_are_held_to_the_memory_limit(tmp_path):
    """--memory-mib bound each process's address space, not all of them together: an attack
    forked 62 children of 47 MB each and pushed a 1.6 GB machine out of memory, and the
    out-of-memory killer took a correct classmate's (larger) worker. The judge sums what the
    worker's processes hold as it reads their CPU time, beyond what they held before the
    learner's code ran, and stops the call past --memory-mib."""
    from runner.learner.session import LearnerSession, WorkerLimits
    from runner.pack.outcome import BoundaryError

    path = tmp_path / "children.py"
    path.write_text(MEMORY_CHILDREN, encoding="utf-8")
    limits = WorkerLimits(timeout_s=TIMEOUT, memory_mib=256)
    with LearnerSession(path, ["logits_memory_bytes"], limits) as s:
        assert s.open() is None
        s.begin_claim()
        started = time.monotonic()
        with pytest.raises(BoundaryError) as stopped:
            s.implementation()["logits_memory_bytes"](1, 1, 1)
        s.end_claim()
    assert stopped.value.code == "boundary.memory"
    assert stopped.value.params == {"function": "logits_memory_bytes", "mib": 256}
    assert time.monotonic() - started < 30  # stopped, not waited out


MEMORY_SCAN = """
import ctypes


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    # the token is never made here as one run of bytes: found as a head and its tail
    head, tail = b"JUDGES-OWN-", b"TOKEN"
    hits = 0
    with open("/proc/self/maps") as fh:
        for line in fh:
            span, perms = line.split()[:2]
            if not perms.startswith("rw"):
                continue
            low, high = (int(x, 16) for x in span.split("-"))
            data = ctypes.string_at(low, high - low)
            at = data.find(head)
            while at >= 0:
                hits += data[at + len(head) : at + len(head) + len(tail)] == tail
                at = data.find(head, at + 1)
    return hits
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc/self/maps is Linux's")
def test_the_worker_holds_nothing_of_the_judges_command_line_or_folder(tmp_path, monkeypatch):
    """multiprocessing sent each worker the judge's command line, current directory and
    import path to prepare itself with, and the worker took them on: an attack read
    `--out`, `--impl` and `--challenge` in its own memory. It is sent none of them now."""
    from runner.learner.session import LearnerSession, WorkerLimits

    token = "JUDGES-OWN-" + "TOKEN"
    folder = tmp_path / f"path-{token}"
    folder.mkdir()
    path = tmp_path / "scan.py"
    path.write_text(MEMORY_SCAN, encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["runner", "run", "--challenge", token, "--out", token])
    monkeypatch.setattr(sys, "path", [*sys.path, str(folder)])
    # (the judge's current directory is named to the worker, which covers it: see grading.md)
    with LearnerSession(path, ["logits_memory_bytes"], WorkerLimits(timeout_s=TIMEOUT)) as s:
        assert s.open() is None
        s.begin_claim()
        hits = s.implementation()["logits_memory_bytes"](1, 1, 1)
        s.end_claim()
    assert hits == 0


@pytest.mark.parametrize(
    ("chunk", "characters"),
    [(b"\xff" * 4096, 4096), ("中文".encode() * 1000, 2000), (b"ab\xe4\xb8", 3)],
)
def test_output_past_what_is_kept_is_counted_without_being_decoded(chunk, characters):
    """Attack round 17: 2 GiB of invalid UTF-8 printed in one call was decoded by the judge
    only to be dropped (9.4 s of the judge's CPU for 0.57 s of the learner's). Once the kept
    output is full, a chunk's characters are counted (a byte that continues none starts one,
    as the decoder's replacement would), and the decoder is not called."""
    from runner.learner.limits import WorkerLimits
    from runner.learner.session import ClaimCapture, LearnerSession

    class Refusing:
        def decode(self, data: bytes, final: bool = False) -> str:
            raise AssertionError("decoded past the kept output")

    session = object.__new__(LearnerSession)
    session.limits = WorkerLimits(output_chars=10)
    session.capture = ClaimCapture()
    session._decoder = Refusing()
    session._keep("0123456789")
    for _ in range(3):
        session._keep_bytes(chunk)
    assert session.capture.output == "0123456789"
    assert session.capture.dropped == 3 * characters


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_a_workers_tree_read_from_its_children_files_is_the_whole_tables():
    """A kill walks the worker's tree from its processes' ``children`` files (a few files,
    not one per process of the machine): it finds what the whole process table finds, an
    orphan adopted by a child subreaper and a process in a session of its own included."""
    from runner.learner.session import _descendants as from_table
    from runner.learner.session import _process_table, _walked

    script = textwrap.dedent("""
        import os, time, ctypes
        ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER, as the keeper is
        first = os.fork()
        if first == 0:  # a child whose own child is orphaned, then adopted by this one
            if os.fork() == 0:
                os.setsid()
                time.sleep(60)
            os._exit(0)
        os.waitpid(first, 0)
        for _ in range(2):
            if os.fork() == 0:
                if os.fork() == 0:
                    time.sleep(60)
                time.sleep(60)
        print("ready", flush=True)
        time.sleep(60)
    """)
    root = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert root.stdout is not None and root.stdout.readline() == "ready\n"
        deadline = time.monotonic() + 30
        while len(_descendants(root.pid)) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)  # the last grandchildren starting
        walked = _walked(root.pid)
        table = from_table(root.pid, _process_table(with_uid=False))
        assert walked is not None and len(walked) == 5
        assert walked == table
    finally:
        for pid in _descendants(root.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        root.kill()
        root.wait()


def test_two_learners_whose_names_show_alike_get_rows_told_apart(cli, work):
    """``a\\x01.py`` escapes to what ``a\\\\x01.py`` is as it stands: a class report named
    both learners the same (an attack round's finding). The name shown as it is keeps it;
    the escaped one is numbered."""
    from runner.text import distinct_lines

    assert distinct_lines(["a\x01.py", "a\\x01.py", "b.py"]) == [
        "a\\x01.py (2)",
        "a\\x01.py",
        "b.py",
    ]
    # a numbered name that is itself a classmate's name as it stands is numbered past it
    assert distinct_lines(["x\x1b.py", "x\\x1b.py", "x\\x1b.py (2)"]) == [
        "x\\x1b.py (3)",
        "x\\x1b.py",
        "x\\x1b.py (2)",
    ]
    folder = work / "class"
    folder.mkdir()
    for name in ("a\x01.py", "a\\x01.py"):
        (folder / name).write_text("import sys\n\nsys.exit(0)\n", encoding="utf-8")
    result = cli("run", str(MODULE), "--impl", str(folder), "--lang", "en", "-q", "--out", "ev")
    rows = [line.split("  ")[1] for line in result.out.splitlines() if "SystemExit" in line]
    assert sorted(r.rsplit("/", 1)[-1] for r in rows) == ["a\\x01.py", "a\\x01.py (2)"], rows


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_way_a_worker_is_stopped_while_importing_has_words(lang):
    """An import stopped over the learner's memory limit (five children of 600 MB each) was
    said as ``load.memory``, which had no message: the class report raised KeyError and
    every later learner of the class got no row, evidence or result (attack round 26). Each
    boundary code, met while importing, is said in each language."""
    from runner.i18n import catalog
    from runner.learner.session import _load_failure
    from runner.pack.outcome import BoundaryError

    words = catalog(lang)
    params = {"function": "f", "mib": 2048, "seconds": 20, "what": "a str", "at": "[0]"}
    params |= {"code": 1, "signal": "SIGKILL", "reason": "r", "limit": 1, "bytes": 2}
    for code in [c for c in words.entries if c.startswith("boundary.")]:
        failure = _load_failure(BoundaryError(code, params))
        said = words(failure.code, file="mallory.py", **failure.params)
        assert said.startswith("mallory.py"), (code, said)
