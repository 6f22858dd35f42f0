"""A class at once: ``run --impl DIR --impl FILE --jobs N`` (issue 11).

A small class, in ``tmp_path``: correct files, a wrong one, one that hangs in a function,
one that exits at import, a directory and a link to /dev/zero named like Python files, and
files whose stems collide with each other or with the reference's own evidence variants.
The class is judged once with two judging processes; every row must equal a run of that
file alone, every learner gets its own evidence, JUnit suite and Gradescope results, and a
learner that hangs or crashes (or kills the process judging it) costs only its own row.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml

from runner import api
from runner.learner.session import WorkerLimits
from tests.conftest import QUICK_FILES, ROOT, cli_in_process, in_a_fork, quick_module
from tests.test_boundary import MODULE_ID, VERSION, claims_calling, scaffold_reference

# The class is judged on the quick module with the functions' contract claims (among them
# the one any wrong byte count breaks): what a class run does with its learners' rows,
# evidence and reports does not need every claim of the chapter judged for each of them.
MODULE = quick_module((*QUICK_FILES, "13-contract.yaml"))
CLAIM_IDS = {c.claim.id for c in api.load_claims([MODULE])[0].claims}
N_CLAIMS = len(CLAIM_IDS)

TIMEOUT = "2"
WRONG = "    return batch * length * vocab * 2  # FP16 by mistake\n"
# right by the contract (exact for NumPy integers, ValueError for negative sizes): the
# scaffolded reference's own integer rule, _integer, is in the file it is appended to
RIGHT = (
    "    sizes = (batch, length, vocab)\n"
    "    b, t, v = (_integer(n, x, 0) for n, x in zip(('batch', 'length', 'vocab'), sizes))\n"
    "    return b * t * v * _integer('bytes_per_value', bytes_per_value, 1)\n"
)
SIGNATURE = "def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):\n"
# what a learner's code that would kill its judge does: walk up its ancestors to the first
# that runs pytest (a judging process is forked from the test's own), and SIGKILL it
KILL_THE_JUDGE = (
    "    import os, signal\n\n"
    "    pid = os.getppid()\n"
    "    while pid > 1:\n"
    "        with open(f'/proc/{pid}/cmdline', 'rb') as fh:\n"
    "            if b'pytest' in fh.read():\n"
    "                os.kill(pid, signal.SIGKILL)\n"
    "                break\n"
    "        with open(f'/proc/{pid}/status') as fh:\n"
    "            pid = next(int(l.split()[1]) for l in fh if l.startswith('PPid:'))\n"
)
LOGITS = "tokenizer.logits-memory"  # the chapter's claim on it; others call it too
TOUCHED = claims_calling("logits_memory_bytes") & CLAIM_IDS
# the claims a wrong byte count fails (a ratio of two counts cannot see a constant factor)
BROKEN = {LOGITS, "contract.logits-memory-bytes"}


@pytest.fixture
def reference_text() -> str:
    return scaffold_reference()


def with_logits(reference: str, body: str) -> str:
    """The reference scaffold with ``logits_memory_bytes`` replaced (defined again last)."""
    return reference + "\n\n" + SIGNATURE + body


@pytest.fixture
def klass(tmp_path: Path, reference_text: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path/class``: the class directory; ``tmp_path/late/alice.py``: a file named on
    its own whose stem collides with one in the class."""
    monkeypatch.chdir(tmp_path)
    return make_class(tmp_path, reference_text)


def make_class(tmp_path: Path, reference_text: str) -> Path:
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "alice.py").write_text(reference_text, encoding="utf-8")
    (folder / "bob.py").write_text(with_logits(reference_text, WRONG), encoding="utf-8")
    (folder / "carol.py").write_text(
        with_logits(reference_text, "    while True:\n        pass\n"), encoding="utf-8"
    )
    (folder / "dave.py").write_text("import sys\n\nsys.exit(0)\n", encoding="utf-8")
    (folder / "reference.py").write_text(reference_text, encoding="utf-8")
    (folder / "x.py").mkdir()
    (folder / "zero.py").symlink_to("/dev/zero")
    (folder / "notes.txt").write_text("not a learner\n", encoding="utf-8")
    late = tmp_path / "late"
    late.mkdir()
    (late / "alice.py").write_text(
        with_logits(reference_text, "    print('late alice')\n" + RIGHT), encoding="utf-8"
    )
    return tmp_path


ROWS = [  # file, exit code of its own run, what its row says
    ("class/alice.py", 0, "passed"),
    ("class/bob.py", 1, "failed"),
    ("class/carol.py", 1, "error"),
    ("class/dave.py", 2, "load.raised"),
    ("class/reference.py", 0, "passed"),
    ("class/x.py", 2, "load.not_a_file"),
    ("class/zero.py", 2, "load.link"),  # a link to /dev/zero: not followed
    ("late/alice.py", 0, "passed"),
]


def class_run(cli: Any, *extra: str) -> Any:
    return cli(
        "run", str(MODULE), "--impl", "class", "--impl", "late/alice.py", "--jobs", "2",
        "--timeout", TIMEOUT, "--out", "ev", "--lang", "en", *extra,
    )  # fmt: skip


@pytest.fixture(scope="module")
def judged_class(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any, Any]:
    """The class judged once, as JSON and JUnit XML at the same time, for the tests that
    only read what that run wrote: (its directory, the result, the parsed JSON)."""
    here = tmp_path_factory.mktemp("judged-class")
    make_class(here, scaffold_reference())
    PROJECT_EVIDENCE["before"] = project_evidence()
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(here)
        patch.setenv("LEARN_LLM_LANG", "en")
        result = class_run(cli_in_process(), "--format", "json", "--junit-xml", "class.xml")
    PROJECT_EVIDENCE["after"] = project_evidence()
    return here, result, json.loads(result.out)


PROJECT_EVIDENCE: dict[str, dict[str, bytes]] = {}  # the project's evidence around that run


def project_evidence() -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in (ROOT / "evidence").glob("*.json")}


def verdicts(results: list[dict[str, Any]]) -> dict[str, tuple[str, str | None]]:
    """claim id -> (status, reason code): what a class row must share with a run alone."""
    return {
        c["id"]: (c["status"], (c.get("reason") or {}).get("code"))
        for m in results
        for c in m["claims"]
    }


def test_a_class_run_judges_each_file_as_a_run_of_it_alone_would(cli, judged_class, monkeypatch):
    klass, result, payload = judged_class
    monkeypatch.chdir(klass)

    assert result.code == 1
    # stdout is one JSON document at the end: progress is a line per learner on stderr
    progress = [line.split()[:2] for line in result.err.splitlines()]
    assert progress == [[f"[{i}/{len(ROWS)}]", f] for i, (f, _, _) in enumerate(ROWS, 1)]
    assert [row["file"] for row in payload["learners"]] == [f for f, _, _ in ROWS]
    for row, (file, code, _) in zip(payload["learners"], ROWS, strict=True):
        if (klass / file).is_dir():  # alone, a directory is a class of its own (see below)
            assert row["load_failure"]["code"] == "load.not_a_file"
            continue
        alone = cli(
            "run", str(MODULE), "--impl", file, "--timeout", TIMEOUT, "--out", "solo",
            "--format", "json", "--lang", "en",
        )  # fmt: skip
        single = json.loads(alone.out)
        assert (row["exit_code"], alone.code) == (code, code), file
        assert verdicts(row["results"]) == verdicts(single["results"]), file
        assert row.get("load_failure", {}).get("code") == single.get("load_failure", {}).get("code")


def test_each_row_says_what_its_file_deserves_and_nothing_more(judged_class):
    _, _, payload = judged_class
    rows = {row["file"]: row for row in payload["learners"]}

    for file, _, what in ROWS:
        row = rows[file]
        if what.startswith("load."):
            assert row["load_failure"]["code"] == what
            assert row["results"] == []
            continue
        found = {c["id"]: c for m in row["results"] for c in m["claims"]}
        assert len(found) == N_CLAIMS
        others = {c["status"] for i, c in found.items() if i not in TOUCHED}
        assert others == {"passed"}, file  # a hang or a crash costs only its own claims
        must = TOUCHED if what == "error" else BROKEN  # a hang errs wherever it is called
        assert {found[i]["status"] for i in must} == {what}, file
    carol = {c["id"]: c for m in rows["class/carol.py"]["results"] for c in m["claims"]}
    assert carol["tokenizer.logits-memory"]["reason"]["code"] == "boundary.timeout"
    late = {c["id"]: c for m in rows["late/alice.py"]["results"] for c in m["claims"]}
    assert late["tokenizer.logits-memory"]["output"] == "late alice\n" * 3
    assert rows["class/alice.py"]["points"] == rows["class/alice.py"]["max_points"] == N_CLAIMS


def test_every_learner_gets_evidence_of_its_own_and_the_reference_none(cli, klass):
    result = class_run(cli)

    names = sorted(p.name for p in (klass / "ev").glob("*.json"))
    assert names == sorted(
        f"{MODULE_ID}-v{VERSION}.{stem}.json"
        for stem in ("alice", "alice-2", "bob", "carol", "reference-learner")
    )
    lines = result.out.splitlines()
    assert lines[0] == "8 implementations:"
    assert lines[1].split() == [
        "class/alice.py",
        f"{N_CLAIMS}/{N_CLAIMS}",
        "points",
        "·",
        str(N_CLAIMS),
        "passed,",
        "0",
        "failed",
    ]
    assert "class/dave.py" in lines[4] and "SystemExit while importing the file" in lines[4]
    assert lines[6].split()[1:] == ["x.py:", "not", "a", "regular", "file"]
    assert lines[7].split()[1:4] == ["zero.py:", "a", "symbolic"]
    for stem, name in (("alice-2", "alice.py"), ("reference-learner", "reference.py")):
        doc = json.loads((klass / "ev" / f"{MODULE_ID}-v{VERSION}.{stem}.json").read_text())
        assert doc["implementation"]["kind"] == "learner"
        assert doc["implementation"]["name"] == name


def test_junit_has_one_suite_per_learner(judged_class):
    klass, _, _ = judged_class

    root = ET.parse(klass / "class.xml").getroot()
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == [
        f"{MODULE_ID} v{VERSION} · {file}" if code != 2 else file for file, code, _ in ROWS
    ]
    by_name = {s.get("name"): s for s in suites}
    bob = by_name[f"{MODULE_ID} v{VERSION} · class/bob.py"]
    assert (bob.get("tests"), bob.get("failures"), bob.get("errors")) == (
        str(N_CLAIMS),
        str(len(BROKEN)),
        "0",
    )
    dave = by_name["class/dave.py"]
    assert (dave.get("tests"), dave.get("errors")) == ("1", "1")


def test_gradescope_results_per_learner_carry_points_and_visibility(cli, klass):
    claims = klass / "claims"
    shutil.copytree(MODULE, claims / MODULE_ID)
    card = claims / MODULE_ID / "8-tokenizer-bill.yaml"
    data = yaml.safe_load(card.read_text(encoding="utf-8"))
    data["claims"][0].update(points=5, visibility="hidden")
    card.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")

    result = cli(
        "run", str(claims), "--impl", "class", "--jobs", "2", "--timeout", TIMEOUT,
        "--out", "ev", "--gradescope-results", "gs", "--lang", "en",
    )  # fmt: skip

    assert result.code == 1, result.err
    assert "wrote gs/" in result.out.splitlines()  # the folder said once, not per learner
    files = sorted(p.name for p in (klass / "gs").iterdir())
    assert files == ["alice.json", "bob.json", "carol.json", "dave.json", "reference-learner.json",
                     "x.json", "zero.json"]  # fmt: skip
    bob = json.loads((klass / "gs" / "bob.json").read_text(encoding="utf-8"))
    assert (bob["score"], bob["max_score"]) == (N_CLAIMS - len(BROKEN), N_CLAIMS - 1 + 5)
    tests = {t["name"]: t for t in bob["tests"]}
    assert set(tests["tokenizer.logits-memory"]) >= {
        "name",
        "score",
        "max_score",
        "output",
        "visibility",
    }
    hidden = tests["tokenizer.logits-memory"]
    assert (hidden["score"], hidden["max_score"], hidden["visibility"]) == (0.0, 5, "hidden")
    assert all(t["visibility"] == "visible" for n, t in tests.items() if n != hidden["name"])
    visible_failed = len(BROKEN) - 1
    shown = bob["output"].splitlines()
    assert shown[:2] == [
        f"{N_CLAIMS - len(BROKEN)} passed, {visible_failed} failed",
        "1 more claim is graded and never shown",  # hidden: Gradescope never shows it
    ]
    # then the summary by function, of the claims shown now (not the hidden one)
    (wrong,) = [line for line in shown if line.split()[:2] == ["WRONG", "logits_memory_bytes"]]
    assert wrong.endswith("1 claim does not pass: contract.logits-memory-bytes")
    alice = json.loads((klass / "gs" / "alice.json").read_text(encoding="utf-8"))
    assert (alice["score"], alice["max_score"]) == (N_CLAIMS - 1 + 5, N_CLAIMS - 1 + 5)
    dave = json.loads((klass / "gs" / "dave.json").read_text(encoding="utf-8"))
    assert (dave["score"], dave["max_score"], len(dave["tests"])) == (
        0.0,
        N_CLAIMS - 1 + 5,
        N_CLAIMS,
    )
    assert "SystemExit while importing the file" in dave["output"]
    assert all(t["score"] == 0.0 and "SystemExit" in t["output"] for t in dave["tests"])


def test_no_learners_visible_claim_is_judged_after_any_hidden_one(cli, klass, monkeypatch):
    """A worker shares the machine with its classmates' (the page cache, machine-wide
    counters): an attack round passed a hidden claim's input, 4,242, from one learner's code
    to a classmate's visible output, the classmate judged at the same time or after. Every
    learner's visible claims are judged first, then every hidden one; each row still holds
    its claims in their order, as a run of the file alone does."""
    claims = _hidden_module(klass).parent
    phases: list[tuple[str | None, list[str]]] = []
    each_judged = api._each_judged

    def recorded(pool, paths, entry, options, packs, claim_paths):
        shown = {o.shown for o in options} if isinstance(options, list) else {options.shown}
        phases.append((*shown, [p.name for p in paths]))
        return each_judged(pool, paths, entry, options, packs, claim_paths)

    monkeypatch.setattr(api, "_each_judged", recorded)
    (folder := klass / "two").mkdir()
    for name in ("alice.py", "bob.py"):
        shutil.copy(klass / "class" / name, folder / name)
    result = cli("run", str(claims), "--impl", "two", "--jobs", "2", "--timeout", TIMEOUT,
                 "--out", "ev", "--format", "json", "--lang", "en")  # fmt: skip
    assert result.code == 1, result.err
    assert phases == [("visible", ["alice.py", "bob.py"]), ("hidden", ["alice.py", "bob.py"])]
    order = [c.claim.id for c in api.load_claims([claims / MODULE_ID])[0].claims]
    rows = json.loads(result.out)["learners"]
    for row in rows:
        ids = [r["id"] for m in row["results"] for r in m["claims"]]
        assert ids == order, row["file"]
    alone = cli("run", str(claims), "--impl", "two/bob.py", "--timeout", TIMEOUT, "--out",
                "ev-alone", "--format", "json", "--lang", "en")  # fmt: skip
    (bob,) = [r for r in rows if r["file"].endswith("bob.py")]
    got = {r["id"]: r["status"] for m in bob["results"] for r in m["claims"]}
    own = json.loads(alone.out)
    assert got == {r["id"]: r["status"] for m in own["results"] for r in m["claims"]}


def test_a_single_file_that_cannot_load_still_gets_gradescope_results(cli, klass):
    result = cli(
        "run", str(MODULE), "--impl", "class/dave.py", "--out", "ev",
        "--gradescope-results", "results.json", "--lang", "en",
    )  # fmt: skip

    assert result.code == 2
    results = json.loads((klass / "results.json").read_text(encoding="utf-8"))
    assert (results["score"], results["max_score"], len(results["tests"])) == (
        0.0,
        N_CLAIMS,
        N_CLAIMS,
    )


@pytest.mark.parametrize("jobs", ["0", "-1", "99999999999999999999", "two", "65"])
def test_jobs_out_of_range_is_one_line_and_exit_2(cli, klass, jobs):
    result = cli("run", str(MODULE), "--impl", "class", "--jobs", jobs, "--lang", "en")

    assert (result.code, result.out) == (2, "")
    assert len(result.err.splitlines()) == 1
    assert result.err.startswith("error: --jobs: ")


def test_jobs_beyond_the_files_or_cpus_are_capped(klass):
    packs = api.load_claims([MODULE])
    paths = [klass / "class" / "alice.py", klass / "class" / "bob.py"]
    options = api.RunOptions(limits=WorkerLimits(timeout_s=float(TIMEOUT)))

    rows = list(api.run_class(packs, paths, options, jobs=64))

    assert [p for p, _ in rows] == paths
    assert [r.exit_code() for _, r in rows] == [0, 1]


def test_a_learner_cannot_reach_its_judge_to_kill_it(klass, reference_text):
    """A learner's code that looks for its judge (its parent's parent) finds none: the
    worker's process namespace holds only itself, so the signal it sends reaches its own
    processes at most. Its row is judged as any other; so are the others'."""
    killer = klass / "class" / "killer.py"
    killer.write_text(with_logits(reference_text, KILL_THE_JUDGE + RIGHT), encoding="utf-8")
    packs = api.load_claims([MODULE])
    paths = [klass / "class" / n for n in ("alice.py", "killer.py", "bob.py")]
    options = api.RunOptions(limits=WorkerLimits(timeout_s=float(TIMEOUT)))

    rows = dict(api.run_class(packs, paths, options, jobs=2))

    assert all(rows[p].load_failure is None for p in paths)
    assert [rows[p].exit_code() for p in (paths[0], paths[2])] == [0, 1]


def _judge_one_dying_on_the_looper(path: Path, entry: str | None, options: api.RunOptions):
    """What a judging process does, except that it dies (SIGKILL) when given looper.py."""
    import signal

    if path.name == "looper.py":
        os.kill(os.getpid(), signal.SIGKILL)
    return _JUDGE_ONE(path, entry, options)


_JUDGE_ONE = api._judge_one


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_judge_that_dies_costs_only_its_learners_row(klass, reference_text, jobs, monkeypatch):
    """Whatever kills a judging process (a learner's code cannot reach it, the test above;
    here the judge itself dies on one file): the learners it had not finished are judged
    again, each alone, and the one it was judging gets a row saying so; the others' rows
    are what they deserve."""
    looper = klass / "class" / "looper.py"
    looper.write_text(reference_text, encoding="utf-8")
    monkeypatch.setattr(api, "_judge_one", _judge_one_dying_on_the_looper)
    packs = api.load_claims([MODULE])
    paths = [klass / "class" / n for n in ("alice.py", "looper.py", "bob.py", "reference.py")]
    options = api.RunOptions(limits=WorkerLimits(timeout_s=float(TIMEOUT)))

    rows = dict(api.run_class(packs, paths, options, jobs=jobs))

    assert rows[looper].load_failure is not None
    assert rows[looper].load_failure.code == "load.judge_died"
    assert [rows[p].exit_code() for p in paths if p != looper] == [0, 1, 0]
    assert rows[paths[2]].counts() == {
        "passed": N_CLAIMS - len(BROKEN),
        "failed": len(BROKEN),
        "error": 0,
        "skipped": 0,
    }


def test_the_evidence_directory_of_the_project_is_untouched(judged_class):
    assert PROJECT_EVIDENCE["after"] == PROJECT_EVIDENCE["before"]
    assert PROJECT_EVIDENCE["before"]  # the project's evidence was there to be touched


@pytest.mark.parametrize("seconds", ["0", "-5", "nan", "inf", "an hour"])
def test_a_learners_wall_allowance_out_of_range_is_one_line_and_exit_2(cli, klass, seconds):
    result = cli(
        "run", str(MODULE), "--impl", "class", "--learner-wall-timeout", seconds, "--lang", "en"
    )

    assert (result.code, result.out) == (2, "")
    assert len(result.err.splitlines()) == 1
    assert result.err.startswith("error: --learner-wall-timeout: ")


def test_a_judge_sent_sigterm_before_it_started_ends_at_once():
    """A class run's judges are forked with Ctrl-C and SIGTERM held: a SIGTERM that came
    before a judge set its own handlers (the pool ending it as the run is stopped) ends it
    in its initializer, with nothing said, as its own handler would have."""
    from runner import pools

    def judge_starting() -> None:
        pools._Held.signals = [signal.SIGTERM]  # noted by the handler it inherited
        api._judge_init([], None)

    assert in_a_fork(judge_starting) == (143, b"")


def test_the_learners_folders_are_among_those_no_worker_sees(tmp_path, monkeypatch):
    """A class kept below a folder workers read (the interpreter's prefix, /usr) was
    readable from every worker: an attack's learner printed its classmate's file. Each
    --impl folder, and the folder of each --impl file, is now covered like the judge's own."""
    import argparse

    from runner.cmd_run import _judges_folders

    monkeypatch.chdir(tmp_path)
    (tmp_path / "class").mkdir()
    (tmp_path / "late").mkdir()
    (tmp_path / "late" / "alice.py").write_text("", encoding="utf-8")
    args = argparse.Namespace(
        out="ev", gradescope_results=None, junit_xml=None, paths=["claims"],
        impl=["class", "late/alice.py"],
    )  # fmt: skip

    folders = _judges_folders(args)

    assert tmp_path / "class" in folders and tmp_path / "late" in folders


def test_a_learner_whose_evidence_already_records_its_run_is_said_unchanged(
    cli, tmp_path, reference_text, monkeypatch
):
    """A class judged again: the learner whose file changed gets its evidence written, the
    others were said nothing of (a pack author's report); a single run says `unchanged`."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "two").mkdir()
    for stem in ("ann", "ben"):
        (tmp_path / "two" / f"{stem}.py").write_text(reference_text, encoding="utf-8")

    def judged() -> Any:
        return cli(
            "run", str(MODULE), "--impl", "two", "--jobs", "2", "--timeout", TIMEOUT,
            "--out", "ev", "--lang", "en", "-q",
        )  # fmt: skip

    first = judged()
    (tmp_path / "two" / "ben.py").write_text(reference_text + "\n# again\n", encoding="utf-8")
    second = judged()

    assert first.code == second.code == 0
    ann, ben = (f"ev/{MODULE_ID}-v{VERSION}.{stem}.json" for stem in ("ann", "ben"))
    assert f"wrote {ann}" in first.out and f"wrote {ben}" in first.out
    assert f"wrote {ben}" in second.out and f"wrote {ann}" not in second.out
    assert f"unchanged: {ann} already records what this run asserts" in second.out


# -- a class with hidden claims, when a phase goes wrong (an attack round, 2026-12-07) -----------
def _hidden_module(klass: Path) -> Path:
    """A copy of the quick module whose tokenizer claim is hidden."""
    claims = klass / "claims"
    shutil.copytree(MODULE, claims / MODULE_ID)
    card = claims / MODULE_ID / "8-tokenizer-bill.yaml"
    data = yaml.safe_load(card.read_text(encoding="utf-8"))
    data["claims"][0].update(visibility="hidden")
    card.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return claims / MODULE_ID


def _judge_one_failing_bobs_hidden_phase(path: Path, entry: str | None, options: api.RunOptions):
    """A judge whose second phase of bob.py fails as an import that found something would,
    printing and raising what it read; and one that dies on looper.py in the first phase."""
    import signal

    from runner.learner.staging import LoadFailure

    if path.name == "looper.py" and options.shown == "visible":
        os.kill(os.getpid(), signal.SIGKILL)
    if path.name == "bob.py" and options.shown == "hidden":
        info = {"kind": "learner", "name": "bob.py", "sha256": None}
        failure = LoadFailure("load.raised", {"file": "bob.py", "error": "RuntimeError: 4242"})
        return api._shipped(api.Run(info, [], options, failure, "read 4242", None))
    return _JUDGE_ONE(path, entry, options)


def test_a_second_phase_that_fails_errs_the_hidden_claims_and_shows_nothing_of_it(
    klass, reference_text, monkeypatch
):
    """A second phase's import runs after classmates' hidden inputs were sent: its failure
    (4,242 read at import, raised and printed) replaced the whole row, and the text reached
    every visible test. The row is the first phase's; the hidden claims err, saying only
    that. A judge that dies in the first phase broke the pool the second phase used (the
    whole class lost, internal error): the second phase has its own."""
    module = _hidden_module(klass)
    looper = klass / "class" / "looper.py"
    looper.write_text(reference_text, encoding="utf-8")
    monkeypatch.setattr(api, "_judge_one", _judge_one_failing_bobs_hidden_phase)
    packs = api.load_claims([module])
    paths = [klass / "class" / n for n in ("alice.py", "looper.py", "bob.py")]
    options = api.RunOptions(limits=WorkerLimits(timeout_s=float(TIMEOUT)))

    rows = dict(api.run_class(packs, paths, options, jobs=2))

    assert rows[looper].load_failure is not None
    assert rows[looper].load_failure.code == "load.judge_died"
    bob = rows[paths[2]]
    assert bob.load_failure is None and "4242" not in bob.load_output
    hidden = {r.id: r for r in bob.results if r.visibility == "hidden"}
    assert [r.reason.code for r in hidden.values() if r.reason] == ["claim.hidden_unjudged"]
    assert all(r.status == "error" for r in hidden.values())
    shown = [r for r in bob.results if r.visibility == "visible"]
    assert len(shown) == N_CLAIMS - 1 and all(r.status != "error" for r in shown)
    assert rows[paths[0]].exit_code() == 0  # alice, both phases judged


def _judge_one_reading_another_file_later(path: Path, entry: str | None, options: api.RunOptions):
    shipped = _JUDGE_ONE(path, entry, options)
    if options.shown == "hidden":
        shipped[0]["sha256"] = "0" * 64  # what another file's bytes hash to
    return shipped


def test_a_file_changed_between_the_phases_is_a_row_saying_so(klass, monkeypatch):
    """The two phases read the file twice: a file replaced between them gave a row of the
    first file's visible results and the second's hidden ones, under the first's sha256."""
    monkeypatch.setattr(api, "_judge_one", _judge_one_reading_another_file_later)
    packs = api.load_claims([_hidden_module(klass)])
    paths = [klass / "class" / "alice.py"]
    options = api.RunOptions(limits=WorkerLimits(timeout_s=float(TIMEOUT)))
    ((_, row),) = api.run_class(packs, paths, options, jobs=1)
    assert row.load_failure is not None and row.load_failure.code == "load.changed_between"
    assert row.results == []


def test_a_learners_wall_allowance_is_one_for_both_phases(klass, monkeypatch):
    """Each phase made a session of its own, each with the whole --learner-wall-timeout: a
    learner whose calls sleep waited twice it in a class with hidden claims (40.5 s against
    20.4 s alone, an attack round). The second phase starts from what the first left."""
    seen: list[list[float]] = []
    each_judged = api._each_judged

    def recorded(pool, paths, entry, options, packs, claim_paths):
        if isinstance(options, list):
            seen.append([o.limits.learner_wall_s for o in options])
        return each_judged(pool, paths, entry, options, packs, claim_paths)

    monkeypatch.setattr(api, "_each_judged", recorded)
    packs = api.load_claims([_hidden_module(klass)])
    paths = [klass / "class" / "alice.py", klass / "class" / "dave.py"]  # dave cannot load
    limits = WorkerLimits(timeout_s=float(TIMEOUT), learner_wall_s=600.0)
    rows = dict(api.run_class(packs, paths, api.RunOptions(limits=limits), jobs=1))

    ((alice, dave),) = seen
    assert 0 < alice < 600.0 + 10 * float(TIMEOUT) * len(rows[paths[0]].results)
    assert alice != 600.0  # what the first phase waited and computed moved it
    assert dave == 600.0  # a file that could not load has no allowance of its own to carry
    assert rows[paths[0]].exit_code() == 0


def test_a_second_phase_starts_from_the_allowance_the_first_left():
    first = api.Run({"kind": "learner"}, [], api.RunOptions(), wall_left=12.5)
    options = api.RunOptions(limits=WorkerLimits(learner_wall_s=1800.0))
    second = api._next_phase(options, first, "hidden")
    assert (second.shown, second.limits.learner_wall_s) == ("hidden", 12.5)
    spent = api.Run({"kind": "learner"}, [], api.RunOptions(), wall_left=-3.0)
    assert 0 < api._next_phase(options, spent, "after_due_date").limits.learner_wall_s < 0.01


def test_a_folder_judged_as_one_learner_beside_other_learners_files_is_said(cli, tmp_path):
    """A class folder where one learner named their file my_impl.py was judged as that
    learner alone, the classmates' files as its modules, without a word (an attack round,
    2026-12-07): the grader is told, in both languages; a learner's own modules beside
    its my_impl.py (one of them defining chapter functions) are not."""
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "my_impl.py").write_text("from alice import *\n", encoding="utf-8")
    body = "def softmax_temperature(logits, temperature):\n    raise NotImplementedError\n"
    (folder / "alice.py").write_text(body, encoding="utf-8")
    (folder / "helpers.py").write_text("def norm(x):\n    return x\n", encoding="utf-8")
    args = ("run", str(MODULE), "--impl", str(folder), "-k", "temperature.table", "--out")
    alone = cli(*args, str(tmp_path / "a"), "--lang", "en")
    assert "note:" not in alone.err, alone.err
    (folder / "bob.py").write_text(body, encoding="utf-8")
    said = cli(*args, str(tmp_path / "b"), "--lang", "en")
    assert (
        "holds my_impl.py, so it is judged as one learner's submission (its other files are "
        "that learner's modules); alice.py, bob.py define the chapter's functions themselves"
    ) in said.err, said.err
    zh = cli(*args, str(tmp_path / "c"), "--lang", "zh")
    assert "alice.py, bob.py 自己也定义了本章的函数" in zh.err, zh.err


def _held_in_a_write(_: int) -> None:
    """A pool process whose SIGTERM handler never runs: the signal goes to another of its
    threads (the main one blocks it), as it went to OpenBLAS's thread in a judge whose main
    thread was blocked writing a result nobody read."""
    import signal
    import threading

    signal.signal(signal.SIGTERM, lambda *_: os._exit(143))
    threading.Thread(target=time.sleep, args=(600,), daemon=True).start()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    time.sleep(600)


def _dies(_: int) -> None:
    time.sleep(0.5)
    os._exit(1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork and thread signal masks")
def test_a_broken_pool_whose_other_process_outlives_sigterm_still_ends():
    """A pool broken by a process that died sends SIGTERM to the others and joins them; one
    that outlived the signal held that join, and the class run, for ever (a CI run hung so
    once). end_pool kills what is left of the pool."""
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from runner.pools import end_pool

    pool = ProcessPoolExecutor(2, multiprocessing.get_context("fork"))
    held = pool.submit(_held_in_a_write, 0)
    died = pool.submit(_dies, 0)
    with pytest.raises(BrokenProcessPool):
        died.result(timeout=60)
    processes = list(pool._processes.values())
    ending = threading.Thread(target=end_pool, args=(pool,), daemon=True)
    ending.start()
    ending.join(timeout=120)  # a backstop against a hung suite, not a measure of speed

    assert not ending.is_alive()
    assert all(p.exitcode is not None or not _alive(p.pid) for p in processes)
    with pytest.raises(BrokenProcessPool):
        held.result(timeout=0)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False
