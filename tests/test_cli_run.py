"""The command line end to end, on a copy of the real claim pack in ``tmp_path``.

Every test runs from ``tmp_path`` (so printed paths are short and relative) against
``claims/`` copied there, writing to ``ev/``: nothing in the repository is touched. Evidence
records the project's own commit, which the in-process runner finds from ``/work/main``.
"""

from __future__ import annotations

import getpass
import json
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from runner import api
from runner.load import load_packs
from runner.record import drift
from runner.run import functions_of
from tests.conftest import CLAIMS, N_CLAIMS, REGISTRY, ROOT, VERSION, claim_ids, cli_in_process

MODULE_ID = "23-design-tradeoffs"
CURRENT = f"{MODULE_ID}-v{VERSION}.json"  # the claim pack's version
NEXT = f"{MODULE_ID}-v{VERSION + 1}.json"
MANIFEST = "module-manifest-v1.json"
CLAIM_IDS = claim_ids()
N = N_CLAIMS
NOT_WRITTEN_PARTIAL = "evidence not written: only some claims ran (-k or single files)"
# what the command line does with a run's results: the claims computed once (conftest)
pytestmark = pytest.mark.usefixtures("claims_computed_once")
KINDS = {
    kind: sum(c.claim.kind == kind for c in load_packs([CLAIMS / "23-design-tradeoffs"])[0].claims)
    for kind in ("proposition", "contract")
}


@pytest.fixture(scope="module")
def evidence_validator():
    schema = json.loads((ROOT / "schemas" / "learn-llm.evidence.v1.json").read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture(scope="module")
def course_repo(tmp_path_factory):
    """A course repository holding a copy of ``claims/``, committed once: each test works
    in a copy of it (its .git too, so every copy is at the same commit)."""
    repo = tmp_path_factory.mktemp("course")
    shutil.copytree(CLAIMS, repo / "claims")
    git_commit_all(repo)
    return repo


@pytest.fixture(scope="module")
def recorded_ev(course_repo, tmp_path_factory):
    """``ev/`` as a passing run of the whole pack writes it, at the course's commit: run
    once, copied into each test that starts from a run already written."""
    here = tmp_path_factory.mktemp("ran")
    shutil.copytree(course_repo, here, symlinks=True, dirs_exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(here)
        patch.setenv("LEARN_LLM_LANG", "en")
        result = cli_in_process()("run", "claims/", "--out", "ev")
    assert result.code == 0, result.out + result.err
    return here / "ev"


@pytest.fixture
def work(tmp_path, monkeypatch, course_repo):
    """``tmp_path`` as a course repository holding a copy of ``claims/`` (committed), and
    the current directory: evidence records this repository's commit."""
    shutil.copytree(course_repo, tmp_path, symlinks=True, dirs_exist_ok=True)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def git_commit_all(repo: Path) -> str:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
        ).stdout.strip()

    if not (repo / ".git").exists():
        git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "claims", "--allow-empty")
    return git("rev-parse", "HEAD")


@pytest.fixture
def module_dir(work):
    return work / "claims" / MODULE_ID


@pytest.fixture
def ran(work, recorded_ev):
    """A passing run already written to ``ev/`` (a copy of the one run at this commit)."""
    shutil.copytree(recorded_ev, work / "ev")
    return work / "ev"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def not_run(*args: object, **kwargs: object) -> None:
    raise AssertionError("the claims ran before the misuse was refused")


def snapshot(directory: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def load(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


# -- a passing run --------------------------------------------------------------------------
def test_passing_run_prints_a_line_per_claim_and_writes_evidence(cli, work, evidence_validator):
    result = cli("run", "claims/", "--out", "ev")

    assert result.code == 0, result.err
    assert result.err == ""
    lines = result.out.splitlines()
    assert lines[0].startswith(f"{MODULE_ID} v{VERSION} · ")
    assert lines[0].endswith(" · the reference implementation")
    claim_lines = lines[1:-4]
    assert [line.split()[:2] for line in claim_lines] == [["passed", i] for i in CLAIM_IDS]
    faults = len(load_packs([CLAIMS])[0].faults)
    assert lines[-4:] == [
        f"faults: all {faults} caught, each as its faults.yaml says (inject --all lists them)",
        f"{N} passed, 0 failed",
        f"wrote ev/{CURRENT}",
        f"wrote ev/{MANIFEST}",
    ]

    ev = work / "ev"
    assert sorted(p.name for p in ev.iterdir()) == [CURRENT, MANIFEST]  # no temporary files left
    doc = load(ev / CURRENT)
    assert list(evidence_validator.iter_errors(doc)) == []
    assert doc["module"] == MODULE_ID
    assert doc["summary"] == {
        "passed": N,
        "failed": 0,
        "error": 0,
        "skipped": 0,
        "total": N,
        "points": float(N),
        "max_points": float(N),
        "by_kind": {
            kind: {
                "passed": n,
                "failed": 0,
                "error": 0,
                "skipped": 0,
                "total": n,
                "points": float(n),
                "max_points": float(n),
            }
            for kind, n in KINDS.items()
        },
    }
    assert [c["id"] for c in doc["claims"]] == CLAIM_IDS
    assert doc["known_failures"] == []
    assert doc["commands"] == ["python -m runner run claims/"]
    assert re.fullmatch(r"[0-9a-f]{40}", doc["commit"])
    assert doc["claim_pack"]["version"] == VERSION

    assert load(ev / MANIFEST) == {
        "schema": "learn-llm.module-manifest.v1",
        "modules": {
            MODULE_ID: {
                "evidence": f"ev/{CURRENT}",
                "version": VERSION,
                "claim_pack_sha256": doc["claim_pack"]["sha256"],
            }
        },
    }


def test_json_format_parses_and_carries_the_exit_code(cli, work, evidence_validator):
    result = cli("run", "claims/", "--out", "ev", "--format", "json")

    assert result.code == 0, result.err
    payload = json.loads(result.out)
    assert payload["exit_code"] == 0
    assert payload["written"] == [f"ev/{CURRENT}", f"ev/{MANIFEST}"]
    assert payload["drift"] == [] and payload["notes"] == []
    [module] = payload["results"]
    assert module["module"] == MODULE_ID
    assert [c["status"] for c in module["claims"]] == ["passed"] * N
    [doc] = payload["evidence"]
    assert list(evidence_validator.iter_errors(doc)) == []
    assert doc == load(work / "ev" / CURRENT)


def test_environment_names_no_host_user_or_home(cli, work, ran):
    text = (ran / CURRENT).read_text(encoding="utf-8")
    env = json.loads(text)["environment"]

    assert set(env) == {
        "python",
        "implementation",
        "numpy",
        "platform",
        "blas",
        "blas_kernel",
        "blas_threads",
    }
    secrets = {socket.gethostname(), getpass.getuser(), str(Path.home())}
    for key, value in env.items():
        for secret in secrets:
            assert secret not in value, f"environment.{key} = {value!r} contains {secret!r}"
    # no absolute path anywhere in the document either
    assert str(Path.home()) + "/" not in text
    assert str(work) not in text
    assert str(ROOT) not in text


# -- -k -------------------------------------------------------------------------------------
def test_k_runs_only_matching_claims_and_writes_nothing(cli, work):
    result = cli("run", "claims/", "--out", "ev", "-k", "temperature")

    assert result.code == 0, result.err
    lines = result.out.splitlines()
    # a substring, anywhere in the id or in the name of a function the claim calls
    chosen = [
        c.claim.id
        for c in load_packs([CLAIMS / MODULE_ID])[0].claims
        if "temperature" in c.claim.id or any("temperature" in f for f in functions_of(c, REGISTRY))
    ]
    assert "review.low-temperature" in chosen and "sampling.greedy" in chosen  # it calls one
    assert len(chosen) < N
    assert [line.split()[1] for line in lines[1:-2]] == chosen
    assert lines[-2:] == [f"{len(chosen)} passed, 0 failed", NOT_WRITTEN_PARTIAL]
    assert not (work / "ev").exists()


def test_k_accepts_a_glob(cli, work):
    result = cli("run", "claims/", "--out", "ev", "-k", "*.gpt2-*")

    assert result.code == 0, result.err
    ids = [line.split()[1] for line in result.out.splitlines()[1:-2]]
    assert ids == [
        "support.gpt2-vocab-1000-ctx",
        "support.gpt2-vocab-32-ctx",
        "operators.gpt2-real-config",
    ]


def test_k_without_a_match_is_misuse(cli, work):
    result = cli("run", "claims/", "--out", "ev", "-k", "no-such-claim")

    assert result.code == 2
    assert result.err == "error: no claim matches -k 'no-such-claim'\n"
    assert result.out == ""
    assert not (work / "ev").exists()


def test_a_single_claim_file_runs_but_writes_nothing(cli, work):
    result = cli("run", f"claims/{MODULE_ID}/7-top-k.yaml", "--out", "ev")

    assert result.code == 0, result.err
    assert result.out.splitlines()[-2:] == ["1 passed, 0 failed", NOT_WRITTEN_PARTIAL]
    assert not (work / "ev").exists()


# -- failures and errors --------------------------------------------------------------------
def test_wrong_expected_value_fails_and_shows_the_numbers(cli, work, module_dir):
    edit(module_dir / "1-support.yaml", "value: 4701.20", "value: 4702.20")

    result = cli("run", "claims/", "--out", "ev")

    assert result.code == 1
    lines = result.out.splitlines()
    i = lines.index("  FAILED   support.gpt2-vocab-1000-ctx               stage 1")
    assert lines[i + 1].startswith("           With V=50257 and T=1000 there are 10^4701.20")
    assert lines[i + 2] == "           support_log10: expected 4702.20 ± 0.005, actual 4701.20"
    assert lines[i + 3].split()[:2] == ["passed", "support.gpt2-vocab-32-ctx"]
    assert f"{N - 1} passed, 1 failed" in lines
    doc = load(work / "ev" / CURRENT)  # a failing run is still evidence
    assert doc["known_failures"] == ["support.gpt2-vocab-1000-ctx: failed"]
    [metric] = [m for m in doc["metrics"] if m["name"] == "support_log10_gpt2_vocab_1000_ctx"]
    assert metric["verdict"] == "failed" and metric["expected"] == 4702.2


def test_one_failing_claim_in_chinese_and_in_english(cli, work, module_dir):
    """The same failure in both languages: words change, ids, numbers and paths do not."""
    edit(module_dir / "7-top-k.yaml", "value: 2\n", "value: 3\n")
    one_file = str(module_dir / "7-top-k.yaml")
    zh = cli("run", one_file, "--out", "ev", "--lang", "zh")
    en = cli("run", one_file, "--out", "ev", "--lang", "en")
    assert zh.code == en.code == 1
    assert zh.out.splitlines()[1:5] == [
        "  失败     topk.renormalize  阶段六",
        "           [0.4, 0.3, 0.15, 0.1, 0.05] 取 k=2 得 [0.571429, 0.428571, 0, 0, 0]："
        "被丢弃项是构造出来的精确 0，幸存项重新缩放到和为 1。",
        "           kept：期望 = 3，实际 2",
        "通过 0，失败 1",
    ]
    assert en.out.splitlines()[1:5] == [
        "  FAILED   topk.renormalize  stage 6",
        "           [0.4, 0.3, 0.15, 0.1, 0.05] with k = 2 gives [0.571429, 0.428571, 0, 0, 0]: "
        "the dropped entries are exact zeros by construction and the survivors are rescaled "
        "to sum to 1.",
        "           kept: expected = 3, actual 2",
        "0 passed, 1 failed",
    ]


def test_failing_run_in_json_has_exit_code_1(cli, work, module_dir):
    edit(module_dir / "7-top-k.yaml", "value: 2\n", "value: 3\n")

    result = cli("run", "claims/", "--out", "ev", "--format", "json")

    assert result.code == 1
    payload = json.loads(result.out)
    assert payload["exit_code"] == 1
    statuses = {c["id"]: c["status"] for c in payload["results"][0]["claims"]}
    assert statuses["topk.renormalize"] == "failed"
    assert sum(s == "passed" for s in statuses.values()) == N - 1


BOOM_CLAIM = """\
proposition: 9
stage: {zh: 测试, en: test}
title: {zh: 会抛错的检查, en: a check that raises}
claims:
  - id: test.boom
    statement: {zh: 抛错, en: raises}
    check: test_boom_check
    inputs: {n: 3}
    expect:
      - measure: x
        value: 1
        tolerance: {kind: exact}
        source: "test"
"""


@pytest.fixture
def boom_check():
    """A throwaway check that raises, registered only for the test."""

    def boom(impl, n: int):
        raise RuntimeError(f"a first line\nthe last line, n={n}")

    REGISTRY.check("test_boom_check", needs=(), measures=("x",))(boom)
    yield
    REGISTRY.checks.pop("test_boom_check")


def test_check_that_raises_is_an_error_and_the_others_still_run(cli, work, module_dir, boom_check):
    (module_dir / "9-boom.yaml").write_text(BOOM_CLAIM, encoding="utf-8")

    result = cli("run", "claims/", "--out", "ev")

    assert result.code == 1
    lines = result.out.splitlines()
    i = next(n for n, line in enumerate(lines) if "test.boom" in line)
    assert lines[i].split()[:2] == ["ERROR", "test.boom"]
    assert lines[i + 1].strip() == "raises"  # its statement (en)
    # the exception's last line, at the pack's line that raised it (a maintainer's to fix)
    assert re.fullmatch(
        r"RuntimeError: the last line, n=3 \(test_cli_run\.py:\d+\)", lines[i + 2].strip()
    )
    assert sum(line.split()[0] == "passed" for line in lines[1:] if line.startswith("  ")) == N
    assert f"{N} passed, 0 failed, 1 error" in lines
    doc = load(work / "ev" / CURRENT)
    assert any(
        line.startswith("test.boom: error: RuntimeError: the last line, n=3 (test_cli_run.py:")
        for line in doc["known_failures"]
    )
    assert doc["summary"]["error"] == 1


# -- --check and drift ----------------------------------------------------------------------
@pytest.mark.computed_afresh
def test_check_right_after_a_run_finds_no_drift(cli, ran):
    before = snapshot(ran)

    result = cli("run", "claims/", "--out", "ev", "--check")

    assert result.code == 0, result.out + result.err
    assert result.out.splitlines()[-2:] == [
        f"{N} passed, 0 failed",
        "no drift: the evidence in ev/ matches this run (the files there, committed or not)",
    ]
    assert snapshot(ran) == before  # --check writes nothing


@pytest.mark.computed_afresh
def test_check_of_the_module_by_another_path_finds_no_drift(cli, ran):
    """Recorded by ``run claims/``, checked by ``run claims/<module>/``: the same module
    measured again; the command recorded (provenance) is not what --check compares."""
    result = cli("run", f"claims/{MODULE_ID}/", "--out", "ev", "--check")

    assert result.code == 0, result.out + result.err
    assert (
        result.out.splitlines()[-1]
        == "no drift: the evidence in ev/ matches this run (the files there, committed or not)"
    )


def test_check_reports_an_edited_actual_as_drift(cli, ran):
    doc = load(ran / CURRENT)
    assert doc["metrics"][0]["name"] == "support_log10_gpt2_vocab_1000_ctx"
    measured = doc["metrics"][0]["actual"]
    doc["metrics"][0]["actual"] = 4701.25
    (ran / CURRENT).write_text(
        json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    before = snapshot(ran)

    result = cli("run", "claims/", "--out", "ev", "--check")

    assert result.code == 1
    drift = [line for line in result.out.splitlines() if line.startswith("drift")]
    assert drift == [
        f"drift: ev/{CURRENT}: $.metrics[0].actual: recorded 4701.25, now {json.dumps(measured)}"
    ]
    assert "no drift" not in result.out
    assert snapshot(ran) == before


def test_check_ignores_verified_at_and_timings(cli, ran):
    doc = load(ran / CURRENT)

    def retime(node):
        if isinstance(node, dict):
            return {k: 12345.678 if k == "duration_ms" else retime(v) for k, v in node.items()}
        if isinstance(node, list):
            return [retime(v) for v in node]
        return node

    doc = retime(doc)
    doc["verified_at"] = "2000-01-01T00:00:00Z"
    assert doc["claims"][0]["duration_ms"] == 12345.678
    (ran / CURRENT).write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")

    result = cli("run", "claims/", "--out", "ev", "--check")

    assert result.code == 0, result.out
    assert (
        "no drift: the evidence in ev/ matches this run (the files there, committed or not)"
        in result.out
    )


# -- idempotent evidence --------------------------------------------------------------------
def stamps(directory: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in sorted(directory.iterdir())}


def test_a_run_that_asserts_nothing_new_leaves_the_evidence_untouched(cli, ran):
    """Another run measures again (another verified_at, other timings) and asserts the same:
    neither the evidence nor the manifest is written, not even to the same bytes."""
    before = stamps(ran)

    result = cli("run", "claims/", "--out", "ev")

    assert result.code == 0, result.err
    assert result.out.splitlines()[-3:] == [
        f"{N} passed, 0 failed",
        f"unchanged: ev/{CURRENT} already records what this run asserts",
        f"unchanged: ev/{MANIFEST} already records what this run asserts",
    ]
    assert stamps(ran) == before
    # the command is provenance: naming the module's folder measures the same module
    module = cli("run", f"claims/{MODULE_ID}/", "--out", "ev")
    assert module.out.splitlines()[-2] == (
        f"unchanged: ev/{CURRENT} already records what this run asserts"
    ), module.out
    assert stamps(ran) == before
    as_json = cli("run", "claims/", "--out", "ev", "--format", "json")
    payload = json.loads(as_json.out)
    assert (payload["written"], payload["unchanged"]) == ([], [f"ev/{CURRENT}", f"ev/{MANIFEST}"])
    assert stamps(ran) == before


def test_the_quick_start_run_leaves_a_clean_checkout(cli, work):
    """The README's first command, run again in a checkout whose evidence was recorded at its
    commit: git status stays clean."""
    first = cli("run", "claims/")
    assert first.code == 0, first.err
    git_commit_all(work)

    again = cli("run", "claims/")

    assert again.code == 0, again.err
    status = subprocess.run(
        ["git", "-C", str(work), "status", "--porcelain"], capture_output=True, text=True
    )
    assert (status.returncode, status.stdout) == (0, "")
    assert f"unchanged: evidence/{CURRENT} already records what this run asserts" in again.out


def test_evidence_that_asserts_less_is_rewritten(cli, ran):
    """Committed evidence missing what a run now records (a field of an older runner) is
    replaced, even though no compared value drifted."""
    doc = load(ran / CURRENT)
    del doc["summary"]["by_kind"]
    doc["verified_at"] = "2000-01-01T00:00:00Z"
    (ran / CURRENT).write_text(json.dumps(doc, indent=2, ensure_ascii=False), encoding="utf-8")
    assert drift(doc, load(ran / CURRENT)) == []
    manifest = (ran / MANIFEST).read_bytes()

    result = cli("run", "claims/", "--out", "ev")

    assert result.code == 0, result.err
    assert result.out.splitlines()[-2:] == [
        f"wrote ev/{CURRENT}",
        f"unchanged: ev/{MANIFEST} already records what this run asserts",
    ]
    assert "by_kind" in load(ran / CURRENT)["summary"]
    assert (ran / MANIFEST).read_bytes() == manifest


def test_check_without_evidence_is_drift(cli, work):
    result = cli("run", "claims/", "--out", "ev", "--check")

    assert result.code == 1
    assert any(
        x.startswith(f"drift: ev/{CURRENT}: no recorded evidence (--out names the evidence")
        for x in result.out.splitlines()
    ), result.out
    assert not (work / "ev").exists()


def test_check_with_k_is_misuse(cli, ran):
    result = cli("run", "claims/", "--out", "ev", "--check", "-k", "topk")

    assert result.code == 2
    assert result.err == (
        "error: --check compares whole modules; drop -k and name module directories\n"
    )


# -- version protection ---------------------------------------------------------------------
def test_changed_expectation_needs_a_new_version(cli, ran, module_dir):
    before = snapshot(ran)
    # wider, so the claim still passes; only its meaning changed
    edit(
        module_dir / "1-support.yaml",
        "tolerance: {kind: close, abs: 0.005}",
        "tolerance: {kind: close, abs: 0.006}",
    )

    result = cli("run", "claims/", "--out", "ev")

    assert result.code == 2
    assert re.fullmatch(
        rf"error: ev/{re.escape(CURRENT)}: records {MODULE_ID} v{VERSION} with other expectations "
        r"\([0-9a-f]{12} ≠ [0-9a-f]{12}\); an existing version keeps its meaning: "
        rf"bump 'version' in claims/{MODULE_ID}/module\.yaml\n",
        result.err,
    ), result.err
    assert snapshot(ran) == before  # old evidence and manifest byte for byte

    edit(module_dir / "module.yaml", f"version: {VERSION}", f"version: {VERSION + 1}")
    result = cli("run", "claims/", "--out", "ev")

    assert result.code == 0, result.err
    assert result.out.splitlines()[0].startswith(f"{MODULE_ID} v{VERSION + 1} · ")
    assert result.out.splitlines()[-2:] == [f"wrote ev/{NEXT}", f"wrote ev/{MANIFEST}"]
    assert (ran / CURRENT).read_bytes() == before[CURRENT]  # the old version keeps its evidence
    doc = load(ran / NEXT)
    assert doc["claim_pack"]["version"] == VERSION + 1
    entry = load(ran / MANIFEST)["modules"][MODULE_ID]
    assert entry == {
        "evidence": f"ev/{NEXT}",  # relative to the repository holding the claims
        "version": VERSION + 1,
        "claim_pack_sha256": doc["claim_pack"]["sha256"],
    }


def test_changed_wording_keeps_the_version(cli, ran, module_dir):
    """Statements and notes are not expectations: the same version is simply rewritten."""
    old = load(ran / CURRENT)
    edit(module_dir / "7-top-k.yaml", 'en: "Top-k: changes', 'en: "Top-k changes')

    result = cli("run", "claims/", "--out", "ev")

    assert result.code == 0, result.err
    new = load(ran / CURRENT)
    assert new["claim_pack"]["expectations_sha256"] == old["claim_pack"]["expectations_sha256"]
    assert new["claim_pack"]["sha256"] != old["claim_pack"]["sha256"]
    assert (
        load(ran / MANIFEST)["modules"][MODULE_ID]["claim_pack_sha256"]
        == new["claim_pack"]["sha256"]
    )


# -- misuse ---------------------------------------------------------------------------------
def test_nonexistent_path_is_misuse(cli, work):
    result = cli("run", "no/such/dir", "--out", "ev")

    assert result.code == 2
    assert result.err == "error: no/such/dir: no such file or directory\n"
    assert result.out == ""
    assert not (work / "ev").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run", "claims/", "--bogus"], "error: not an argument of this command: --bogus"),
        (["run", "--format", "xml"], "error: --format: 'xml' is not one of 'text', 'json'"),
        ([], "error: missing: COMMAND"),
        (["walk"], "error: COMMAND: 'walk' is not one of 'run', 'inject', "),
        (["run", "claims/", "--timeout"], "error: --timeout needs a value"),
        (["inject", "claims/"], "error: one of --fault --list --all is required"),
        (["inject", "--all", "--fault", "x"], "error: --fault cannot be used with --all"),
        (["run", "--lang", "zh", "claims/", "--bogus"], "错误：不是这个命令的参数：--bogus"),
        (["inject", "claims/", "--lang", "zh"], "错误：需要 --fault --list --all 之一"),
    ],
    ids=["unknown-option", "bad-format", "no-command", "unknown-command", "no-value",
         "one-of", "exclusive", "zh-unknown-option", "zh-one-of"],
)  # fmt: skip
def test_bad_arguments_exit_2_without_traceback(cli, work, args, message):
    """argparse's English is read back into our catalogue: the reader's language."""
    result = cli(*args)

    assert result.code == 2
    usage = "用法：" if "zh" in args else "usage: "  # argparse's own words, in the reader's
    assert result.err.startswith(usage + "python -m runner"), result.err
    assert message in result.err.splitlines()[-1]
    assert "Traceback" not in result.err
    assert result.out == ""


@pytest.mark.parametrize(
    "args",
    [["run"], ["inject", "--all"], ["validate", "x.yaml"], ["list"], ["report", "ev", "--html", "x.html"],
     ["bundle", "gradescope"], ["scaffold", "learner.py"]],
    ids=lambda args: args[0],
)  # fmt: skip
def test_an_option_a_command_does_not_know_shows_that_commands_usage(cli, work, args):
    """argparse leaves a subcommand's unknown arguments to the top-level parser, whose usage
    says only ``COMMAND ...``: the reader needs the usage of the command they typed."""
    command = args[0]
    result = cli(*args, "--bogus", "--lang", "en")

    assert result.code == 2
    assert result.err.startswith(f"usage: python -m runner {command} "), result.err
    assert "error: not an argument of this command: --bogus" in result.err.splitlines()[-1]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            "{not json",
            f"error: ev/{MANIFEST}:1: not valid JSON: a key in double quotes was expected",
        ),
        ("[]", f"error: ev/{MANIFEST}: not a module manifest (expected an object with 'modules')"),
    ],
    ids=["not-json", "not-a-manifest"],
)
def test_corrupt_manifest_is_left_alone(cli, work, content, message, monkeypatch):
    monkeypatch.setattr(api, "run_packs", not_run)  # refused before the claims run
    ev = work / "ev"
    ev.mkdir()
    (ev / MANIFEST).write_text(content, encoding="utf-8")

    result = cli("run", "claims/", "--out", "ev")

    assert result.code == 2
    assert result.err == message + "\n"
    assert snapshot(ev) == {MANIFEST: content.encode()}  # unchanged, and no evidence beside it


def test_out_naming_a_file_is_misuse(cli, work, monkeypatch):
    monkeypatch.setattr(api, "run_packs", not_run)  # refused before the claims run
    (work / "ev").write_text("a file, not a directory", encoding="utf-8")

    result = cli("run", "claims/", "--out", "ev")

    assert result.code == 2
    assert result.err == "error: ev: not a directory (--out names where evidence goes)\n"
    assert (work / "ev").read_text(encoding="utf-8") == "a file, not a directory"


def test_evidence_does_not_depend_on_the_language(cli, work, module_dir):
    """A failing module run in Chinese and in English records the same evidence, failure
    details and fault variants included (only verified_at and timings differ)."""
    edit(
        module_dir / "7-top-k.yaml",
        "value: [0.571429, 0.428571, 0.0, 0.0, 0.0]",
        "value: [0.5, 0.5, 0.0, 0.0, 0.0]",
    )
    docs = {}
    for lang in ("zh", "en"):
        result = cli("run", "claims", "--out", f"ev-{lang}", "--lang", lang)
        assert result.code == 1, result.out
        (written,) = [p for p in (work / f"ev-{lang}").glob("23-design-tradeoffs-v*.json")]
        docs[lang] = json.loads(written.read_text(encoding="utf-8"))
    assert drift(docs["zh"], docs["en"]) == []
    details = [
        m["detail"] for c in docs["en"]["claims"] for m in c["measurements"] if m.get("detail")
    ]
    # reasons are recorded as data (a code and numbers), never as words of one language
    assert details and all(set(d) == {"code", "params"} for d in details)
    assert all(d["code"].startswith("judge.") for d in details)


@pytest.mark.parametrize(
    "command",
    [
        ("run", "claims/", "--junit-xml", "claims/{module}/1-support.yaml"),
        ("run", "claims/", "--junit-xml", "./claims/{module}/../{module}/module.yaml"),
        ("run", "claims/", "--impl", "mine.py", "--junit-xml", "mine.py"),
        ("run", "claims/", "--impl", "mine.py", "--gradescope-results", "link.py"),
        ("inject", "--all", "claims/", "--junit-xml", "claims/{module}/faults.yaml"),
        ("report", "ev.json", "--html", "ev.json"),
    ],
    ids=["claim-file", "claim-file-other-spelling", "learner-file", "learner-via-link",
         "faults-file", "report-evidence"],
)  # fmt: skip
def test_an_output_that_names_an_input_is_refused_and_the_input_kept(cli, work, command):
    """--junit-xml, --gradescope-results and --html never overwrite what the command reads
    (a claim file, a learner's file, the evidence), however the path is spelled."""
    (work / "mine.py").write_text("# a learner's file\n", encoding="utf-8")
    (work / "link.py").symlink_to(work / "mine.py")
    shutil.copyfile(ROOT / "evidence" / f"{MODULE_ID}-v{VERSION}.json", work / "ev.json")
    before = {p: p.read_bytes() for p in work.rglob("*") if p.is_file() and ".git" not in p.parts}

    result = cli(*(part.format(module=MODULE_ID) for part in command))

    assert result.code == 2
    assert "is one of this command's inputs" in result.err
    after = {p: p.read_bytes() for p in work.rglob("*") if p.is_file() and ".git" not in p.parts}
    assert after == before


def test_version_is_the_installed_packages(cli):
    from importlib.metadata import version

    result = cli("--version")

    assert result.code == 0
    assert result.out.strip() == f"python -m runner {version('learn-llm-claims')}"


def test_k_shows_no_module_whose_claims_it_left_out(tmp_path):
    """`run claims/ -k softmax.*` over two modules printed chapter 23's header with nothing
    under it (a pack written from the docs found it)."""
    softmax = ROOT / "examples" / "course" / "claims" / "05-softmax"
    done = subprocess.run(
        [sys.executable, "-P", "-m", "runner", "run", str(ROOT / "claims"), str(softmax),
         "-k", "softmax.*", "--out", str(tmp_path), "--lang", "en"],
        capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0].startswith("05-softmax v1 · ")
    assert MODULE_ID not in done.stdout


def test_a_command_run_outside_the_course_says_how_to_name_its_claims(cli, tmp_path, monkeypatch):
    """validate from another folder said only 'claims: no such file or directory' (a pack
    written from the docs found it): it says where the claims are looked for and how to name
    them, for run and validate alike."""
    monkeypatch.chdir(tmp_path)
    hint = (
        "error: claims: no such folder here: run the command in the course's folder, or name "
        "its claims (run PATH, validate --claims PATH, report --claims PATH, "
        "scaffold --claims PATH)\n"
    )
    (tmp_path / "sub.yaml").write_text("schema: learn-llm.evidence.v1\n", encoding="utf-8")
    for args in (("run",), ("validate", "sub.yaml")):
        done = cli(*args, "--lang", "en")
        assert (done.code, done.err) == (2, hint), args
    named = cli("run", "elsewhere/", "--lang", "en")
    assert (named.code, named.err) == (2, "error: elsewhere: no such file or directory\n")


def test_what_a_class_folder_holds_that_is_not_judged_is_said(cli, tmp_path, monkeypatch):
    """A class folder's _dave/, .erin/, bob.PY and a link got no row and no word (an attack
    round): each is named on stderr as not judged; a cache, .git and a README are not."""
    cls = tmp_path / "class"
    cls.mkdir()
    (cls / "alice.py").write_text("x = 1\n", encoding="utf-8")
    for folder in ("_dave", ".erin", "__pycache__", ".git"):
        (cls / folder).mkdir()
        (cls / folder / "my_impl.py").write_text("x = 1\n", encoding="utf-8")
    (cls / "bob.PY").write_text("x = 1\n", encoding="utf-8")
    (cls / "README.md").write_text("hello\n", encoding="utf-8")
    (cls / "carol").symlink_to(cls / "_dave", target_is_directory=True)
    done = cli("run", str(CLAIMS), "--impl", str(cls), "-k", "temperature.table",
               "--out", str(tmp_path / "ev"), "--lang", "en", "-q")  # fmt: skip
    (note,) = [line for line in done.err.splitlines() if line.startswith("note: not judged")]
    assert note.endswith(": .erin/, _dave/, bob.PY, carol/"), note
