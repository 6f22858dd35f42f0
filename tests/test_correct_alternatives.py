"""Correct implementations that are not the reference pass every claim.

``tests/learners/correct/_base.py`` is a learner's implementation written from the contract
(the README's signature table, the scaffold's docstrings), not from the reference's code;
each other file there swaps some of its functions for other correct algorithms, loop orders
or numerics: the mask as a softmax over each visible prefix, heads one at a time, a running
mean, top-k by sorting pairs, MoE token by token or by gathering the chosen experts' weights,
softmax through log-sum-exp rounded back to float16/float32, GELU through its sigmoid
identity, flash attention with q scaled up front, with the masked half of the diagonal tile
skipped, one query row at a time, or over (block, T) strips, linear attention in its
constant-memory recurrent form, with z folded into S, or by cumsum. The reference itself, as
the scaffold writes it for a learner, runs the same way. Every claim must pass for each.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from runner import api
from runner.i18n import catalog
from runner.learner.scaffold import scaffold
from runner.load import ClaimPack
from tests.conftest import MODULE, ROOT, claims_needing, handed_in

CORRECT_DIR = ROOT / "tests" / "learners" / "correct"
ALTERNATIVES = sorted(p.stem for p in CORRECT_DIR.glob("*.py") if not p.name.startswith("_"))
(PACK,) = api.load_claims([MODULE])
REGISTRY = PACK.code.registry


def failures(run: api.Run) -> list[str]:
    """Each claim that did not pass, with what the run says about why."""
    out = []
    for r in run.results:
        if r.status != "passed":
            wrong = {m.name: m.actual for m in r.measurements if m.verdict != "passed"}
            first = r.observations.get("first_mismatch")
            out.append(f"{r.id}: {r.status} {r.reason or ''} {wrong} {first or ''}")
    return out


def test_there_are_alternatives():
    assert len(ALTERNATIVES) >= 6
    assert "plain" in ALTERNATIVES  # the base as it is


def test_the_base_is_written_without_the_reference():
    """It imports nothing of ours: the contract is all it knows."""
    tree = ast.parse((CORRECT_DIR / "_base.py").read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in (
            node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")]
        )
    }
    assert imported <= {"__future__", "math", "operator", "numpy", "heapq"}


def own_subjects(path: Path) -> set[str]:
    """The chapter's functions ``path`` defines or binds itself; every other one it has is
    ``_base``'s, the very object ``plain`` (the base as it is) is judged with."""
    bound = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bound |= {t.id for t in targets if isinstance(t, ast.Name)}
    return bound & set(REGISTRY.subjects)


def claims_for(stem: str) -> ClaimPack:
    """The claims that can tell ``stem`` from the base: every claim for ``plain``; for each
    other alternative, those calling a function it writes itself (a claim calling only the
    base's functions calls the same objects as ``plain``'s claim does)."""
    if stem == "plain":
        return PACK
    return claims_needing(PACK, own_subjects(CORRECT_DIR / f"{stem}.py"))


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[ClaimPack, api.Run]]:
    """Every alternative's run on :func:`claims_for` it, judged as a learner's file alone is
    (``api.run_packs``, a worker of its own; a judging process and a fork server of its own
    for each, as a class run of one would start, only cost time), each handed in with its
    helper module, ``_base.py`` (tests/conftest.py)."""
    into = tmp_path_factory.mktemp("alternatives")
    found = {}
    for stem in ALTERNATIVES:
        pack = claims_for(stem)
        folder = handed_in(CORRECT_DIR / f"{stem}.py", into)
        run = api.run_packs([pack], api.LearnerFile(folder), api.RunOptions())
        found[stem] = (pack, run)
    return found


def test_an_alternative_changes_the_base_only_through_its_own_functions():
    """What makes judging an alternative on its own functions' claims enough: none assigns
    into the base module (``_base.x = ...``), which would change what the base's own
    functions do, and each writes at least one of the chapter's functions."""
    for stem in ALTERNATIVES:
        tree = ast.parse((CORRECT_DIR / f"{stem}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
                assert not (isinstance(node.value, ast.Name) and node.value.id == "_base"), stem
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"setattr", "delattr", "exec", "eval"}, stem
        assert stem == "plain" or own_subjects(CORRECT_DIR / f"{stem}.py"), stem


@pytest.mark.parametrize("stem", ALTERNATIVES)
def test_alternative_passes_every_claim(runs, stem):
    pack, run = runs[stem]
    assert run.load_failure is None, run.load_failure
    assert len(run.results) == len(pack.claims) > 0
    assert not failures(run), "\n".join(failures(run))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_scaffolded_reference_passes_every_claim(tmp_path: Path, lang: str):
    """What ``python -m runner scaffold 23-design-tradeoffs --reference`` writes is a learner
    file that passes, helpers included (it imports nothing of ours either), in either
    language (the Chinese one carries the pack's Chinese docstrings)."""

    source = scaffold(PACK, catalog(lang), reference=True)
    assert "from checks" not in source and "import checks" not in source
    path = tmp_path / "my_impl.py"
    path.write_text(source, encoding="utf-8")
    run = api.run_packs([PACK], api.LearnerFile(path), api.RunOptions())
    assert run.load_failure is None, run.load_failure
    assert not failures(run), "\n".join(failures(run))


def test_a_lazily_imported_numpy_module_is_not_charged_to_the_first_measured_call(tmp_path):
    """np.ma loads on first use (1.16 MB): run alone, the memory claim's first call used to
    carry that import, and a correct mask failed it (growth 1.71 against >= 1.8) though the
    full run passed. The worker loads NumPy's lazy modules before any learner's code."""
    folder = handed_in(CORRECT_DIR / "adv4_mask_numpy_ma.py", tmp_path)
    options = api.RunOptions(pattern="beyond.flash-memory")
    run = api.run_packs([PACK], api.LearnerFile(folder), options)
    assert [r.status for r in run.results] == ["passed"], failures(run)
