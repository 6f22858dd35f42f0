"""Packs as plugins: the engine knows no chapter, a second pack written against the pack
interface alone works end to end from a course repository of its own, and one module's
problem is that module's.

The second pack is ``examples/course/``: chapter 5's softmax and bigram counting, a pack in a
folder beside its claims (``pack: ./pack``), written from scratch, not from chapter 23's.
"""

from __future__ import annotations

import ast
import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from runner import api
from runner.pack import Implementation, Measurements, Pack
from runner.pack.find import forget
from tests.conftest import MODULE, REGISTRY, ROOT

EXAMPLE = ROOT / "examples" / "course" / "claims" / "05-softmax"
LEARNERS = ROOT / "tests" / "data" / "course"
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid"]
# what the engine does with two packs' results: each pack's claims computed once (conftest)
pytestmark = pytest.mark.usefixtures("claims_computed_once")


# -- the engine knows no chapter --------------------------------------------------------------
def chapter_names() -> set[str]:
    """Every name chapter 23's pack and module bring: functions, checks, twins, generators,
    claim ids and the module's id."""
    (pack,) = api.load_claims([MODULE])
    names = set(REGISTRY.subjects) | set(REGISTRY.checks) | set(REGISTRY.twins)
    names |= set(REGISTRY.generators) | {c.claim.id for c in pack.claims} | {pack.meta.id}
    return names


def engine_files() -> list[Path]:
    return sorted(
        p for p in (ROOT / "runner").rglob("*") if p.is_file() and p.suffix in (".py", ".json")
    )


def test_no_name_of_chapter_23_appears_in_the_engine():
    names = chapter_names()
    assert len(names) > 100
    found = []
    for path in engine_files():
        if path.parent.name == "schemas":
            continue  # generated from the models
        text = path.read_text(encoding="utf-8")
        # the regex only where the name is in the text at all (a substring search is cheap;
        # the regex over every file for every name took seconds)
        for name in (n for n in names if n in text):
            if re.search(rf"(?<![A-Za-z0-9_.-]){re.escape(name)}(?![A-Za-z0-9_-])", text):
                found.append(f"{path.relative_to(ROOT)}: {name}")
    assert found == []


def test_the_engine_imports_no_pack():
    for path in (ROOT / "runner").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] != "checks", path
            if isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] != "checks" for a in node.names), path


def test_no_registry_lives_at_module_level_in_the_engine():
    """Registries are passed, not global: no module of the engine holds one."""
    for path in (ROOT / "runner").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                assert value.func.id not in ("Registry", "Pack"), path


# -- two packs, one engine --------------------------------------------------------------------
def _pack_module(tmp_path: Path, module_id: str, pack_name: str, constant: float) -> Path:
    """A module whose pack (given to the loader by name) has a subject ``f`` returning
    ``constant``, and a claim expecting it."""
    directory = tmp_path / module_id
    directory.mkdir()
    (directory / "module.yaml").write_text(
        f"id: {module_id}\ntitle: {{zh: 模块, en: module}}\nversion: 1\n"
        f"chapter: chapter.txt\npack: {pack_name}\n",
        encoding="utf-8",
    )
    (directory / "chapter.txt").write_text("第 1 章\n", encoding="utf-8")
    (directory / "1-f.yaml").write_text(
        "proposition: 1\nstage: {zh: 阶段一, en: stage 1}\ntitle: {zh: f, en: f}\nclaims:\n"
        "  - id: f.value\n    statement: {zh: f 的值, en: the value of f}\n"
        "    check: value_of_f\n    expect:\n"
        f"      - measure: value\n        value: {constant}\n"
        "        tolerance: {kind: close, abs: 1.0e-12}\n        source: test\n",
        encoding="utf-8",
    )
    return directory


def _constant_pack(name: str, constant: float) -> Pack:
    pack = Pack(name, code=())

    @pack.subject("f")
    def f() -> float:
        return constant

    @pack.check("value_of_f", needs=("f",), measures=("value",))
    def value_of_f(impl: Implementation) -> Measurements:
        return {"value": impl["f"]()}

    return pack


def test_two_packs_may_register_the_same_names_without_clashing(tmp_path):
    one, two = _constant_pack("one", 1.0), _constant_pack("two", 2.0)
    modules = [
        _pack_module(tmp_path, "m-one", "one", 1.0),
        _pack_module(tmp_path, "m-two", "two", 2.0),
    ]
    packs = api.load_claims(modules, packs={"one": one, "two": two})
    assert [p.code.name for p in packs] == ["one", "two"]
    run = api.run_packs(packs, api.Reference())
    assert [(r.id, r.status) for r in run.results] == [("f.value", "passed")] * 2
    assert [r.measurements[0].actual for r in run.results] == [1.0, 2.0]


def test_a_module_whose_pack_cannot_be_found_is_its_own_problem(tmp_path):
    good = _pack_module(tmp_path, "m-good", "one", 1.0)
    _pack_module(tmp_path, "m-lost", "no-such-pack-anywhere", 1.0)
    packs, problems = api.load_each([tmp_path], packs={"one": _constant_pack("one", 1.0)})
    assert [p.directory for p in packs] == [good]
    (problem,) = problems
    assert problem.file.endswith("m-lost/module.yaml") and problem.field == "pack"
    assert problem.message.code == "pack.unknown"


# -- a course repository with two packs -------------------------------------------------------
@pytest.fixture
def course(tmp_path, monkeypatch):
    """A course repository holding chapter 23's module (its installed pack) and chapter 5's
    (its pack beside the claims), committed, as the current directory."""
    repo = tmp_path / "course"
    shutil.copytree(
        MODULE, repo / "claims" / MODULE.name, ignore=shutil.ignore_patterns("coverage")
    )
    shutil.copytree(
        EXAMPLE, repo / "claims" / EXAMPLE.name, ignore=shutil.ignore_patterns("__pycache__")
    )
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=repo, check=True)
    subprocess.run([*GIT, "commit", "-qm", "claims"], cwd=repo, check=True)
    monkeypatch.chdir(repo)
    forget()
    yield repo
    forget()


def test_run_list_and_inject_cover_both_modules(cli, course):
    ran = cli("run", "claims/")
    assert ran.code == 0, ran.err
    assert "05-softmax v1" in ran.out and "23-design-tradeoffs" in ran.out
    written = sorted(p.name for p in (course / "evidence").iterdir())
    assert "05-softmax-v1.json" in written and any(n.startswith("23-design") for n in written)
    evidence = json.loads((course / "evidence" / "05-softmax-v1.json").read_text("utf-8"))
    assert evidence["claim_pack"]["pack"] == "softmax-basics"
    assert evidence["faults"]["score"] == {"caught": 1, "total": 1}

    listed = json.loads(cli("list", "--format", "json").out)
    assert {m["id"]: m["pack"] for m in listed["modules"]} == {
        "05-softmax": "softmax-basics",
        "23-design-tradeoffs": "design-tradeoffs",
    }
    injected = cli("inject", "--all", "claims/05-softmax")
    assert injected.code == 0 and "1/1" in injected.out


def test_modules_of_two_repositories_run_but_are_not_recorded_and_the_reason_is_named(
    cli, course, tmp_path
):
    """A maintainer pointing one run at two checkouts: the claims run, nothing is recorded
    (one commit cannot hold both), and both the note and --check name the folder apart."""
    other = tmp_path / "other"
    shutil.move(course / "claims" / EXAMPLE.name, other / "claims" / EXAMPLE.name)
    subprocess.run(["git", "init", "-q"], cwd=other, check=True)
    subprocess.run([*GIT, "add", "-A"], cwd=other, check=True)
    subprocess.run([*GIT, "commit", "-qm", "claims"], cwd=other, check=True)
    apart = str(other / "claims" / EXAMPLE.name)

    # a few claims of each module: what is (not) recorded does not depend on how many ran
    ran = cli("run", "claims/", apart, "-k", "*softmax*")

    assert ran.code == 0, ran.err
    assert "05-softmax v1" in ran.out and "23-design-tradeoffs" in ran.out
    assert "must be in one git repository, and claims/23-design-tradeoffs is not" in ran.out
    assert f"the one that holds {apart}" in ran.out
    assert not (course / "evidence").exists() and not (other / "evidence").exists()
    checked = cli("run", "claims/", apart, "-k", "*softmax*", "--check", "--lang", "zh")
    assert checked.code == 2 and "同一个 git 仓库" in checked.err and apart in checked.err
    assert "Traceback" not in checked.err


def test_scaffold_of_the_second_pack_carries_its_own_contract(cli, course):
    out = cli("scaffold", "05-softmax", "--lang", "en").out
    assert "Every function leaves its arguments as they were" in out
    assert "operator.index" not in out  # chapter 23's contract is chapter 23's
    tree = ast.parse(out)
    assert [n.name for n in tree.body if isinstance(n, ast.FunctionDef)] == [
        "softmax",
        "bigram_counts",
    ]
    reference = cli("scaffold", "05-softmax", "--reference").out
    assert "itertools.pairwise" in reference and "raise NotImplementedError" not in reference
    (course / "solution.py").write_text(reference, encoding="utf-8")
    judged = cli("run", "claims/05-softmax", "--impl", "solution.py")
    assert judged.code == 0, judged.out


def _both(course: Path, cli, chapter5: str) -> Path:
    """A learner file with chapter 23's reference functions and ``chapter5``'s functions."""
    ch23 = cli("scaffold", "23-design-tradeoffs", "--reference").out
    ch5 = (LEARNERS / chapter5).read_text("utf-8").split('"""', 2)[2]
    path = course / "learner.py"
    path.write_text(ch23 + "\n\n" + ch5, encoding="utf-8")
    return path


def test_a_learner_file_is_judged_by_both_modules(cli, course):
    path = _both(course, cli, "softmax_learner.py")
    result = cli(
        "run", "claims/", "--impl", path.name, "--format", "json", "--gradescope-results", "gs.json"
    )
    assert result.code == 0, result.out[-2000:]
    statuses = {
        c["id"]: c["status"] for m in json.loads(result.out)["results"] for c in m["claims"]
    }
    assert statuses["softmax.contract"] == "passed" and statuses["bigram.abab"] == "passed"
    assert statuses["mask.prefix-softmax"] == "passed"
    _numbered_by_module(json.loads((course / "gs.json").read_text("utf-8")))


def _numbered_by_module(results):
    """Gradescope's tests of two modules: each number begins with its module's place, so no
    two share one (both modules have a proposition 1); the two modules share no claim id,
    so each name is its claim's id as it stands."""
    from runner.load import load_packs

    tests = results["tests"]
    numbers = [t["number"] for t in tests]
    assert len(set(numbers)) == len(numbers) == len({t["name"] for t in tests})
    (softmax,) = load_packs([Path("claims/05-softmax")])
    ids = {c.claim.id for c in softmax.claims}
    first = {t["number"].split(".")[0] for t in tests if t["name"] in ids}
    rest = {t["number"].split(".")[0] for t in tests if t["name"] not in ids}
    assert (first, rest) == ({"1"}, {"2"}), (first, rest)


def test_a_file_that_cannot_load_gets_gradescope_tests_of_both_modules(cli, course):
    (course / "broken.py").write_text("def softmax(:\n", encoding="utf-8")
    result = cli("run", "claims/", "--impl", "broken.py", "--gradescope-results", "gs.json")
    assert result.code == 2
    results = json.loads((course / "gs.json").read_text("utf-8"))
    assert results["score"] == 0 and results["max_score"] > 0
    _numbered_by_module(results)


def test_a_wrong_learner_function_of_the_second_pack_fails_and_is_named(cli, course):
    path = _both(course, cli, "softmax_learner_wraps.py")
    result = cli("run", "claims/05-softmax", "--impl", path.name, "--format", "json")
    assert result.code == 1
    (module,) = json.loads(result.out)["results"]
    claims = {c["id"]: c for c in module["claims"]}
    assert claims["bigram.abab"]["status"] == "failed"
    assert claims["bigram.contract"]["status"] == "failed"
    named = {m["id"] for d in claims["bigram.abab"]["diagnosis"] for m in d["matches"]}
    assert named == {"bigram-wraps-around"}
    assert claims["softmax.contract"]["status"] == "passed"


def test_the_learner_cannot_import_the_second_packs_reference(cli, course):
    pack_dir = course / "claims" / "05-softmax" / "pack"
    path = course / "thief.py"
    path.write_text(
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('ref', {str(pack_dir / 'reference.py')!r})\n"
        "ref = importlib.util.module_from_spec(spec)\n"
        "try:\n    spec.loader.exec_module(ref)\nexcept Exception:\n    ref = None\n"
        "softmax = getattr(ref, 'softmax', None)\n",
        encoding="utf-8",
    )
    result = cli("run", "claims/05-softmax", "--impl", path.name, "--format", "json")
    statuses = {
        c["id"]: c["status"] for m in json.loads(result.out).get("results", []) for c in m["claims"]
    }
    assert statuses.get("softmax.contract") != "passed"


def test_validate_takes_a_learners_evidence_of_both_modules(cli, course):
    path = _both(course, cli, "softmax_learner.py")
    subprocess.run([*GIT, "add", "-A"], cwd=course, check=True)
    subprocess.run([*GIT, "commit", "-qm", "my implementation"], cwd=course, check=True)
    assert cli("run", "claims/", "--impl", path.name).code == 0
    subprocess.run([*GIT, "add", "-A"], cwd=course, check=True)
    subprocess.run([*GIT, "commit", "-qm", "my evidence"], cwd=course, check=True)
    mine = sorted(p.name for p in (course / "evidence").glob("*.learner.json"))
    assert len(mine) == 2 and mine[0].startswith("05-softmax-v1")
    result = cli("validate", *(f"evidence/{m}" for m in mine), "--repo", ".")
    assert result.code == 0, result.out


def test_pytest_collects_the_second_pack_s_claims(course):
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "claims/05-softmax"],
        cwd=course,
        capture_output=True,
        text=True,
        env={**os.environ, "LEARN_LLM_LANG": "en"},
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "4 passed" in result.stdout


def test_a_broken_third_module_does_not_stop_the_other_two(cli, course):
    broken = course / "claims" / "99-broken"
    shutil.copytree(EXAMPLE, broken, ignore=shutil.ignore_patterns("__pycache__", "pack"))
    meta = broken / "module.yaml"
    meta.write_text(
        meta.read_text("utf-8").replace("id: 05-softmax", "id: 99-broken"), encoding="utf-8"
    )
    claims = broken / "1-softmax.yaml"
    claims.write_text(
        claims.read_text("utf-8").replace("check: softmax_properties", "check: softmax_sum"),
        encoding="utf-8",
    )
    result = cli("run", "claims/")
    assert result.code == 2
    assert "05-softmax v1" in result.out and "23-design-tradeoffs" in result.out
    assert "claims/99-broken/module.yaml" in result.err  # its pack is not there
    assert "left out" in result.err
    assert cli("list").code == 2
    listed = cli("list", "--format", "json")
    assert {m["id"] for m in json.loads(listed.out)["modules"]} == {
        "05-softmax",
        "23-design-tradeoffs",
    }
    # the pack of 05-softmax itself (a copy of its code would be a second pack of its name)
    (broken / "pack").symlink_to(course / "claims" / "05-softmax" / "pack")
    again = cli("run", "claims/")
    assert again.code == 2
    assert "claims/99-broken/1-softmax.yaml:" in again.err and "softmax_sum" in again.err
    assert "05-softmax v1" in again.out


def test_a_pack_that_fails_to_import_is_named_with_where(cli, course):
    init = course / "claims" / "05-softmax" / "pack" / "__init__.py"
    init.write_text(
        init.read_text("utf-8") + "\nraise RuntimeError('broken on purpose')\n", "utf-8"
    )
    result = cli("run", "claims/")
    assert result.code == 2
    line = next(x for x in result.err.splitlines() if "05-softmax/module.yaml" in x)
    assert "__init__.py:" in line and "RuntimeError: broken on purpose" in line
    assert "23-design-tradeoffs" in result.out


# -- a local file or folder that takes a name of ours ------------------------------------------
def test_a_local_runner_shadowing_the_engine_is_named_in_one_line(tmp_path):
    (tmp_path / "runner.py").write_text("raise SystemExit('not the engine')\n", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-c", "import learn_llm_claims; learn_llm_claims.main()", "run"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path), "LEARN_LLM_LANG": "en"},
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "error: runner is imported from ./runner.py, not the installed engine "
        f"({ROOT / 'runner'}); rename or move the local runner"
    ]


def test_a_local_package_shadowing_an_installed_pack_is_named(tmp_path, monkeypatch):
    from runner.distributions import EntryPoint
    from runner.pack import find

    site = tmp_path / "site"
    (site / "mypack").mkdir(parents=True)
    (site / "mypack" / "__init__.py").write_text("", encoding="utf-8")
    dist_info = site / "mypack-1.0.dist-info"
    dist_info.mkdir()
    (dist_info / "RECORD").write_text("mypack/__init__.py,,\n", encoding="utf-8")
    local = tmp_path / "course"
    (local / "mypack").mkdir(parents=True)
    (local / "mypack" / "__init__.py").write_text("", encoding="utf-8")
    point = EntryPoint("my-pack", "mypack:pack", dist_info)

    monkeypatch.syspath_prepend(str(local))
    monkeypatch.setattr(find, "installed_packs", lambda: {"my-pack": point})
    monkeypatch.chdir(tmp_path)
    with pytest.raises(find.PackNotFound) as caught:
        find.find_pack("my-pack", tmp_path)
    message = caught.value.message
    assert message.code == "pack.shadowed"
    assert message.params["found"] == "course/mypack/__init__.py"
    assert "mypack" not in sys.modules  # named, never imported in the installed one's place


def test_installed_packs_are_read_from_the_entry_points_files():
    from runner.pack.find import installed_packs

    points = installed_packs()
    assert points["design-tradeoffs"].value == "checks:pack"
    assert points["design-tradeoffs"].dist_info.name.startswith("learn_llm_claims")


def test_a_pack_name_two_installed_distributions_declare_is_refused_naming_both(
    cli, tmp_path, monkeypatch
):
    """Two distributions declaring one pack name: the import path chose one silently (a
    pack author's edited copy ran in place of the course's; only drift showed it)."""
    site = tmp_path / "site"
    for dist in ("norm24_pack-0.1", "norm24_dup-0.2"):
        info = site / f"{dist}.dist-info"
        info.mkdir(parents=True)
        (info / "entry_points.txt").write_text(
            f"[learn_llm_claims.packs]\nnormalization-24 = {dist.split('-')[0]}:pack\n",
            encoding="utf-8",
        )
    monkeypatch.syspath_prepend(str(site))
    module = tmp_path / "24-normalization"
    module.mkdir()
    (module / "module.yaml").write_text(
        "id: 24-normalization\ntitle: {zh: 归一化, en: normalization}\nversion: 1\n"
        "chapter: ch.txt\npack: normalization-24\n",
        encoding="utf-8",
    )
    (module / "ch.txt").write_text("第 24 章\n", encoding="utf-8")
    (module / "1-a.yaml").write_text(
        "proposition: 1\nstage: {zh: 一, en: one}\ntitle: {zh: a, en: a}\nclaims: []\n",
        encoding="utf-8",
    )
    forget()
    for lang, said in (
        ("en", "two installed distributions declare a pack named 'normalization-24' "
               "(norm24_dup 0.2, norm24_pack 0.1)"),
        ("zh", "有两个已安装的发行包都声明了名为 'normalization-24' 的 pack"),
    ):  # fmt: skip
        ran = cli("run", str(module), "--lang", lang)
        assert ran.code == 2, (ran.out, ran.err)
        assert said in ran.err and "Traceback" not in ran.err, ran.err


# -- packs written in other styles --------------------------------------------------------------
SINGLE_FILE_PACK = '''
"""A pack in one file, its checks annotated with types a claim file cannot hold."""
from typing import Any

import numpy as np

from runner.pack import Implementation, Measurements, Pack, attempt

PACK = Pack("one-file")


@PACK.subject("double")
def double(x):
    return np.asarray(x, dtype=np.float64) * 2


@PACK.subject("quadruple", uses=("double",))
def quadruple(x, *, double):
    return double(double(x))


@PACK.check("doubles", needs=("quadruple",), measures=("value", "refused"))
def doubles(impl: Implementation, x: np.ndarray, **options: Any) -> Measurements:
    refused = attempt(impl["quadruple"], "not a number")
    return {"value": np.asarray(impl["quadruple"](x)).tolist(), "refused": refused}


@PACK.twin("double-adds", replaces="double", explanation={"zh": "加了", "en": "adds"},
           where={"zh": "阶段一", "en": "stage 1"})
def double_adds(x):
    return np.asarray(x, dtype=np.float64) + 2


@PACK.mistake("quadruple-triples", replaces="quadruple", explanation={"zh": "三倍", "en": "x3"},
              where={"zh": "阶段一", "en": "stage 1"})
def quadruple_triples(x, *, double):  # takes what quadruple uses, as quadruple does
    return double(x) + np.asarray(x, dtype=np.float64)
'''


def test_a_single_file_pack_with_plain_annotations_and_options_runs(tmp_path):
    module = tmp_path / "07-double"
    module.mkdir()
    (module / "pack.py").write_text(SINGLE_FILE_PACK, encoding="utf-8")
    (module / "module.yaml").write_text(
        "id: 07-double\ntitle: {zh: 加倍, en: doubling}\nversion: 1\nchapter: ch.txt\n"
        "pack: ./pack.py\n",
        encoding="utf-8",
    )
    (module / "ch.txt").write_text("第 7 章\n", encoding="utf-8")
    (module / "1-double.yaml").write_text(
        "proposition: 1\nstage: {zh: 阶段一, en: stage 1}\ntitle: {zh: 加倍, en: doubling}\n"
        "claims:\n  - id: double.four\n    statement: {zh: 四倍, en: four times}\n"
        "    check: doubles\n    inputs: {x: [1.0, 2.0], verbose: true}\n    expect:\n"
        "      - {measure: value, value: [4.0, 8.0], tolerance: {kind: exact}, source: test}\n"
        "      - {measure: refused, tolerance: {kind: raises, error: ValueError}, source: test}\n",
        encoding="utf-8",
    )
    (module / "faults.yaml").write_text(
        "faults:\n  - id: double-adds\n    title: {zh: 加, en: adds}\n    replaces: double\n"
        "    expected_signal: {zh: 错, en: wrong}\n    catchers: [double.four]\n    observed:\n"
        "      - claim: double.four\n        measure: value\n"
        "        value: [5.0, 6.0]\n        tolerance: {kind: exact}\n"
        "        fact: {zh: '{double.four/value}', en: '{double.four/value}'}\n",
        encoding="utf-8",
    )
    forget()
    (pack,) = api.load_claims([module])
    run = api.run_packs([pack], api.Reference())
    assert [r.status for r in run.results] == ["passed"], run.results[0].reason
    (fault,) = run.packs[0].faults or []
    assert fault.caught and fault.observed_as_declared  # a fault reaches its callers (uses)
    # a mistake of a subject that uses another receives it as the reference does
    registry = pack.code.registry
    assert registry.with_fault("quadruple-triples")["quadruple"]([1.0]).tolist() == [3.0]
    # and the scaffold's reference solution has the learner's signature, which runs
    from runner.i18n import catalog
    from runner.learner.scaffold import scaffold

    source = scaffold(pack, catalog("en"), reference=True)
    assert "def quadruple(x):" in source, source
    namespace: dict[str, object] = {}
    exec(compile(source, "scaffold.py", "exec"), namespace)  # our own reference, not a learner's
    assert namespace["quadruple"]([1.0]).tolist() == [4.0]  # type: ignore[operator]


def test_a_path_pack_that_imports_itself_by_name_is_told_how_to_import(tmp_path):
    module = tmp_path / "08-self"
    shutil.copytree(EXAMPLE, module, ignore=shutil.ignore_patterns("__pycache__"))
    checks = module / "pack" / "checks.py"
    checks.write_text(
        checks.read_text("utf-8").replace("from . import pack", "from pack import pack"), "utf-8"
    )
    forget()
    _, problems = api.load_each([module])
    (problem,) = problems
    assert problem.message.code == "pack.absolute_self_import"
    assert "relatively" in problem.render(__import__("runner.i18n").i18n.catalog("en"))


def test_evidence_says_which_pack_code_measured_even_outside_the_course(cli, tmp_path, monkeypatch):
    """An installed pack's code is in no commit of the course: its evidence records a digest
    of that code, so changed pack code is drift, not a silent rewrite of the same version."""
    site = tmp_path / "site"
    shutil.copytree(EXAMPLE / "pack", site / "outside_softmax")
    monkeypatch.syspath_prepend(str(site))
    course = tmp_path / "course"
    shutil.copytree(
        EXAMPLE, course / "claims" / EXAMPLE.name, ignore=shutil.ignore_patterns("pack")
    )
    meta = course / "claims" / EXAMPLE.name / "module.yaml"
    meta.write_text(
        meta.read_text(encoding="utf-8").replace("pack: ./pack", "pack: outside_softmax")
    )
    subprocess.run(["git", "init", "-q", str(course)], check=True)
    subprocess.run(["git", "-C", str(course), "add", "-A"], check=True)
    subprocess.run([*GIT, "-C", str(course), "commit", "-qm", "claims"], check=True)
    monkeypatch.chdir(course)
    assert cli("run", "claims/").code == 0
    (evidence,) = (course / "evidence").glob(f"{EXAMPLE.name}-v*[0-9].json")
    recorded = json.loads(evidence.read_text(encoding="utf-8"))["claim_pack"]["code_sha256"]
    assert re.fullmatch("[0-9a-f]{64}", recorded)
    assert cli("run", "claims/", "--check").code == 0

    reference = site / "outside_softmax" / "reference.py"
    reference.write_text(reference.read_text(encoding="utf-8") + "\n# changed\n")
    checked = cli("run", "claims/", "--check")

    assert checked.code == 1
    assert "$.claim_pack" in checked.out


def test_the_pack_code_digest_is_the_code_and_only_the_code(tmp_path):
    """What Python and tools write beside code, and no wheel ships, changes no digest; a
    folder the pack links to is its code too; an edited file changes it."""
    from runner.record.build import code_sha256

    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "helpers.py").write_text("X = 1\n")
    pack = tmp_path / "pk"
    pack.mkdir()
    (pack / "__init__.py").write_text("from .helpers import X\n")
    (pack / "linked").symlink_to(shared, target_is_directory=True)
    before = code_sha256((str(pack) + "/",))
    for junk in ("__pycache__/m.cpython-311.pyc", ".mypy_cache/x.json", "pk.egg-info/PKG-INFO"):
        (pack / junk).parent.mkdir(parents=True, exist_ok=True)
        (pack / junk).write_text("written beside the code\n")
    (pack / ".DS_Store").write_text("finder\n")
    assert code_sha256((str(pack) + "/",)) == before
    (shared / "helpers.py").write_text("X = 2\n")
    assert code_sha256((str(pack) + "/",)) != before


# -- a maintainer's slips in a pack: one line each, at load, in the pack's own file ------------
PACK_DIR = ("claims", "05-softmax", "pack")


def _slip(course: Path, file: str, old: str, new: str) -> None:
    path = course.joinpath(*PACK_DIR, file)
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")


def _one_line_refusal(cli, *args: str) -> str:
    result = cli(*args, "--lang", "en")
    assert result.code == 2, (result.out, result.err)
    assert "Traceback" not in result.err and "internal error" not in result.err, result.err
    (line,) = [x for x in result.err.splitlines() if "05-softmax" in x]
    return line


def test_a_check_needing_a_subject_the_pack_does_not_register_is_refused_at_load(cli, course):
    """Not the reference "not implemented", not a learner asked to write a function that
    does not exist, not a KeyError from the scaffold."""
    _slip(course, "checks.py", 'needs=("softmax",)', 'needs=("sofmax",)')
    for command in (("run", "claims/05-softmax"), ("scaffold", "05-softmax")):
        line = _one_line_refusal(cli, *command)
        assert "check 'softmax_properties' needs sofmax()" in line, line
        assert "closest: softmax" in line and "05-softmax/module.yaml:" in line, line


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("subject: softmax, generator: softmax", "subject: sofmax, generator: softmax",
         "inputs.subject: the pack has no function 'sofmax'; closest: softmax"),
        ("subject: softmax, generator: softmax", "subject: softmax, generator: sofmax",
         "inputs.generator: the pack has no generator 'sofmax'; closest: softmax"),
        ("subject: softmax, generator: softmax", "subject: softmax, generator: bigram_counts",
         "inputs.generator: generator 'bigram_counts' makes cases for bigram_counts, "
         "not for softmax"),
    ],
)  # fmt: skip
def test_a_subject_or_generator_a_claim_names_and_the_pack_lacks_is_refused_at_load(
    cli, course, old, new, said
):
    """A pack author's slip in a contract claim's inputs ran: the reference run skipped the
    claim ("not implemented: sofmax()") and a fault survived, or the claim erred naming the
    engine's file, in English whatever the reader's language, exit 1."""
    path = course / "claims" / "05-softmax" / "1-softmax.yaml"
    text = path.read_text("utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), "utf-8")
    for command in (("run", "claims/05-softmax"), ("inject", "--all", "claims/05-softmax")):
        line = _one_line_refusal(cli, *command)
        assert "1-softmax.yaml:30: claim softmax.contract:" in line and said in line, line
    zh = cli("run", "claims/05-softmax", "--lang", "zh")
    assert zh.code == 2 and ("包中没有" in zh.err or "生成用例" in zh.err), zh.err


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ('where={"zh": "故障表：忘记先减去最大值", ', "where={", "where: no zh text"),
        ('where={"zh": "故障表：忘记先减去最大值", "en": "fault table: the max is not subtracted first"}',
         'where="the max is not subtracted"', "where must be {'zh': ..., 'en': ...}, not str"),
    ],
)  # fmt: skip
def test_a_twin_whose_texts_are_not_in_both_languages_is_refused_at_load(
    cli, course, old, new, said
):
    """Found only when a learner's run needed the diagnosis before: an internal error that
    lost the whole run."""
    _slip(course, "faults.py", old, new)
    line = _one_line_refusal(cli, "run", "claims/05-softmax")
    assert "faults.py:" in line and said in line, line  # the pack's line, not the engine's


def test_a_precision_kind_the_engine_does_not_know_is_refused_in_the_packs_file(cli, course):
    _slip(
        course,
        "checks.py",
        'measures=("max_sum_error", "max_shift_difference", "non_finite"),',
        'measures=("max_sum_error", "max_shift_difference", "non_finite"),\n'
        '    precision={"max_sum_error": "residu"},',
    )
    line = _one_line_refusal(cli, "run", "claims/05-softmax")
    assert "checks.py:" in line and "precision {'max_sum_error': 'residu'}" in line, line


def _commit_all(course: Path) -> None:
    subprocess.run([*GIT, "add", "-A"], cwd=course, check=True)
    subprocess.run([*GIT, "commit", "-qm", "slip"], cwd=course, check=True)


def test_a_pack_in_the_course_repository_outside_its_module_is_measured_by_git(
    cli, course, monkeypatch
):
    """A pack imported from the course repository (beside claims/, or installed editable
    from it) ran changed while the evidence said commit_dirty: false; git asks about its
    folder too."""
    shutil.move(course.joinpath(*PACK_DIR), course / "softmaxpack")
    monkeypatch.syspath_prepend(str(course))  # as `python -m runner` run in the course finds it
    module = course / "claims" / "05-softmax" / "module.yaml"
    module.write_text(
        module.read_text("utf-8").replace("pack: ./pack", "pack: softmaxpack"), "utf-8"
    )
    _commit_all(course)
    evidence = course / "evidence" / "05-softmax-v1.json"
    assert cli("run", "claims/05-softmax", "--lang", "en").code == 0
    assert json.loads(evidence.read_text("utf-8"))["commit_dirty"] is False
    with (course / "softmaxpack" / "checks.py").open("a", encoding="utf-8") as f:
        f.write("# changed, not committed\n")
    assert cli("run", "claims/05-softmax", "--lang", "en").code == 0
    assert json.loads(evidence.read_text("utf-8"))["commit_dirty"] is True


def _fault_slip(course: Path, old: str, new: str) -> None:
    path = course / "claims" / "05-softmax" / "faults.yaml"
    text = path.read_text("utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), "utf-8")
    _commit_all(course)


def test_a_fault_that_survives_makes_the_reference_run_exit_1_and_says_so(cli, course):
    """A catcher that does not fail under the fault: inject said so, but run, which runs
    the faults too, exited 0 and printed nothing about them. (Here the twin's mistake is
    mended, so its catchers pass; a catcher the fault cannot reach is refused on load.)"""
    _slip(course, "faults.py", "e = np.exp(x)  # the mistake: exp(1000) is inf",
          "e = np.exp(x - x.max(axis=-1, keepdims=True))")  # fmt: skip
    ran = cli("run", "claims/05-softmax", "--lang", "en")
    assert ran.code == 1, ran.out
    assert "still passing: softmax.distribution, softmax.contract" in ran.out, ran.out
    assert "1 of the faults of 05-softmax is not caught as faults.yaml says" in ran.out
    assert cli("inject", "--all", "claims/05-softmax").code == 1


def test_a_stale_observed_fact_fails_and_says_what_was_expected(cli, course):
    _fault_slip(course, "tolerance: {kind: range, min: 1}", "tolerance: {kind: range, min: 100000}")
    injected = cli("inject", "--all", "claims/05-softmax", "--lang", "en")
    assert injected.code == 1
    assert "(faults.yaml expects ≥ 100000)" in injected.out, injected.out
    # the last line says why a caught fault still exits 1 (it read "score: 1/1" alone)
    assert injected.out.splitlines()[-1] == (
        "score: 1/1 faults caught · 1 observed fact no longer holds as faults.yaml states it"
    )
    ran = cli("run", "claims/05-softmax", "--lang", "en")
    assert ran.code == 1
    # and so does a run's, after its totals (it ended "4 passed, 0 failed")
    last = [x for x in ran.out.splitlines() if not x.startswith(("evidence", "wrote"))][-1]
    assert "shows another signal than it states" in last, ran.out


def test_a_twin_that_cannot_be_called_does_not_catch_its_fault(cli, course):
    """Every claim errors under a twin that raises TypeError on every call (one with the
    wrong signature is refused on load now): that is no catch."""
    _slip(
        course,
        "faults.py",
        "    x = _scores(z)  # (..., V)\n",
        "    x = _scores(z, z)  # (..., V)\n",
    )
    _commit_all(course)
    injected = cli("inject", "--all", "claims/05-softmax", "--lang", "en")
    assert injected.code == 1, injected.out
    assert "errored instead of failing" in injected.out
    assert "0/1" in injected.out


def test_each_modules_evidence_records_its_own_last_commit_whatever_ran_beside_it(cli, course):
    """A run of several modules gave each the newest commit of any of them: a commit to one
    chapter made every chapter's evidence drift, and `run claims/` and `run claims/<module>`
    recorded different commits for the same module."""
    first = subprocess.run(
        [*GIT, "rev-parse", "HEAD"], cwd=course, capture_output=True, text=True, check=True
    ).stdout.strip()
    notes = course / "claims" / "05-softmax" / "1-softmax.yaml"
    notes.write_text(notes.read_text("utf-8") + "# a maintainer's note\n", "utf-8")
    _commit_all(course)
    second = subprocess.run(
        [*GIT, "rev-parse", "HEAD"], cwd=course, capture_output=True, text=True, check=True
    ).stdout.strip()

    assert cli("run", "claims/").code == 0
    recorded = {
        p.name.split("-v")[0]: json.loads(p.read_text("utf-8"))["commit"]
        for p in (course / "evidence").glob("*-v*.json")
        if p.name.count(".") == 1 and not p.name.startswith("module-manifest")
    }
    assert recorded == {"05-softmax": second, "23-design-tradeoffs": first}
    for module in ("claims/", "claims/23-design-tradeoffs", "claims/05-softmax"):
        checked = cli("run", module, "--check", "--lang", "en")
        assert checked.code == 0 and "no drift" in checked.out, (module, checked.out)


@pytest.mark.parametrize(
    ("new", "said", "zh"),
    [
        ("return (edges + draws)[1:]", "ValueError: generator 'softmax' made 59 cases; the "
         "claim asks for 60", "ValueError：生成器 'softmax' 生成了 59 个用例；断言要求 60 个"),
        ("return []", "made 0 cases; the claim asks for 60", "生成了 0 个用例；断言要求 60 个"),
        ("return [np.zeros(3)] * n", "TypeError: generator 'softmax': case 0 is ndarray, not "
         "a Case", "TypeError：生成器 'softmax'：第 0 个用例是 ndarray，不是 Case"),
    ],
)  # fmt: skip
def test_a_generator_that_does_not_make_its_n_cases_errors_its_claim_naming_it(
    cli, course, new, said, zh, tmp_path
):
    """A contract of fewer cases than its claim says passed on less (on none at all). Said
    in the reader's language (it was English under --lang zh: a pack author, 2026-12-07),
    recorded as a message in the evidence and shown from it in either language."""
    _slip(course, "generators.py", "return edges + draws", new)
    ran = cli("run", "claims/05-softmax", "--lang", "en", "--out", str(tmp_path / "ev"))
    assert ran.code == 1
    assert said in ran.out, ran.out
    # told where the generator is, not the engine's line that refused what it made
    assert "(generators.py:12)" in ran.out and "contract.py" not in ran.out, ran.out
    chinese = cli("run", "claims/05-softmax", "--lang", "zh", "--out", str(tmp_path / "ev"))
    assert zh in chinese.out, chinese.out
    (evidence,) = (tmp_path / "ev").glob("05-softmax-v*.json")
    page = tmp_path / "page.html"
    shown = cli("report", str(evidence), "--html", str(page), "--lang", "zh")
    assert shown.code in (0, 1), shown.err
    assert html.escape(zh.split("Error：")[-1]) in page.read_text("utf-8")


def test_a_generator_whose_every_case_the_reference_refuses_errors_its_claim(cli, course):
    """A generator of invalid cases only passed a learner whose function always raises
    ValueError (a pack author, 2026-12-08): refused, at the generator's line."""
    _slip(course, "generators.py", "return edges + draws", 'return [case("x", np.array([]))] * n')
    ran = cli("run", "claims/05-softmax", "--lang", "en", "-k", "softmax.contract")
    assert ran.code == 1
    assert "the reference refuses all 60 of its cases" in ran.out, ran.out
    assert "(generators.py:" in ran.out, ran.out


def test_a_function_whose_only_claim_is_the_courses_bug_is_not_judged_not_waiting(cli, course):
    """It read "waits  softmax  its 0 claims wait for functions not written yet", though
    every function was written."""
    _slip(course, "generators.py", "return edges + draws", "return edges + draws + draws[:1]")
    reference = cli("scaffold", "05-softmax", "--reference").out
    (course / "solution.py").write_text(reference, encoding="utf-8")
    en = cli("run", "claims/05-softmax", "--impl", "solution.py", "-k", "softmax.contract",
             "--lang", "en")  # fmt: skip
    zh = cli("run", "claims/05-softmax", "--impl", "solution.py", "-k", "softmax.contract",
             "--lang", "zh")  # fmt: skip
    assert en.code == 1
    assert "  not judged  softmax  its 1 claim did not judge it (it failed or erred" in en.out
    assert "wait" not in en.out.split("by function", 1)[1], en.out
    assert "  未评判  softmax  它的 1 条断言都没有判定它" in zh.out, zh.out


def test_a_check_that_fails_on_the_reference_too_is_the_courses_bug_not_the_learners(cli, course):
    """A check indexing past what it computed errored a correct learner's claim as "the
    check could not use what your code returned", and the summary called the function
    WRONG; the same check fails on the reference, so the course is told, at its line."""
    _slip(
        course,
        "checks.py",
        "    finite = np.isfinite(p)\n",
        "    finite = np.isfinite(p)\n    p[p.shape[0] + 1]\n",
    )
    reference = cli("scaffold", "05-softmax", "--reference").out
    (course / "solution.py").write_text(reference, encoding="utf-8")
    judged = cli("run", "claims/05-softmax", "--impl", "solution.py", "--lang", "en")
    assert judged.code == 1
    assert "the check fails on the course's own reference too (checks.py:" in judged.out
    assert "a bug of the course, not of your code" in judged.out
    assert "WRONG" not in judged.out, judged.out


def test_a_catcher_that_fails_on_the_reference_too_does_not_catch_its_fault(cli, course):
    """A catcher expecting a wrong number fails under the fault as on the reference: inject
    said "caught ... 3/3 faults caught" and exited 0, though that claim tells nothing of the
    fault (found by a pack author, 2026-12-07)."""
    path = course / "claims" / "05-softmax" / "1-softmax.yaml"
    text = path.read_text("utf-8")
    old = "      - measure: non_finite\n        value: 0\n"
    assert old in text
    path.write_text(
        text.replace(old, "      - measure: non_finite\n        value: 3\n", 1), "utf-8"
    )
    said = "fails on the reference too (it cannot tell the fault from the reference: fix the "
    one = cli("inject", "--fault", "softmax-no-max", "claims/05-softmax", "--lang", "en")
    assert one.code == 1, one.out
    assert "SURVIVED: 1 of 2 catchers do not catch it (softmax.distribution)" in one.out, one.out
    assert said + "claim first): softmax.distribution" in one.out, one.out
    every = cli("inject", "--all", "claims/05-softmax", "--lang", "en")
    assert every.code == 1, every.out
    row = next(x for x in every.out.splitlines() if "softmax-no-max" in x)
    # the claim is not said to be broken by the fault: it is broken whatever runs
    assert row.startswith("  SURVIVED") and "softmax.distribution" not in row, every.out
    zh = cli("inject", "--all", "claims/05-softmax", "--lang", "zh")
    assert "在参考实现上也失败" in zh.out, zh.out


@pytest.mark.parametrize("value", ["complex(1, 2)", "object()", "{1, 2}", "[1.0, 1j]"])
def test_a_measure_evidence_cannot_record_errs_its_claim_not_the_run(cli, course, value):
    """A check measuring a complex number (or an object, a set) ended every run that writes
    evidence with "internal error ... not JSON serializable", exit 2, no claim named (found
    by a pack author, 2026-12-07): the claim errs as the course's bug, the rest is recorded."""
    _slip(
        course,
        "checks.py",
        '"max_sum_error": float(np.max(np.abs(p.sum(axis=-1) - 1.0))),',
        f'"max_sum_error": {value},',
    )
    ran = cli("run", "claims/05-softmax", "--lang", "en")
    assert ran.code == 1, (ran.out, ran.err)
    assert "internal error" not in ran.err and "Traceback" not in ran.err, ran.err
    assert "check softmax_properties measured max_sum_error as a " in ran.out, ran.out
    assert "which evidence cannot record" in ran.out and "wrote " in ran.out, ran.out
    reference = cli("scaffold", "05-softmax", "--reference").out
    (course / "solution.py").write_text(reference, encoding="utf-8")
    judged = cli("run", "claims/05-softmax", "--impl", "solution.py", "--lang", "zh")
    assert judged.code == 1 and "证据无法记录" in judged.out, judged.out
    assert "不是被评判代码的问题" in judged.out, judged.out


@pytest.mark.parametrize(
    "new",
    [
        '"max_sum_error": float("nan"),',  # a check measuring NaN whatever it judges
        '"max_sum_error": "big",',  # a check measuring a word where a number is expected
    ],
)
def test_a_measure_the_reference_fails_too_is_the_courses_bug_not_the_learners(cli, course, new):
    """A check measuring NaN failed a correct learner's claim and called the function WRONG
    (exit 1, no differing call to show): the reference fails that measure too, so the course
    is told (found by a pack author, 2026-12-07)."""
    _slip(course, "checks.py", '"max_sum_error": float(np.max(np.abs(p.sum(axis=-1) - 1.0))),', new)
    reference = cli("scaffold", "05-softmax", "--reference").out
    (course / "solution.py").write_text(reference, encoding="utf-8")
    judged = cli("run", "claims/05-softmax", "--impl", "solution.py", "--lang", "en")
    assert judged.code == 1
    assert (
        "the check fails on the course's own reference too (max_sum_error: the reference "
        "gives " in judged.out
    ), judged.out
    assert "a bug of the course, not of your code" in judged.out
    assert "WRONG" not in judged.out, judged.out
    zh = cli("run", "claims/05-softmax", "--impl", "solution.py", "--lang", "zh")
    assert "这项检查在课程自己的参考实现上也不通过（max_sum_error：参考实现给出 " in zh.out, zh.out


def test_a_learners_failure_the_reference_does_not_share_is_still_the_learners(cli, course):
    """The course's-bug path asks the reference only about the measures the learner failed:
    a wrong softmax is still WRONG."""
    reference = cli("scaffold", "05-softmax", "--reference").out
    wrong = reference.replace("np.exp(x - x.max(axis=-1, keepdims=True))", "np.exp(x)")
    assert wrong != reference
    (course / "wrong.py").write_text(wrong, encoding="utf-8")
    judged = cli("run", "claims/05-softmax", "--impl", "wrong.py", "--lang", "en")
    assert judged.code == 1 and "WRONG" in judged.out, judged.out
    assert "a bug of the course" not in judged.out


def test_a_scaffold_may_have_no_contract_but_not_half_of_one():
    from runner.pack import Pack, Scaffold

    Pack("no-contract", scaffold=Scaffold(preamble="import math\n"))  # the default: none
    with pytest.raises(TypeError, match="no zh text"):
        Pack("half", scaffold=Scaffold(contract={"zh": "", "en": "Leave arguments alone."}))


@pytest.mark.parametrize("needs", ["softmax", (1,), ("",)])
def test_a_check_whose_needs_are_not_names_is_refused_where_it_is_registered(needs):
    from runner.pack import Pack

    pack = Pack("names")
    with pytest.raises(TypeError, match="needs"):
        pack.check("c", needs=needs, measures=("m",))(lambda impl: {"m": 0})


@pytest.mark.parametrize(
    ("blames", "said"),
    [
        ({"n": ("a",)}, "'n' is not one of its measures (m)"),
        ({"m": "a"}, "give a non-empty tuple of subject names, e.g. ('a',)"),
        ({"m": ()}, "give a non-empty tuple"),
        ({"m": ("a", "c")}, "'c' not among the subjects it needs (a, b)"),
    ],
)
def test_a_wrong_blames_is_refused_saying_which_part_is_wrong(blames, said):
    """A bare string was read letter by letter; an unknown measure or subject was one
    sentence naming neither."""
    from runner.pack import Pack

    pack = Pack("blames")
    with pytest.raises(TypeError) as refused:
        pack.check("c", needs=("a", "b"), measures=("m",), blames=blames)(lambda impl: {"m": 0})
    assert said in str(refused.value) and "check c: blames=" in str(refused.value)


def test_a_fault_whose_id_is_a_mistake_is_refused_and_mistakes_are_not_offered_as_faults(
    cli, course
):
    _fault_slip(course, "  - id: softmax-no-max\n", "  - id: bigram-wraps-around\n")
    _fault_slip(course, "    replaces: softmax\n", "    replaces: bigram_counts\n")
    line = _one_line_refusal(cli, "run", "claims/05-softmax")
    assert "faults.yaml:" in line and "registered with @pack.mistake" in line, line


def test_an_unknown_fault_id_is_offered_only_faults_as_the_closest(cli, course):
    unknown = cli("inject", "--fault", "bigram-wraps", "claims/05-softmax", "--lang", "en")
    assert unknown.code == 2
    assert "bigram-wraps-around" not in unknown.err and "softmax-no-max" in unknown.err, unknown.err


def test_a_fact_whose_format_is_no_unit_is_refused_at_load(cli, course):
    """``{claim/measure:furlongs}`` loaded and showed the bare value, where an unknown unit
    in a claim is refused (a pack author, 2026-12-07)."""
    _fault_slip(
        course,
        "softmax.distribution/non_finite:count}",
        "softmax.distribution/non_finite:furlongs}",
    )
    line = _one_line_refusal(cli, "list", "claims/05-softmax")
    assert "{softmax.distribution/non_finite:furlongs}: its format is neither a unit" in line
    zh = cli("list", "claims/05-softmax", "--lang", "zh")
    assert "格式既不是单位" in zh.err, zh.err


@pytest.mark.parametrize(
    ("new", "refused"),
    [
        ("def softmax_without_max(z: np.ndarray, eps: float) -> np.ndarray:", True),
        ("def softmax_without_max(logits: np.ndarray) -> np.ndarray:", True),
        ("def softmax_without_max(z: np.ndarray, eps: float = 0.0) -> np.ndarray:", False),
    ],
)
def test_a_twin_that_cannot_be_called_as_its_subject_is_refused_at_load(cli, course, new, refused):
    """A twin with another signature than its subject raised TypeError in every catcher, was
    said at the check's line, and the verdict read "the claims would not notice this
    mistake" (a pack author, 2026-12-07): refused on load, naming the twin's line and both
    signatures. An extra parameter with a default is still called as the subject is."""
    _slip(course, "faults.py", "def softmax_without_max(z: np.ndarray) -> np.ndarray:", new)
    if not refused:
        assert cli("list", "claims/05-softmax").code == 0
        return
    line = _one_line_refusal(cli, "list", "claims/05-softmax")
    assert "fault 'softmax-no-max' (faults.py:" in line and "but softmax() takes (z)" in line
    zh = cli("list", "claims/05-softmax", "--lang", "zh")
    assert "什么也抓不住" in zh.err, zh.err


def test_two_packs_of_one_name_are_a_problem_of_the_second_module(cli, course):
    """Two modules whose packs were two packs named alike loaded without a word, though a
    pack's name is what errors and ``list --format json`` name it by (a pack author,
    2026-12-07); the other module still runs."""
    _slip(course, "__init__.py", '"softmax-basics",', '"design-tradeoffs",')
    listed = cli("list", "claims/", "--lang", "en")
    assert listed.code == 2
    # the modules in their folders' order: 05-softmax first, so chapter 23's is the second
    (line,) = [x for x in listed.err.splitlines() if "its pack is named" in x]
    said = "its pack is named 'design-tradeoffs', as the pack of claims/05-softmax/module.yaml is"
    assert line.startswith("claims/23-design-tradeoffs/module.yaml:") and said in line, line
    assert "05-softmax" in listed.out


def test_a_twin_without_the_default_its_subject_gives_is_off_signature():
    """A twin whose parameter lost the default its subject gives (`smoothing: float` for
    `smoothing: float = 0.0`) passed the check on load; called as the subject is, without
    that argument, it raised TypeError in every catcher and its fault read as surviving (a
    pack author, 2026-12-07)."""
    pack = Pack("defaults", code=())
    TEXT = {"zh": "甲", "en": "a"}

    @pack.subject("loss")
    def loss(x: float, smoothing: float = 0.0) -> float:
        """The loss."""
        return x + smoothing

    @pack.twin("loss-lost-default", replaces="loss", explanation=TEXT, where=TEXT)
    def loss_lost_default(x: float, smoothing: float) -> float:
        return x - smoothing

    @pack.twin("loss-kept-default", replaces="loss", explanation=TEXT, where=TEXT)
    def loss_kept_default(x: float, smoothing: float = 0.0) -> float:
        return x - smoothing

    off = pack.registry.twins_off_signature()
    assert [twin.id for twin, _, _ in off] == ["loss-lost-default"]


def test_a_fault_naming_a_claim_it_cannot_reach_is_refused_at_load(tmp_path):
    """A fault's catcher or observed fact about a claim that calls nothing the fault changes
    loaded, and read as a surviving fault, or showed the reference's figure as the fault's
    (a pack author, 2026-12-07): refused on load, naming what the fault changes."""
    module = _pack_module(tmp_path, "m-reach", "reach", 1.0)
    (module / "faults.yaml").write_text(
        "faults:\n  - id: g-wrong\n    title: {zh: 错, en: wrong}\n    replaces: g\n"
        "    expected_signal: {zh: 错, en: wrong}\n    catchers: [f.value]\n    observed:\n"
        "      - claim: f.value\n        measure: value\n        value: 1.0\n"
        "        tolerance: {kind: exact}\n"
        "        fact: {zh: '{f.value/value}', en: '{f.value/value}'}\n",
        encoding="utf-8",
    )
    pack = _constant_pack("reach", 1.0)

    @pack.subject("g")
    def g() -> float:
        """Three."""
        return 3.0

    @pack.twin("g-wrong", replaces="g", explanation={"zh": "错", "en": "wrong"},
               where={"zh": "阶段一", "en": "stage 1"})  # fmt: skip
    def g_wrong() -> float:
        return 4.0

    _, problems = api.load_each([module], packs={"reach": pack})
    said = [(p.field, p.message.code) for p in problems]
    assert said == [("catchers[0]", "fault.unreached"), ("observed[0].claim", "fault.unreached")]


@pytest.mark.parametrize("label", [42, {"zh": "中文"}, {"zh": "中文", "en": 3}])
def test_a_generator_case_whose_label_is_no_text_is_refused(label):
    """A label of 42, or one in Chinese alone, was taken and shown raw (a pack author,
    2026-12-07): a label is text, or text in each language."""
    from runner.pack.contract import Case, _cases
    from runner.pack.outcome import PackRefused

    with pytest.raises(PackRefused):
        _cases([Case((1,), {}, label)], "g", 1)
    assert _cases([Case((1,), {}, {"zh": "甲", "en": "a"})], "g", 1)[0].args == (1,)


def test_an_undeclared_measure_is_said_at_the_checks_line_with_the_closest(tmp_path):
    """A check returning a measure it did not declare was said with no line of the pack's
    and no closest name (a pack author, 2026-12-07)."""
    from runner.i18n import catalog

    module = _pack_module(tmp_path, "m-undeclared", "undeclared", 1.0)
    pack = Pack("undeclared", code=())

    @pack.subject("f")
    def f() -> float:
        """One."""
        return 1.0

    @pack.check("value_of_f", needs=("f",), measures=("value",))
    def value_of_f(impl: Implementation) -> Measurements:
        return {"valeu": impl["f"]()}

    packs = api.load_claims([module], packs={"undeclared": pack})
    (result,) = api.run_packs(packs, api.Reference()).results
    assert result.status == "error" and result.reason is not None
    said = catalog("en").say(result.reason.msg())
    assert "test_packs.py:" in said and "closest declared: value" in said, said


def test_two_expectations_of_one_claim_naming_one_metric_are_refused(tmp_path):
    """Two ``expect`` items of one claim with one ``metric:`` loaded and wrote evidence that
    the runner's own validate then rejected, and correct learners' submissions with it (a
    pack author, 2026-12-07): refused on load, as two claims sharing one are."""
    module = _pack_module(tmp_path, "m-twice", "twice", 1.0)
    claims = module / "1-f.yaml"
    text = claims.read_text(encoding="utf-8")
    item = text[text.index("      - measure: value") :]
    claims.write_text(
        text.replace(item, item.replace("measure: value\n", "measure: value\n        metric: v\n"))
        + item.replace("measure: value\n", "measure: value\n        metric: v\n"),
        encoding="utf-8",
    )
    _, problems = api.load_each([module], packs={"twice": _constant_pack("twice", 1.0)})
    said = [(p.field, p.message.code) for p in problems]
    assert said == [("expect[1].metric", "claim.metric_twice_here")]


def test_a_required_metric_of_a_claim_learners_do_not_see_is_refused(tmp_path):
    """The docs said to require metrics of visible claims only, and a hidden claim's was
    accepted silently (a pack author, 2026-12-08): learners cannot produce it, and the
    requirement tells them the claim exists."""
    module = _pack_module(tmp_path, "m-hidden", "hidden", 1.0)
    claims = module / "1-f.yaml"
    claims.write_text(
        claims.read_text("utf-8").replace("    check: value_of_f\n", "    check: value_of_f\n"
                                          "    visibility: hidden\n"),
        encoding="utf-8",
    )  # fmt: skip
    meta = module / "module.yaml"
    meta.write_text(meta.read_text("utf-8") + "required_metrics:\n  - f.value.value\n", "utf-8")
    _, problems = api.load_each([module], packs={"hidden": _constant_pack("hidden", 1.0)})
    said = [(p.field, p.message.code) for p in problems]
    assert said == [("required_metrics", "claim.required_metric_hidden")]


def test_a_claim_expecting_only_context_measures_is_refused(tmp_path):
    """A claim whose only expectation was a measure its check computes from the inputs alone
    passed for every implementation, earned its points and marked the function right (a
    pack author, 2026-12-07): it can never fail, so it is refused on load."""
    module = _pack_module(tmp_path, "m-context", "context", 1.0)
    pack = Pack("context", code=())

    @pack.subject("f")
    def f() -> float:
        """One."""
        return 1.0

    @pack.check("value_of_f", needs=("f",), measures=("value", "real"), context=("value",))
    def value_of_f(impl: Implementation) -> Measurements:
        return {"value": 1.0, "real": impl["f"]()}

    _, problems = api.load_each([module], packs={"context": pack})
    assert [(p.field, p.message.code) for p in problems] == [("expect", "claim.context_only")]
    assert problems[0].message.params["measures"] == "real"


def test_a_check_that_calls_none_of_the_functions_it_needs_is_an_error_not_a_pass(tmp_path):
    """A check that computed its answer itself and never called the implementation passed on
    an empty scaffold and gave that learner its points (a pack author, 2026-12-08): where it
    looked up none of the functions it needs, the claim is an error, the course's."""
    module = _pack_module(tmp_path, "m-nothing", "nothing", 1.0)
    pack = Pack("nothing", code=())

    @pack.subject("f")
    def f() -> float:
        """One."""
        return 1.0

    @pack.check("value_of_f", needs=("f",), measures=("value",))
    def value_of_f(impl: Implementation) -> Measurements:
        return {"value": 1.0}  # the answer, computed here: f is never called

    from runner.i18n import catalog

    packs = api.load_claims([module], packs={"nothing": pack})
    learner = tmp_path / "learner.py"
    learner.write_text("def f():\n    raise NotImplementedError\n", encoding="utf-8")
    for judged in (api.Reference(), api.LearnerFile(learner)):
        (result,) = api.run_packs(packs, judged).results
        assert result.status == "error" and result.reason is not None
        assert result.reason.code == "claim.calls_nothing"
        said = catalog("en").say(result.reason.msg())
        assert "value_of_f" in said and "f()" in said and "not of the code judged" in said


def test_a_fault_twin_no_row_of_faults_yaml_declares_is_never_named_to_a_learner(tmp_path):
    """A ``@pack.twin`` with no row in faults.yaml: inject never ran it and said "all caught",
    while the diagnosis named it to learners (a pack author, 2026-12-07). A module may use
    a pack and declare only some of its faults (or none), so such a twin is not refused: it
    is inert, as inject already treated it. A mistake is named as ever."""
    from runner.diagnose import diagnoser

    module = _pack_module(tmp_path, "m-orphan", "orphan", 1.0)
    pack = _constant_pack("orphan", 1.0)
    text = {"zh": "甲", "en": "a"}

    @pack.twin("f-off", replaces="f", explanation=text, where=text)
    def f_off() -> float:
        return 2.0

    @pack.mistake("f-off-by-more", replaces="f", explanation=text, where=text)
    def f_off_by_more() -> float:
        return 3.0

    (loaded,) = api.load_claims([module], packs={"orphan": pack})
    registry = loaded.code.registry
    assert [t.id for t in diagnoser(registry, loaded.claims, ()).candidates("f")] == [
        "f-off-by-more"
    ]
    assert [t.id for t in diagnoser(registry, loaded.claims, ["f-off"]).candidates("f")] == [
        "f-off",
        "f-off-by-more",
    ]
