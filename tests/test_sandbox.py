"""A grade that depends only on the code (issue 21), tried as a hostile class would try it.

Every family of attack, as root and as an ordinary user (a user id made up here when the
tests run as root; skipped, with the reason, otherwise), against a class that holds a hidden
claim whose inputs and expected value are secrets: they must never appear in anything a
learner sees (its Gradescope results, what its code printed), in any learner's files or
processes, whatever the learners do. No test here depends on how fast or how busy the
machine is: a learner's limits are CPU time, and a wall-clock backstop only stops calls that
sleep.

Who runs the judge decides how it runs: ``--who root`` is the test's own process (as root);
``user`` runs the command line as uid 54321 in a mount namespace of the test's own where the
interpreter (which may live under /root) is reachable by that user, and nothing else changes.
"""

from __future__ import annotations

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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import MODULE, ROOT
from tests.test_boundary import _descendants

AS_ROOT = os.geteuid() == 0
USER_ID = 54321  # an ordinary user, made up: no account needed for the kernel's checks
SECRET_T, SECRET_V = 6007, 7919  # the hidden claim's inputs (primes nobody types by chance)
SECRET_BYTES = SECRET_T * SECRET_V * 4  # its expected value: 190,277,732 (a real array: 181 MiB)
SECRETS = [str(SECRET_T), str(SECRET_V), str(SECRET_BYTES), f"{SECRET_BYTES:,}", "secret.leak"]
LOGITS = "tokenizer.logits-memory"
MODULE_ID = "23-design-tradeoffs"


def _namespaces_possible() -> bool:
    probe = subprocess.run(
        ["unshare", "--user", "--map-root-user", "--mount", "--pid", "--fork", "true"],
        capture_output=True,
    )
    return probe.returncode == 0


NAMESPACES = shutil.which("unshare") is not None and _namespaces_possible()
WHO = ["root", "user"]


def _skip_unless(who: str) -> None:
    if who == "root" and not AS_ROOT:
        pytest.skip("the tests do not run as root: a root judge cannot be tried")
    if who == "user" and AS_ROOT and (not NAMESPACES or shutil.which("setpriv") is None):
        pytest.skip("no unshare/setpriv here to run the judge as an ordinary user")


# -- the class ----------------------------------------------------------------------------------
SECRET_CLAIM = {
    "proposition": 99,
    "stage": {"zh": "测试", "en": "test"},
    "title": {"zh": "隐藏的声明", "en": "A hidden claim"},
    "claims": [
        {
            "id": "secret.leak",
            "statement": {"zh": "隐藏", "en": "hidden"},
            "check": "logits_bill",
            "inputs": {"batch": 1, "bytes_per_value": 4, "configs": [[SECRET_T, SECRET_V]]},
            "expect": [
                {
                    "measure": "bytes",
                    "value": [SECRET_BYTES],
                    "tolerance": {"kind": "exact"},
                    "unit": "bytes",
                    "source": "test: B × T × V × bytes",
                }
            ],
            "points": 10,
            "visibility": "hidden",
        }
    ],
}

# A learner that tries everything the attacker tried, and prints what it found in
# every call (its printed output is shown to it): files of the grader (the claims, through
# NumPy's folder and '..', and by walking the whole file system), other processes' memory,
# environment and descriptors, the judge's signals; and it remembers every argument it was
# called with, to print it in a later claim's output.
SPY = """
import os, sys
from reference_impl import *  # noqa: F403
from reference_impl import logits_memory_bytes as _right

SEEN = []


def _look():
    found = []
    for top, dirs, files in os.walk("/", onerror=lambda e: None):
        if top == "/":  # the system's own folders are public (and long to walk)
            dirs[:] = [d for d in dirs if d not in ("proc", "sys", "dev", "usr", "lib", "lib64")]
        for name in files:
            if name.endswith((".yaml", ".json", ".yml")):
                path = os.path.join(top, name)
                try:
                    with open(path, "rb") as fh:
                        data = fh.read(1 << 20)
                except OSError:
                    continue
                # the grader's files: a claim file, evidence, anything of this test's course
                if b"secret.leak" in data or b"claim" in data[:2000] or "learn-llm" in path:
                    found.append(f"READ {path}: {data[:400]!r}")
    import numpy
    up = os.path.join(os.path.dirname(numpy.__file__), *[".."] * 6)
    try:
        found.append(f"UP {sorted(os.listdir(up))}")
    except OSError as exc:
        found.append(f"up: {type(exc).__name__}")
    try:
        pids = os.listdir("/proc")
    except OSError as exc:
        pids = []
        found.append(f"proc: {type(exc).__name__}")
    for pid in pids:
        if pid.isdigit() and int(pid) != os.getpid():
            for what in ("environ", "cmdline", "mem"):
                try:
                    with open(f"/proc/{pid}/{what}", "rb") as fh:
                        data = fh.read(300)
                    if data.strip(b"\\0"):  # something to read (a blanked line says nothing)
                        found.append(f"PROC {pid}/{what}: {data!r}")
                except OSError:
                    pass
    return found


FOUND = _look()
print("\\n".join(FOUND))


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    SEEN.append((batch, length, vocab, bytes_per_value))
    print("\\n".join(FOUND + _look()))
    print("SEEN", SEEN)
    return _right(batch, length, vocab, bytes_per_value)
"""


def _shared(path: Path, who: str) -> None:
    """Readable by anyone, and the ordinary user's when the judge runs as that user (git
    refuses a repository someone else owns)."""
    for top, _dirs, files in os.walk(path):
        os.chmod(top, 0o755)
        for name in files:
            os.chmod(os.path.join(top, name), 0o644)
    if AS_ROOT and who == "user":
        for top, _dirs, files in os.walk(path):
            os.chown(top, USER_ID, USER_ID)
            for name in files:
                os.chown(os.path.join(top, name), USER_ID, USER_ID)


@pytest.fixture
def course() -> Iterator[Path]:
    """A course of one module (the chapter's, and a hidden claim), in a folder of its own
    that an ordinary user can reach (pytest's tmp_path may be only root's)."""
    base = Path(tempfile.mkdtemp(prefix="learn-llm-sandbox-test-"))
    claims = base / "claims"
    shutil.copytree(MODULE, claims / MODULE_ID)
    (claims / MODULE_ID / "99-secret.yaml").write_text(
        yaml.safe_dump(SECRET_CLAIM, allow_unicode=True, sort_keys=False), encoding="utf-8"
    )
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid",
           "-c", "safe.directory=*"]  # fmt: skip
    subprocess.run([*git, "init", "-q"], cwd=base, check=True)
    subprocess.run([*git, "add", "-A"], cwd=base, check=True)
    subprocess.run([*git, "commit", "-qm", "course"], cwd=base, check=True)  # evidence: a commit
    try:
        yield base
    finally:
        shutil.rmtree(base, ignore_errors=True)


def reference_source() -> str:
    from tests.test_boundary import scaffold_reference

    return scaffold_reference()


def folder_submission(subs: Path, name: str, source: str, helper: bool = True) -> Path:
    folder = subs / name
    folder.mkdir(parents=True)
    (folder / "my_impl.py").write_text(source, encoding="utf-8")
    if helper:
        (folder / "reference_impl.py").write_text(reference_source(), encoding="utf-8")
    return folder


def grade(course: Path, who: str, *args: str, env: dict[str, str] | None = None) -> Any:
    """``python -m runner run claims/ ARGS`` in ``course``, as ``who``."""
    _shared(course, who)
    # -P: the grader's own process imports nothing from where it runs either (the console
    # script, learn-llm-claims, never does)
    command = [sys.executable, "-P", "-m", "runner", "run", "claims/", *args, "--lang", "en"]
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    environment.update(LEARN_LLM_LANG="en", PYTHONPATH=str(ROOT), **(env or {}))
    if who == "user" and AS_ROOT:
        environment["HOME"] = str(course)
        return subprocess.run(
            _as_ordinary_user(command), cwd=course, env=environment, capture_output=True,
            text=True, timeout=900,
        )  # fmt: skip
    return subprocess.run(
        command, cwd=course, env=environment, capture_output=True, text=True, timeout=900
    )


def _as_ordinary_user(command: list[str]) -> list[str]:
    """``command`` as uid USER_ID, in a mount namespace of its own where the interpreter's
    folder (under /root, which only root may enter) is reachable: /root becomes an empty
    tmpfs there, with the interpreter's folder bound back inside; nothing else changes."""
    prefix = os.path.realpath(sys.base_prefix)
    steps = []
    if prefix.startswith("/root/"):
        inside = prefix[len("/root/") :].split("/")[0]  # e.g. .pyenv
        steps += [
            "mkdir -p /run/learn-llm-test-keep",
            f"mount --bind /root/{inside} /run/learn-llm-test-keep",
            "mount -t tmpfs -o mode=0755 tmpfs /root",
            f"mkdir /root/{inside}",
            f"mount --move /run/learn-llm-test-keep /root/{inside}",
        ]
    run_as = ["setpriv", f"--reuid={USER_ID}", f"--regid={USER_ID}", "--clear-groups",
              "--inh-caps=-all", "--bounding-set=-all", "--"]  # fmt: skip
    script = " && ".join([*steps, 'exec "$@"'])
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "sh",
            *run_as, *command]  # fmt: skip


def learner_visible(results: Path) -> list[str]:
    """Everything a learner sees of its Gradescope results before the hidden claims are
    shown: the summary, and every visible test."""
    doc = json.loads(results.read_text(encoding="utf-8"))
    seen = [str(doc.get("output", ""))]
    for test in doc.get("tests", []):
        if test.get("visibility", "visible") == "visible":
            seen.append(json.dumps(test, ensure_ascii=False))
    return seen


def assert_no_secret(texts: list[str], where: str) -> None:
    for text in texts:
        for secret in SECRETS:
            assert secret not in text, f"{where}: {secret!r} in {text[:300]!r}"


# -- the families ------------------------------------------------------------------------------
@pytest.mark.parametrize("who", WHO)
def test_a_hidden_claim_never_reaches_what_a_learner_sees(course, who):
    """The spy reads what it can of the file system (the claims are not there), of other
    processes (none are there), and prints every argument it was ever called with in every
    later call: its worker is ended after each claim it may not see yet, so nothing it was
    sent for the hidden claim reaches a visible claim's output."""
    _skip_unless(who)
    subs = course / "subs"
    folder_submission(subs, "spy", SPY)
    folder_submission(subs, "honest", reference_source(), helper=False)

    result = grade(course, who, "--impl", "subs", "--gradescope-results", "results", "--jobs", "2",
                   "--out", "ev", "--timeout", "20", env={"GRADER_TOKEN": "s3cret-token"})  # fmt: skip

    assert result.returncode in (0, 1), result.stderr
    spy = json.loads((course / "results" / "spy.json").read_text(encoding="utf-8"))
    tests = {t["name"]: t for t in spy["tests"]}
    assert tests["secret.leak"]["visibility"] == "hidden"
    assert tests["secret.leak"]["score"] == 10  # it answered right: judged like any other
    assert tests[LOGITS]["score"] == tests[LOGITS]["max_score"]
    visible = learner_visible(course / "results" / "spy.json")
    assert_no_secret(visible, "spy's visible results")
    assert "READ " not in "".join(visible)  # no file of the grader's was there to read
    assert "PROC " not in "".join(visible)  # no other process was there to look into
    assert "s3cret-token" not in result.stdout + "".join(visible)
    honest = learner_visible(course / "results" / "honest.json")
    assert_no_secret(honest, "a classmate's visible results")


@pytest.mark.parametrize("who", WHO)
def test_a_hidden_claim_first_in_its_module_never_reaches_a_learner_judged_by_two(course, who):
    """One learner's file alone: its visible claims are shared between two judges, each with
    a worker of its own. The hidden claim comes first in the module here, and the spy prints
    everything it was ever sent in every later call: the hidden claim runs after every
    visible one, in a worker of its own, once no other worker of the learner is alive."""
    _skip_unless(who)
    module = course / "claims" / MODULE_ID
    (module / "99-secret.yaml").rename(module / "0-secret.yaml")  # first, in the files' order
    subs = course / "subs"
    folder_submission(subs, "spy", SPY)

    result = grade(course, who, "--impl", "subs/spy", "--gradescope-results", "results.json",
                   "--jobs", "2", "--out", "ev", "--timeout", "20")  # fmt: skip

    assert result.returncode in (0, 1), result.stderr
    spy = json.loads((course / "results.json").read_text(encoding="utf-8"))
    tests = {t["name"]: t for t in spy["tests"]}
    assert tests["secret.leak"]["score"] == 10  # judged like any other
    assert tests[LOGITS]["score"] == tests[LOGITS]["max_score"]
    # the spy's calls were judged by two workers: both printed what they were sent
    printed = "".join(str(t.get("output", "")) for t in spy["tests"])
    assert printed.count("SEEN") >= 2
    assert_no_secret(learner_visible(course / "results.json"), "the spy's visible results")


@pytest.mark.parametrize("who", WHO)
def test_a_module_named_like_the_standard_librarys_is_its_authors_alone(course, who):
    """A submission called heapq.py (or fractions.py, json.py) is imported by nobody else:
    each worker sees its own submission only. A json.py in the grader's current directory
    is imported by no fork server or worker (isolated imports: no current directory)."""
    _skip_unless(who)
    subs = course / "subs"
    subs.mkdir()
    marker = course / "pwned"
    poison = f"open({str(marker)!r}, 'w').write('imported')\nraise SystemExit(0)\n"
    for name in ("heapq.py", "fractions.py", "decimal.py", "statistics.py"):
        (subs / name).write_text(poison, encoding="utf-8")
    (course / "json.py").write_text(poison, encoding="utf-8")  # beside where the grader runs
    user = reference_source() + "\nimport heapq, fractions, decimal, statistics  # noqa\n"
    (subs / "alice.py").write_text(user, encoding="utf-8")

    result = grade(course, who, "--impl", "subs", "--out", "ev", "--format", "json",
                   "--timeout", "20", "--jobs", "2")  # fmt: skip

    payload = json.loads(result.stdout)
    rows = {row["file"]: row for row in payload["learners"]}
    assert rows["subs/alice.py"]["exit_code"] == 0, rows["subs/alice.py"].get("load_failure")
    assert not marker.exists()
    assert result.returncode == 1  # the poisoned files themselves load, and pass nothing


@pytest.mark.parametrize("who", WHO)
def test_one_hostile_learner_of_each_family_and_every_row_is_written(course, who):
    """A returned dict whose keys are a lone surrogate and terminal escapes, merges that
    double the judge's work, a file that cannot be recorded (its evidence path is taken by a
    folder), a learner that kills what it can: every learner gets a row, every output is
    written, and the honest learner's verdict is what it is alone."""
    _skip_unless(who)
    reference = reference_source()
    subs = course / "subs"
    subs.mkdir()
    (subs / "honest.py").write_text(reference, encoding="utf-8")
    (subs / "keys.py").write_text(
        reference + textwrap.dedent('''

            def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
                return {"\\ud800": 1, "\\x1b[2J\\x1b[32mPASSED": 2, "\\u202e": 3}
        '''), encoding="utf-8",
    )  # fmt: skip
    (subs / "merges.py").write_text(
        reference + textwrap.dedent('''

            def bpe_train(data, vocab_size):
                merges = [[97, 97]]
                for rank in range(60):
                    merges.append([256 + rank, 256 + rank])
                return merges
        '''), encoding="utf-8",
    )  # fmt: skip
    (subs / "killer.py").write_text(
        reference + textwrap.dedent('''

            def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
                import os, signal
                for pid in range(1, 4000):
                    try:
                        os.kill(pid, signal.SIGKILL) if pid != os.getpid() else None
                    except OSError:
                        pass
                return batch * length * vocab * bytes_per_value
        '''), encoding="utf-8",
    )  # fmt: skip
    (subs / "unrecorded.py").write_text(reference, encoding="utf-8")
    version = yaml.safe_load((MODULE / "module.yaml").read_text(encoding="utf-8"))["version"]
    (course / "ev" / f"{MODULE_ID}-v{version}.unrecorded.json").mkdir(parents=True)

    result = grade(course, who, "--impl", "subs", "--out", "ev", "--format", "json",
                   "--gradescope-results", "gs", "--junit-xml", "class.xml", "--jobs", "2",
                   "--timeout", "20")  # fmt: skip

    assert result.returncode == 1, result.stderr
    payload = json.loads(result.stdout)
    rows = {row["file"]: row for row in payload["learners"]}
    assert set(rows) == {
        f"subs/{n}.py" for n in ("honest", "keys", "merges", "killer", "unrecorded")
    }
    assert rows["subs/honest.py"]["exit_code"] in (0, 1)
    honest = {c["id"]: c["status"] for m in rows["subs/honest.py"]["results"] for c in m["claims"]}
    assert honest["secret.leak"] == "passed"
    keys = {c["id"]: c for m in rows["subs/keys.py"]["results"] for c in m["claims"]}
    assert keys[LOGITS]["status"] == "error"
    merges = {c["id"]: c for m in rows["subs/merges.py"]["results"] for c in m["claims"]}
    assert merges["tokenizer.bpe-bill"]["status"] == "error"
    assert "bpe_train()" in merges["tokenizer.bpe-bill"]["message"]
    killer = {c["id"]: c["status"] for m in rows["subs/killer.py"]["results"] for c in m["claims"]}
    assert killer[LOGITS] == "passed"  # nothing outside its namespace was there to kill
    assert any("unrecorded.py" in note for note in payload["notes"])
    assert sorted(p.name for p in (course / "gs").iterdir()) == [
        f"{n}.json" for n in sorted(("honest", "keys", "merges", "killer", "unrecorded"))
    ]
    assert (course / "class.xml").read_text(encoding="utf-8").count("<testsuite ") == 5
    for name in ("honest", "keys", "merges", "killer"):
        assert (course / "ev" / f"{MODULE_ID}-v{version}.{name}.json").is_file()
    assert not re.search(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", result.stdout)
    assert "\\ud800" in result.stdout or "\\\\ud800" in result.stdout  # shown as its escape


@pytest.mark.parametrize("who", WHO)
def test_the_judges_folders_are_the_judges(course, who):
    """--out and --gradescope-results that do not exist yet are made by the judge before any
    worker exists (owned by the judge's user); a learner can neither see nor write them."""
    _skip_unless(who)
    subs = course / "subs"
    target = course / "ev" / "forged.json"
    folder_submission(subs, "forger", textwrap.dedent(f'''
        from reference_impl import *  # noqa: F403
        from reference_impl import logits_memory_bytes as _right

        def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
            for path in ({str(target)!r}, {str(course / "gs" / "x.json")!r}):
                try:
                    with open(path, "w") as fh:
                        fh.write("{{}}")
                    print("WROTE", path)
                except OSError as exc:
                    print("refused", type(exc).__name__)
            return _right(batch, length, vocab, bytes_per_value)
    '''))  # fmt: skip
    folder_submission(subs, "other", reference_source(), helper=False)

    result = grade(course, who, "--impl", "subs", "--out", "ev", "--gradescope-results", "gs",
                   "--format", "json", "--timeout", "20", "-k", LOGITS)  # fmt: skip

    assert result.returncode in (0, 1), result.stderr
    owner = USER_ID if who == "user" and AS_ROOT else os.geteuid()
    assert (course / "ev").stat().st_uid == owner
    assert (course / "gs").stat().st_uid == owner
    assert not target.exists() and not (course / "gs" / "x.json").exists()
    assert "WROTE" not in result.stdout


@pytest.mark.parametrize("who", WHO)
def test_the_sandbox_says_what_it_could_not_guarantee(course, who):
    """The results say how each learner's worker was confined, and stderr names every
    guarantee the machine could not give (here: none but the user id, as an ordinary user)."""
    _skip_unless(who)
    (course / "alice.py").write_text(reference_source(), encoding="utf-8")

    result = grade(course, who, "--impl", "alice.py", "--out", "ev", "--format", "json",
                   "-k", LOGITS)  # fmt: skip

    sandbox = json.loads(result.stdout)["sandbox"]
    if who == "root":
        assert sandbox == {"isolation": "own-user", "missing": []}
        assert result.stderr == ""
    else:
        assert sandbox["isolation"] == "same-user"
        assert sandbox["missing"] == ["own-user: the judge is not root"]
        assert "own-user: the judge is not root" in result.stderr


def test_without_namespaces_landlock_keeps_the_graders_files_out(tmp_path, monkeypatch):
    """Where namespaces are refused, the worker restricts itself with Landlock: the same
    spy finds no claim file, and the run says namespaces are missing."""
    from runner import api
    from runner.learner.limits import WorkerLimits

    folder = folder_submission(tmp_path / "subs", "spy", SPY)
    options = api.RunOptions(pattern=LOGITS, limits=WorkerLimits(timeout_s=20, namespaces=False))

    run = api.run_packs(api.load_claims([MODULE]), api.LearnerFile(folder), options)

    (result,) = run.results
    assert run.sandbox is not None
    assert "namespaces: not asked for" in run.sandbox["missing"]
    if any(m.startswith("landlock") for m in run.sandbox["missing"]):
        pytest.skip(f"no Landlock on this kernel: {run.sandbox['missing']}")
    assert result.status == "passed"
    assert "READ " not in (result.output or "")
    assert "claims" not in (result.output or "").split("UP", 1)[-1].split("\n", 1)[0]


def test_cpu_time_not_waiting_is_what_a_call_may_spend(tmp_path):
    """A call that sleeps 3 s uses no CPU: it passes at --timeout 1. A call that computes for
    more than 1 s of CPU time does not, however long it took."""
    from runner import api
    from runner.learner.limits import WorkerLimits

    reference = reference_source()
    sleeper = tmp_path / "sleeper.py"
    sleeper.write_text(reference + textwrap.dedent('''

        def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
            import time
            time.sleep(1)
            return batch * length * vocab * bytes_per_value
    '''), encoding="utf-8")  # fmt: skip
    spinner = tmp_path / "spinner.py"
    spinner.write_text(reference + textwrap.dedent('''

        def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
            import time
            start = time.process_time()
            while time.process_time() - start < 1.5:
                pass
            return batch * length * vocab * bytes_per_value
    '''), encoding="utf-8")  # fmt: skip
    options = api.RunOptions(pattern=LOGITS, limits=WorkerLimits(timeout_s=1))
    packs = api.load_claims([MODULE])

    (slept,) = api.run_packs(packs, api.LearnerFile(sleeper), options).results
    (spun,) = api.run_packs(packs, api.LearnerFile(spinner), options).results

    assert slept.status == "passed"  # three calls of 1 s each: 3 s waited, no CPU spent
    assert spun.status == "error" and spun.reason is not None
    assert spun.reason.code == "boundary.timeout"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="death signals are Linux's")
def test_kill_9_of_a_class_run_leaves_no_process_of_it(course):
    """SIGKILL of a class run's main process: its judges die (their death signal), their
    fork servers and workers with them, and every process a learner started (its process
    namespace ends with its process 1)."""
    subs = course / "subs"
    source = reference_source() + textwrap.dedent('''

        def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
            import os, subprocess
            subprocess.Popen(["sleep", "1000"], process_group=0)
            while True:
                pass
    ''')  # fmt: skip
    for name in ("a", "b"):
        folder_submission(subs, name, source, helper=False)
    environment = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    environment.update(LEARN_LLM_LANG="en", PYTHONPATH=str(ROOT))
    main = subprocess.Popen(
        [sys.executable, "-m", "runner", "run", "claims/", "--impl", "subs", "--jobs", "2",
         "--timeout", "600", "-k", LOGITS, "--out", "ev"],
        cwd=course, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        tree: list[int] = []
        while time.monotonic() < deadline:
            tree = _descendants(main.pid)
            if sum(_comm(p) == "sleep" for p in tree) >= 2:
                break
            time.sleep(0.2)
        assert sum(_comm(p) == "sleep" for p in tree) >= 2, "the learners' code never ran"
    finally:
        main.send_signal(signal.SIGKILL)
        main.wait()
    deadline = time.monotonic() + 30  # the kernel's reaping, on a loaded machine
    while (left := [p for p in tree if _alive(p)]) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert left == []


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _run_filter(
    program: list[tuple[int, int, int, int]],
    nr: int,
    arch: int,
    arg0: int,
    arg1: int = 0,
    arg2: int = 0,
) -> int:
    """What the kernel would do with one call: a classic BPF interpreter for the few
    instructions the filter uses, on struct seccomp_data."""
    import struct

    data = struct.pack("=iIQ6Q", nr, arch, 0, arg0, arg1, arg2, 0, 0, 0)
    acc, pc = 0, 0
    while True:
        code, jt, jf, k = program[pc]
        if code == 0x20:  # ld [k]
            acc = struct.unpack_from("=I", data, k)[0]
        elif code == 0x06:  # ret k
            return k
        else:
            taken = {0x15: acc == k, 0x35: acc >= k, 0x45: bool(acc & k)}[code]
            pc += jt if taken else jf
        pc += 1


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_the_system_call_filter_denies_its_list_foreign_architectures_and_new_namespaces(
    machine,
):
    """Judged instruction by instruction, as the kernel would: a denied call fails with
    EPERM under its own number, under x32's (x86_64) and under any other architecture's (an
    i386 call from a 64-bit process reaches i386's numbers); clone is allowed unless it asks
    for a namespace; clone3 says ENOSYS, so the C library uses clone; the rest is allowed."""
    import errno

    from runner.learner import sandbox

    program = sandbox.seccomp_program(machine)
    arch, calls = sandbox.DENIED_CALLS[machine]
    eperm, enosys = 0x00050000 | errno.EPERM, 0x00050000 | errno.ENOSYS
    allow = 0x7FFF0000
    clone, fork_flags = sandbox.CLONE[machine], 0x01200011  # CHILD_{SETTID,CLEARTID}|SIGCHLD
    for name, number in calls.items():
        assert _run_filter(program, number, arch, 0) == eperm, name
    for number in range(0, 460):
        if number not in calls.values() and number not in (clone, sandbox.CLONE3):
            assert _run_filter(program, number, arch, 0) == allow, number
        assert _run_filter(program, number, 0x40000003, 0) == eperm  # i386
    assert _run_filter(program, clone, arch, fork_flags) == allow
    assert _run_filter(program, clone, arch, 0x003D0F00) == allow  # a thread's flags
    for flag in (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000):
        assert _run_filter(program, clone, arch, fork_flags | flag) == eperm, hex(flag)
    assert _run_filter(program, sandbox.CLONE3, arch, 0) == enosys
    if machine == "x86_64":
        assert _run_filter(program, 0x40000000 + calls["keyctl"], arch, 0) == eperm


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_fcntl_is_allowed_but_for_locks_leases_and_notifications(machine):
    """Two workers of a class run read the same standard library: a lock on one of its
    files, or a notification of its use, passed a hidden claim's inputs to a classmate's
    worker (an attack round printed them in the classmate's visible output). fcntl's other
    commands (descriptor flags, F_DUPFD, F_GETFL) stay allowed."""
    import errno

    from runner.learner import sandbox

    program = sandbox.seccomp_program(machine)
    arch, calls = sandbox.DENIED_CALLS[machine]
    eperm, allow = 0x00050000 | errno.EPERM, 0x7FFF0000
    fcntl_nr = sandbox.FCNTL[machine]
    # locks, leases, F_NOTIFY; F_SETPIPE_SZ (a pipe of many slots holds memory no process has)
    for command in (5, 6, 7, 36, 37, 38, 1024, 1025, 1026, 1031):
        assert _run_filter(program, fcntl_nr, arch, 3, command) == eperm, command
    for command in (0, 1, 2, 3, 4, 1030, 1032, 1033):  # F_DUPFD ... F_DUPFD_CLOEXEC, pipes
        assert _run_filter(program, fcntl_nr, arch, 3, command) == allow, command
    for name in ("flock", "inotify_init1", "inotify_add_watch", "fanotify_init", "mincore"):
        assert _run_filter(program, calls[name], arch, 0) == eperm, name


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_a_learners_processes_start_no_session(machine):
    """The kernel shares the CPU among sessions (autogroups) before processes: a learner
    whose 64 processes each called setsid had 64 shares to a classmate's worker's one, and
    slowed the classmate's claim 11x in wall time. The worker starts its session before the
    filter; setsid is denied after it (getsid, setpgid stay allowed)."""
    import errno

    from runner.learner import sandbox

    program = sandbox.seccomp_program(machine)
    arch, calls = sandbox.DENIED_CALLS[machine]
    numbers = {"x86_64": {"setsid": 112, "getsid": 124, "setpgid": 109},
               "aarch64": {"setsid": 157, "getsid": 156, "setpgid": 154}}[machine]  # fmt: skip
    assert calls["setsid"] == numbers["setsid"]
    assert _run_filter(program, numbers["setsid"], arch, 0) == 0x00050000 | errno.EPERM
    for name in ("getsid", "setpgid"):
        assert _run_filter(program, numbers[name], arch, 0) == 0x7FFF0000, name


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_what_reads_the_machines_state_is_denied(machine):
    """sysinfo (processes, free memory) and statfs (free blocks, which the judge's writes of
    a learner's output move) read what a learner's code can change and another read later;
    vmsplice gives a pipe pages no process holds (an attack kept 4 GiB of huge pages in
    pipes under --memory-mib 256); fadvise, readahead, preadv2 and pwritev2 change or read
    which pages of a file every worker reads are cached (an attack passed a bit from one
    learner to the next through a file under /usr): denied, under each architecture's
    numbers (from the kernel's unistd headers). madvise is allowed but for MADV_COLD and
    MADV_PAGEOUT, which evict a file's pages too."""
    import errno

    from runner.learner import sandbox

    program = sandbox.seccomp_program(machine)
    arch, calls = sandbox.DENIED_CALLS[machine]
    numbers = {"x86_64": {"sysinfo": 99, "statfs": 137, "fstatfs": 138, "vmsplice": 278,
                          "fadvise64": 221, "readahead": 187, "preadv2": 327, "pwritev2": 328},
               "aarch64": {"sysinfo": 179, "statfs": 43, "fstatfs": 44, "vmsplice": 75,
                           "fadvise64": 223, "readahead": 213, "preadv2": 286,
                           "pwritev2": 287}}[machine]  # fmt: skip
    for name, number in numbers.items():
        assert calls[name] == number
        assert _run_filter(program, number, arch, 0) == 0x00050000 | errno.EPERM, name
    madvise = {"x86_64": 28, "aarch64": 233}[machine]
    assert sandbox.MADVISE[machine] == madvise
    for advice in (20, 21):  # MADV_COLD, MADV_PAGEOUT
        assert _run_filter(program, madvise, arch, 0, 0, advice) == 0x00050000 | errno.EPERM
    for advice in (0, 4, 14, 15):  # NORMAL, DONTNEED, HUGEPAGE, NOHUGEPAGE: the allocator's
        assert _run_filter(program, madvise, arch, 0, 0, advice) == 0x7FFF0000, advice


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_the_counters_and_levers_of_an_attack_rounds_cross_learner_channels_are_denied(machine):
    """Each read a hidden claim's input in a classmate's visible output (2026-12-07): the
    machine-wide count of AIO events (io_setup holding as many as the input), the pid counter
    a pidfd's inode number shows (pidfd_open), process_madvise (madvise's MADV_COLD by another
    door), and PR_SET_DUMPABLE set again, which makes /proc/self/pagemap say which pages of
    a shared file are cached. prctl's other options (the worker's own PR_SET_PDEATHSIG,
    PR_SET_NAME) stay allowed."""
    import errno

    from runner.learner import sandbox

    program = sandbox.seccomp_program(machine)
    arch, calls = sandbox.DENIED_CALLS[machine]
    eperm, allow = 0x00050000 | errno.EPERM, 0x7FFF0000
    numbers = {"x86_64": {"io_setup": 206, "io_destroy": 207, "io_getevents": 208,
                          "io_submit": 209, "io_cancel": 210, "io_pgetevents": 333,
                          "pidfd_open": 434, "pidfd_send_signal": 424, "process_madvise": 440},
               "aarch64": {"io_setup": 0, "io_destroy": 1, "io_submit": 2, "io_cancel": 3,
                           "io_getevents": 4, "io_pgetevents": 292, "pidfd_open": 434,
                           "pidfd_send_signal": 424, "process_madvise": 440}}[machine]  # fmt: skip
    for name, number in numbers.items():
        assert calls[name] == number
        assert _run_filter(program, number, arch, 0) == eperm, name
    prctl = {"x86_64": 157, "aarch64": 167}[machine]
    assert sandbox.PRCTL[machine] == prctl
    for value in (0, 1):
        assert _run_filter(program, prctl, arch, 4, value) == eperm  # PR_SET_DUMPABLE
    for option in (1, 15, 16, 38):  # PDEATHSIG, SET_NAME, GET_NAME, NO_NEW_PRIVS
        assert _run_filter(program, prctl, arch, option, 1) == allow, option


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_a_clone_asking_for_a_pidfd_is_denied_as_pidfd_open_is(machine):
    """clone(CLONE_PIDFD) handed back a pidfd with pidfd_open denied: its inode number counts
    every process the machine starts, and a learner's visible import read the hidden input
    a previous submission's hidden call had written into it (an attack round, 2026-12-07).
    A plain fork (SIGCHLD) and a thread's clone flags stay allowed."""
    import errno

    from runner.learner import sandbox

    program = sandbox.seccomp_program(machine)
    arch, _ = sandbox.DENIED_CALLS[machine]
    clone = {"x86_64": 56, "aarch64": 220}[machine]
    assert sandbox.CLONE[machine] == clone
    sigchld, thread = 17, 0x3D0F00  # fork; pthread_create's CLONE_VM | FS | FILES | ...
    assert _run_filter(program, clone, arch, 0x1000 | sigchld) == 0x00050000 | errno.EPERM
    assert _run_filter(program, clone, arch, sigchld) == 0x7FFF0000
    assert _run_filter(program, clone, arch, thread) == 0x7FFF0000


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_a_clone_making_a_sibling_is_denied(machine):
    """clone(CLONE_PARENT) made a sibling of the worker: without namespaces, a child of the
    fork server, out of the tree a kill walks and (in a process group of its own) out of
    the worker's group; it outlived the judge (an attack round, 2026-12-07). fork, a
    thread's flags and posix_spawn's (CLONE_VM | CLONE_VFORK) stay allowed."""
    import errno

    from runner.learner import sandbox

    program = sandbox.seccomp_program(machine)
    arch, _ = sandbox.DENIED_CALLS[machine]
    clone = sandbox.CLONE[machine]
    sigchld, thread, spawn = 17, 0x3D0F00, 0x4000 | 0x100
    assert _run_filter(program, clone, arch, 0x8000 | sigchld) == 0x00050000 | errno.EPERM
    for allowed in (sigchld, thread, spawn | sigchld):
        assert _run_filter(program, clone, arch, allowed) == 0x7FFF0000
