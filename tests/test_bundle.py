"""The Gradescope bundle: built from this checkout, unpacked into a fake ``/autograder`` in a
temporary folder, and its ``run_autograder`` run on correct, wrong and broken submissions,
as Gradescope would run it in a container of its own (one per submission)."""

from __future__ import annotations

import io
import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import zipfile
from contextlib import redirect_stdout
from pathlib import Path

import pytest
import yaml

from runner.bundle import autograder
from runner.files import remove_tree
from tests.conftest import MODULE, ROOT, deep_folder

COURSE = ROOT / "examples" / "course" / "claims" / "05-softmax"
SOFTMAX_LEARNER = ROOT / "tests" / "data" / "course" / "softmax_learner.py"
HIDDEN = "tokenizer.logits-memory"  # made hidden and worth 5 points in the bundled copy
VISIBILITIES = {"visible", "hidden", "after_due_date", "after_published"}


def gradescope_problems(results: dict) -> list[str]:
    """What Gradescope's specification (gradescope-autograders.readthedocs.io, "Autograder
    Specifications", Output format) allows in results.json, as far as this bundle uses it."""
    problems = []
    if not isinstance(results.get("score"), int | float):
        problems.append("score is not a number")
    for key in ("output", "visibility"):
        if key in results and not isinstance(results[key], str):
            problems.append(f"{key} is not text")
    if results.get("visibility", "visible") not in VISIBILITIES:
        problems.append("visibility")
    tests = results.get("tests", [])
    if not isinstance(tests, list):
        return [*problems, "tests is not a list"]
    for i, t in enumerate(tests):
        for key, kind in (("name", str), ("output", str), ("number", str)):
            if key in t and not isinstance(t[key], kind):
                problems.append(f"tests[{i}].{key}")
        for key in ("score", "max_score"):
            if not isinstance(t.get(key), int | float):
                problems.append(f"tests[{i}].{key}")
        if t.get("visibility", "visible") not in VISIBILITIES:
            problems.append(f"tests[{i}].visibility")
        if t.get("status", "passed") not in ("passed", "failed"):
            problems.append(f"tests[{i}].status")
    if tests and abs(sum(t["score"] for t in tests) - results["score"]) > 1e-9:
        problems.append("score is not the sum of the tests' scores")
    return problems


# -- the bundle, built once ------------------------------------------------------------------
@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Path:
    """Chapter 23's module (its pack installed with the wheel) with one claim hidden and
    worth 5 points, and chapter 5's (its pack beside its claims), as a course holds them."""
    root = tmp_path_factory.mktemp("course")
    shutil.copytree(MODULE, root / "claims" / MODULE.name)
    shutil.copytree(COURSE, root / "claims" / COURSE.name)
    card = root / "claims" / MODULE.name / "8-tokenizer-bill.yaml"
    data = yaml.safe_load(card.read_text(encoding="utf-8"))
    (claim,) = [c for c in data["claims"] if c["id"] == HIDDEN]
    claim.update(points=5, visibility="hidden")
    card.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def bundle(course, tmp_path_factory) -> Path:
    from runner.cli import main

    out = tmp_path_factory.mktemp("bundle") / "autograder.zip"
    code = main(
        ["bundle", "gradescope", str(course / "claims" / MODULE.name),
         str(course / "claims" / COURSE.name), "--out", str(out), "--lang", "en"]
    )  # fmt: skip
    assert code == 0
    return out


@pytest.fixture(scope="module")
def layout(bundle, tmp_path_factory) -> Path:
    """A fake /autograder: the zip unpacked in source/, and the venv setup.sh would make,
    made offline: the bundle's wheel installed into it (no dependencies), the dependencies
    themselves seen from this test's environment."""
    root = tmp_path_factory.mktemp("autograder")
    with zipfile.ZipFile(bundle) as z:  # as `unzip` unpacks it: with the modes it holds
        z.extractall(root / "source")
        for info in z.infolist():
            (root / "source" / info.filename).chmod(info.external_attr >> 16 & 0o777)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], check=True)
    python = root / "venv" / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    # a plain path: the dependencies only (this environment's editable finder is not run)
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    (wheel,) = (root / "source" / "wheels").glob("*.whl")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
         "--no-deps", "--no-index", str(wheel)],
        check=True,
    )  # fmt: skip
    return root


def run_autograder(layout: Path, *files: tuple[str, str | bytes]) -> dict:
    """Gradescope's part: a fresh submission/ and results/, then run_autograder from the
    root; the results it wrote."""
    for name in ("submission", "results"):
        shutil.rmtree(layout / name, ignore_errors=True)
    (layout / "submission").mkdir()
    for name, content in files:
        target = layout / "submission" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    done = subprocess.run(
        [str(layout / "source" / "run_autograder")],
        cwd=layout, env={**env, "AUTOGRADER_ROOT": str(layout)},
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads((layout / "results" / "results.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def correct_source() -> str:
    """The reference scaffold of chapter 23 with chapter 5's functions written by a learner:
    one file for both modules, as a course's learner hands in."""
    from runner.cli import main

    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["scaffold", MODULE.name, "--reference", "--claims", str(MODULE.parent)]) == 0
    softmax = SOFTMAX_LEARNER.read_text(encoding="utf-8").split('"""', 2)[2]
    return out.getvalue() + "\n" + softmax


# -- what the zip holds ----------------------------------------------------------------------
def test_the_zip_has_what_gradescope_asks_at_its_root(bundle):
    with zipfile.ZipFile(bundle) as z:
        names = set(z.namelist())
        modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
        config = json.loads(z.read("bundle.json"))
        requirements = z.read("requirements.txt").decode().splitlines()
        where = {m["id"]: m["path"] for m in config["modules"]}
        hidden_card = z.read(f"{where[MODULE.name]}/8-tokenizer-bill.yaml").decode()
    for script in ("setup.sh", "run_autograder"):
        assert script in names
        assert modes[script] & stat.S_IXUSR
    (wheel,) = [n for n in names if n.startswith("wheels/")]
    assert wheel.endswith("-py3-none-any.whl") and wheel == f"wheels/{config['engine']['wheel']}"
    assert {m["id"]: m["hidden"] for m in config["modules"]} == {MODULE.name: 1, COURSE.name: 0}
    assert "visibility: hidden" in hidden_card  # the hidden claim travels with its module
    assert where == {MODULE.name: f"course/{MODULE.name}", COURSE.name: f"course/{COURSE.name}"}
    assert f"{where[COURSE.name]}/pack/__init__.py" in names  # its pack beside its claims
    assert not any("__pycache__" in n for n in names)
    # pinned, or (a requirement whose marker does not hold here, e.g. tqdm's colorama on
    # Windows) left to pip in the container with its range and its marker
    assert requirements and all("==" in r or ";" in r for r in requirements)
    assert {r.split("==")[0] for r in requirements} >= {"numpy", "pydantic", "pyyaml"}


def test_the_listing_shows_what_each_claim_is_worth_and_who_sees_it(course, cli):
    """A grader reads back the points and visibility the claim files set (text and JSON)."""
    claims = course / "claims" / MODULE.name
    en = cli("list", str(claims), "--lang", "en").out.splitlines()
    zh = cli("list", str(claims), "--lang", "zh").out.splitlines()
    [hidden_en] = [line for line in en if line.startswith(f"    {HIDDEN}  ")]
    [hidden_zh] = [line for line in zh if line.startswith(f"    {HIDDEN}  ")]
    assert hidden_en.endswith("· 5 points · hidden: graded, never shown")
    assert hidden_zh.endswith("· 5 分 · 隐藏：计分但不显示")
    assert "    support.gpt2-vocab-32-ctx  [stage 1] · 1 point" in en  # visible: not said
    doc = json.loads(cli("list", str(claims), "--format", "json").out)
    [claim] = [c for c in doc["modules"][0]["claims"] if c["id"] == HIDDEN]
    assert (claim["points"], claim["visibility"]) == (5, "hidden")


def test_the_same_course_gives_the_same_bytes(bundle, course, tmp_path, cli):
    with zipfile.ZipFile(bundle) as z:
        (wheel,) = [n for n in z.namelist() if n.startswith("wheels/")]
        (tmp_path / Path(wheel).name).write_bytes(z.read(wheel))
    paths = [str(course / "claims" / MODULE.name), str(course / "claims" / COURSE.name)]
    for out in ("a.zip", "b.zip"):
        result = cli("bundle", "gradescope", *paths, "--out", str(tmp_path / out),
                     "--wheel", str(tmp_path / Path(wheel).name), "--lang", "en")  # fmt: skip
        assert result.code == 0, result.err
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()


# -- run_autograder on submissions -------------------------------------------------------------
def test_a_correct_submission_gets_every_point(layout, correct_source):
    results = run_autograder(layout, ("my_impl.py", correct_source))

    assert gradescope_problems(results) == []
    assert results["score"] == results["max_score"] > 0
    tests = {t["name"]: t for t in results["tests"]}
    assert tests[HIDDEN]["visibility"] == "hidden" and tests[HIDDEN]["max_score"] == 5
    assert "1 more claim is graded and never shown" in results["output"]  # hidden: never


def test_a_wrong_submission_loses_the_points_of_what_it_gets_wrong(layout, correct_source):
    wrong = correct_source + (
        "\n\n_right_softmax = softmax_temperature\n\n\n"
        "def softmax_temperature(logits, temperature):\n"
        "    return _right_softmax(logits, 2 * temperature)  # T doubled\n"
    )
    results = run_autograder(layout, ("my_impl.py", wrong))

    assert gradescope_problems(results) == []
    assert 0 < results["score"] < results["max_score"]
    failed = {t["name"] for t in results["tests"] if t["score"] < t["max_score"]}
    assert "temperature.table" in failed and "contract.softmax-temperature" in failed
    assert "softmax_temperature" in "".join(t["output"] for t in results["tests"])


@pytest.mark.parametrize(
    ("source", "said"),
    [
        ("def softmax_temperature(logits, temperature):\n    return logits /\n", "SyntaxError"),
        ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n", "killed by SIGKILL"),
        ("import os\nos._exit(0)\n", "exited while the file was imported"),
    ],
    ids=["syntax-error", "kills-its-worker", "exits-at-import"],
)
def test_a_broken_submission_still_gets_results_with_score_0_and_why(layout, source, said):
    results = run_autograder(layout, ("my_impl.py", source))

    assert gradescope_problems(results) == []
    assert results["score"] == 0
    assert said in results["output"]
    assert results["tests"] and all(said in t["output"] for t in results["tests"])


def test_a_folder_with_helper_modules_is_judged_by_its_only_top_level_file(layout, correct_source):
    results = run_autograder(
        layout,
        ("my_impl.py", correct_source + "\nfrom helpers.scale import double  # noqa: E402\n"),
        ("helpers/__init__.py", ""),
        ("helpers/scale.py", "def double(x):\n    return 2 * x\n"),
    )

    assert gradescope_problems(results) == []
    assert results["score"] == results["max_score"]


def test_a_file_named_like_an_option_is_judged(layout):
    """The entry reaches the engine as one argument (--entry=NAME): '-solution.py' was read
    as an option and the learner got 0 with the grader's own usage error (an attack round).
    Here the file exits at import: what the result says is about the file, not the grader's
    command line (judging a whole correct file here would only repeat the tests above)."""
    results = run_autograder(layout, ("-solution.py", "import os\nos._exit(0)\n"))

    assert gradescope_problems(results) == []
    assert "exited while the file was imported" in results["output"], results["output"]
    assert "--entry" not in results["output"]


def test_a_file_name_that_is_not_utf8_still_gets_a_result_saying_it(layout, correct_source):
    """Two files, one named with a byte no UTF-8 holds: the result says so with the byte
    escaped; writing it raised UnicodeEncodeError and left no results.json (an attack
    round)."""
    results = run_autograder(
        layout, ("a.py", correct_source), (os.fsdecode(b"b\xff.py"), correct_source)
    )

    assert gradescope_problems(results) == []
    assert results["score"] == 0
    assert "a.py, b\\udcff.py" in results["output"]


def test_an_entry_inside_a_folder_named_like_a_python_file_is_judged(layout, correct_source):
    """submission/x.py/my_impl.py: the engine read the folder x.py as a class, wrote its
    Gradescope results as a folder, and the autograder's fallback then failed on that folder
    (IsADirectoryError, no results.json: an attack round, 2026-12-07)."""
    results = run_autograder(layout, ("x.py/my_impl.py", correct_source))

    assert gradescope_problems(results) == []
    assert results["score"] == results["max_score"]


def test_the_fallback_result_replaces_whatever_is_in_its_place(tmp_path):
    """Every submission gets a results.json, whatever the engine left where it goes."""
    from runner.bundle.autograder import write_fallback

    results = tmp_path / "results.json"
    (results / "inside").mkdir(parents=True)
    (tmp_path / "results.json.tmp").mkdir()
    write_fallback(results, "no result", 0.0)
    assert json.loads(results.read_text(encoding="utf-8"))["output"] == "no result"
    assert not (tmp_path / "results.json.tmp").exists()


def test_no_engine_still_gives_a_result(layout, tmp_path):
    (layout / "results").mkdir(exist_ok=True)
    shutil.rmtree(layout / "submission", ignore_errors=True)
    (layout / "submission").mkdir()
    (layout / "submission" / "my_impl.py").write_text("x = 1\n", encoding="utf-8")
    bare = tmp_path / "python"  # a Python without the engine (setup.sh failed)
    bare.symlink_to(shutil.which("python3") or sys.executable)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(AUTOGRADER_ROOT=str(layout), LEARN_LLM_PYTHON=str(bare), PYTHONNOUSERSITE="1")
    done = subprocess.run([str(layout / "source" / "run_autograder")], cwd=layout, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = json.loads((layout / "results" / "results.json").read_text(encoding="utf-8"))
    assert gradescope_problems(results) == []
    assert results["score"] == 0 and "could not judge" in results["output"]


# -- finding the learner's file ---------------------------------------------------------------
WORDS = {
    "no_submission": "no submission",
    "not_python": "not python: {name}",
    "no_python": "no python",
    "no_entry": "no {name}",
    "several": "{n} files: {names}",
    "too_many": "more than {n}",
}


@pytest.mark.parametrize(
    ("files", "entry", "found"),
    [
        (["mine.py"], None, "mine.py"),
        (["mine.py", "lib/util.py"], None, "mine.py"),
        (["src/mine.py"], None, "src/mine.py"),
        (["a.py", "b.py"], None, "2 files: a.py, b.py"),
        (["a.py", "b.py"], "b.py", "b.py"),
        (["x/b.py", "b.py"], "b.py", "b.py"),
        (["a.py"], "b.py", "no b.py"),
        (["notes.txt"], None, "no python"),
        (["__pycache__/mine.py", ".git/hook.py", "mine.py"], None, "mine.py"),
        # a hidden file is no entry the engine takes
        ([".mine.py", "mine.py"], None, "mine.py"),
        ([".mine.py"], None, "no python"),
        # without a named entry, my_impl.py beside a helper, as run --impl FOLDER takes it
        (["my_impl.py", "helper.py"], None, "my_impl.py"),
    ],
)
def test_the_learners_file_in_a_submission_folder(tmp_path, files, entry, found):
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x = 1\n", encoding="utf-8")

    path, problem = autograder.find_entry(tmp_path, entry, WORDS)

    assert (str(path.relative_to(tmp_path)) if path else problem) == found


def test_the_autograders_default_entry_is_the_engines():
    from runner.learner.staging import DEFAULT_ENTRY

    assert autograder.DEFAULT_ENTRY == DEFAULT_ENTRY


def test_a_link_is_never_the_learners_file(tmp_path):
    secret = tmp_path / "secret.py"
    secret.write_text("hidden = 1\n", encoding="utf-8")
    submission = tmp_path / "submission"
    submission.mkdir()
    (submission / "mine.py").symlink_to(secret)

    assert autograder.find_entry(submission, None, WORDS) == (None, "no python")
    assert autograder.find_entry(submission / "mine.py", None, WORDS) == (None, "no submission")


# -- misuse -----------------------------------------------------------------------------------
def test_a_wheel_that_is_not_the_engines_is_refused(cli, tmp_path):
    other = tmp_path / "other-1.0-py3-none-any.whl"
    other.write_bytes(b"PK")
    result = cli("bundle", "gradescope", str(MODULE), "--wheel", str(other),
                 "--out", str(tmp_path / "a.zip"))  # fmt: skip
    assert (result.code, result.out) == (2, "")
    assert "not a wheel of learn-llm-claims" in result.err
    assert not (tmp_path / "a.zip").exists()


def test_a_pack_the_wheel_lacks_is_refused(cli, tmp_path):
    """Chapter 23's pack is an installed entry point; a wheel without its code would leave
    the container without it."""
    wheel = tmp_path / "learn_llm_claims-0.0.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("runner/__init__.py", "")
        z.writestr("learn_llm_claims-0.0.0.dist-info/METADATA", "Name: learn-llm-claims\n")
    result = cli("bundle", "gradescope", str(MODULE), "--wheel", str(wheel),
                 "--out", str(tmp_path / "a.zip"))  # fmt: skip
    assert result.code == 2
    assert "its pack design-tradeoffs is installed from elsewhere" in result.err


@pytest.mark.parametrize("entry", ["../x.py", "mine.txt", "dir/mine.py"])
def test_an_entry_that_is_not_a_file_name_is_refused(cli, tmp_path, entry):
    result = cli("bundle", "gradescope", str(MODULE), "--entry", entry,
                 "--out", str(tmp_path / "a.zip"))  # fmt: skip
    assert result.code == 2 and "--entry" in result.err


def test_an_installed_engine_bundles_itself(layout, tmp_path):
    """In a course repository the engine is an installed wheel with no checkout: the bundle
    packs that installation back into a wheel with the same files."""
    python = layout / "venv" / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    done = subprocess.run(
        [str(python), "-m", "runner", "bundle", "gradescope", str(MODULE), "--out", "again.zip",
         "--lang", "en"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "again.zip") as z:
        config = json.loads(z.read("bundle.json"))
        repacked = z.read(f"wheels/{config['engine']['wheel']}")
    assert config["engine"]["from"] == "installed"
    (original,) = (layout / "source" / "wheels").glob("*.whl")
    (tmp_path / "repacked.whl").write_bytes(repacked)

    def files(path: Path) -> dict[str, bytes]:
        with zipfile.ZipFile(path) as z:
            return {n: z.read(n) for n in z.namelist() if not n.endswith("/RECORD")}

    assert files(tmp_path / "repacked.whl") == files(original)


def test_a_folder_thousands_deep_still_lets_the_learners_file_be_found(tmp_path):
    """os.walk recurses on Python 3.11: a submission 1,500 folders deep ended the autograder
    in a RecursionError, and Gradescope got no results.json at all."""
    (tmp_path / "mine.py").write_text("x = 1\n", encoding="utf-8")
    deep_folder(tmp_path, 1500)
    try:
        path, problem = autograder.find_entry(tmp_path, None, WORDS)
    finally:
        remove_tree(str(tmp_path / "d"))  # pytest's own clean-up recurses too

    assert (path, problem) == (tmp_path / "mine.py", "")


def test_at_the_deadline_the_result_written_before_the_later_claims_stands(tmp_path, monkeypatch):
    """A file whose hidden call slept past the 540 s deadline got the autograder's own
    result (score 0, a deadline message, no tests) in place of its visible tests, and one
    that did not sleep its normal result: a bit of the hidden input per submission (an attack
    round, 2026-12-07). The engine writes its result so far before each later phase; at the
    deadline that result stands, its later claims not judged."""
    import subprocess

    results = tmp_path / "results.json"
    written = {"score": 3.0, "output": "3 passed", "tests": [{"name": "a", "score": 3.0}]}

    def slow(command, **kwargs):
        results.write_text(json.dumps(written), encoding="utf-8")  # the phase before
        raise subprocess.TimeoutExpired(command, kwargs["timeout"], b"", b"")

    monkeypatch.setattr(autograder.subprocess, "run", slow)
    config = {"messages": {**WORDS, "deadline": "stopped at {seconds} s"}, "modules": [],
              "lang": "en", "deadline_s": 540}  # fmt: skip
    assert autograder.judge(tmp_path / "x.py", tmp_path, config, results) is None
    assert json.loads(results.read_text(encoding="utf-8")) == written

    def stopped_before(command, **kwargs):  # nothing written: the deadline is said
        raise subprocess.TimeoutExpired(command, kwargs["timeout"], b"", b"")

    monkeypatch.setattr(autograder.subprocess, "run", stopped_before)
    assert autograder.judge(tmp_path / "x.py", tmp_path, config, results) == "stopped at 540 s"


def test_a_learner_judged_alone_in_phases_hands_out_its_result_before_each_later_one(tmp_path):
    """What the engine hands the grader's writer before the hidden phase: every visible
    claim judged, the hidden one not judged yet."""
    import shutil

    from runner import api

    claims = tmp_path / "claims" / MODULE.name
    shutil.copytree(MODULE, claims, ignore=shutil.ignore_patterns("coverage"))
    card = claims / "1-support.yaml"
    text = card.read_text(encoding="utf-8")
    seen = "  - id: support.gpt2-vocab-32-ctx\n"
    card.write_text(text.replace(seen, seen + "    visibility: hidden\n"), encoding="utf-8")
    import contextlib
    import io

    from runner.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["scaffold", MODULE.name, "--reference", "--claims", str(MODULE)]) == 0
    learner = tmp_path / "ref.py"
    learner.write_text(out.getvalue(), encoding="utf-8")
    handed: list[api.Run] = []
    options = api.RunOptions(pattern="support.gpt2", on_phase=handed.append)
    packs = api.load_claims([claims])
    final = api.run_packs(packs, api.LearnerFile(learner), options)
    (before,) = handed
    statuses = {r.id: (r.status, r.reason.code if r.reason else None) for r in before.results}
    assert statuses["support.gpt2-vocab-32-ctx"] == ("error", "claim.not_judged_in_time")
    assert statuses["support.gpt2-vocab-1000-ctx"][0] == "passed"
    assert {r.id: r.status for r in final.results} == {
        "support.gpt2-vocab-1000-ctx": "passed",
        "support.gpt2-vocab-32-ctx": "passed",
    }
