"""Shared fixtures: the repository's paths and a runner invoked in-process."""

from __future__ import annotations

import atexit
import dataclasses
import functools
import io
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from runner.cli import main
from runner.machine import one_blas_thread

ROOT = Path(__file__).resolve().parents[1]
CLAIMS = ROOT / "claims"
MODULE = CLAIMS / "23-design-tradeoffs"
SHARED = ROOT.parent / "shared"

# In-process runs judge as `python -m runner` does, which starts NumPy on one BLAS thread: a
# second thread spinning in every test process takes the CPU the other xdist worker needs
one_blas_thread()


@dataclass
class Result:
    code: int
    out: str
    err: str


def cli_in_process() -> Callable[..., Result]:
    """Run ``python -m runner ARGS`` in this process; return exit code, stdout, stderr."""

    def invoke(*args: str) -> Result:
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args))
        return Result(code, out.getvalue(), err.getvalue())

    return invoke


@pytest.fixture
def cli() -> Callable[..., Result]:
    """Run ``python -m runner ARGS`` in this process; return exit code, stdout, stderr."""
    return cli_in_process()


# (claims and faults as read, the pack's registry) -> a whole reference run's results: see
# claims_computed_once. The registry is kept with them: its id is never another's.
_COMPUTED: dict[tuple[Any, ...], tuple[Any, Any]] = {}


@pytest.fixture
def claims_computed_once(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """The claims and faults of a whole reference run computed once per test process for
    the same claims, faults and pack code, and handed to every later run as a copy: for the
    tests of what the command line does with a run's results (what it prints, the evidence
    it writes, keeps or compares), which would otherwise compute the same 65 claims and 12
    faults again in every test (1.6 s of CPU each; a claim file edited, a line moved, the
    pack's code changed or another pack's: computed afresh). A test whose point is computing
    again (the same values twice: no drift) is marked ``computed_afresh``. Every claim runs
    for real the first time, and test_faults, test_drift and CI's evidence check run them
    without this."""
    import copy

    from runner import api
    from runner.record.build import code_sha256

    if request.node.get_closest_marker("computed_afresh") is not None:
        return
    real = api.run_with_faults

    def once(pack: Any, impl: Any, registry: Any) -> Any:
        key = (
            id(registry),
            code_sha256(pack.code.code_directories()),
            pack.meta.model_dump_json(),
            tuple((c.file, c.line, c.claim.model_dump_json()) for c in pack.claims),
            tuple((f.file, f.line, f.fault.model_dump_json()) for f in pack.faults),
        )
        if key not in _COMPUTED:
            _COMPUTED[key] = (registry, real(pack, impl, registry))
        return copy.deepcopy(_COMPUTED[key][1])

    monkeypatch.setattr(api, "run_with_faults", once)


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests read English output unless they ask for Chinese with --lang zh."""
    monkeypatch.setenv("LEARN_LLM_LANG", "en")


CORRECT_BASE = ROOT / "tests" / "learners" / "correct" / "_base.py"


def handed_in(path: Path, into: Path, helper: Path = CORRECT_BASE) -> Path:
    """A learner's file that imports a helper module of its own (``from _base import *``)
    handed in the way such a learner hands it in: a folder submission, ``into/<stem>/``,
    holding the file as its entry (my_impl.py) and the helper beside it. A worker sees only
    its own submission's files, so a file alone could not import the helper."""
    folder = into / path.stem
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "my_impl.py").write_bytes(path.read_bytes())
    (folder / helper.name).write_bytes(helper.read_bytes())
    return folder


def deep_folder(top: Path, depth: int, name: str = "d", link: Path | None = None) -> None:
    """``depth`` nested folders ``name`` under ``top``, each made relative to its parent's
    descriptor (the whole path may be longer than PATH_MAX), each holding a link to
    ``link`` when one is given."""
    import os

    fd = os.open(top, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir(name, dir_fd=fd)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
            if link is not None:
                os.symlink(str(link), "link", dir_fd=fd)
    finally:
        os.close(fd)


def claim_ids() -> list[str]:
    """The ids of the real module's claims, in run order (the pack decides how many)."""
    from runner.load import load_packs

    (pack,) = load_packs([MODULE])
    return [c.claim.id for c in pack.claims]


N_CLAIMS = len(claim_ids())


def _pack_version() -> int:
    from runner.load import load_packs

    (pack,) = load_packs([MODULE])
    return pack.meta.version


VERSION = _pack_version()  # the claim pack's version, as module.yaml says
EVIDENCE_NAME = f"23-design-tradeoffs-v{VERSION}.json"


def partial_module_yaml() -> str:
    """The real module.yaml for a module that holds only some of the pack's claim files (a
    test's own): without ``required_metrics``, which name metrics of claims it leaves out."""
    text = (MODULE / "module.yaml").read_text(encoding="utf-8")
    return re.sub(r"(?m)^required_metrics:\n(?:  - .*\n)+", "", text)


# The claim files of a quick module: the claim on logits_memory_bytes that the boundary's
# hostile files break (8-tokenizer-bill), with claims before it and after it that call
# other functions, so a worker killed in one claim must come back for the next. After it,
# the audit's claims on attention, multi-head attention and the KV cache, without its three
# costly ones (QUICK_LEFT_OUT: a learner's per-position blocks alone took 58 ms): a learner's
# run of the quick module took 0.45 s of CPU with them, 0.60 s with the sampling claims.
QUICK_FILES = ("7-top-k.yaml", "8-tokenizer-bill.yaml", "11-audit.yaml")
QUICK_LEFT_OUT = (
    "operators.per-position-blocks",
    "operators.position-code",
    "structure.averaging-cost",
)


def without_claims(claim_file: Path, ids: tuple[str, ...]) -> None:
    """``claim_file`` rewritten without the claims ``ids`` (each from its ``  - id:`` line to
    the next claim's), every other line as it was."""
    kept: list[str] = []
    dropping = False
    for line in claim_file.read_text(encoding="utf-8").splitlines(keepends=True):
        if line.startswith("  - id: "):
            dropping = line.removeprefix("  - id: ").strip() in ids
        if not dropping:
            kept.append(line)
    claim_file.write_text("".join(kept), encoding="utf-8")


@functools.cache
def quick_module(files: tuple[str, ...] = QUICK_FILES) -> Path:
    """The real module, with only ``files`` of its claims and no faults, committed in
    a git repository of its own (evidence records the commit holding the claims): for tests
    of what happens around a claim, where the whole pack would only repeat the same
    exchanges for seconds. Made once per test process, removed when it ends."""
    repo = Path(tempfile.mkdtemp(prefix="quick-module-"))
    atexit.register(shutil.rmtree, repo, ignore_errors=True)
    target = repo / "claims" / MODULE.name
    shutil.copytree(MODULE, target)
    for claim_file in target.glob("*.yaml"):
        if claim_file.name not in ("module.yaml", *files):
            claim_file.unlink()
        elif claim_file.name != "module.yaml":
            without_claims(claim_file, QUICK_LEFT_OUT)
    (target / "module.yaml").write_text(partial_module_yaml(), encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True)
    identity = ["-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "-C", str(repo), *identity, "commit", "-qm", "quick"], check=True)
    return target


def _chapter_pack_registry() -> Any:
    from checks.pack import pack

    return pack.registry


REGISTRY = _chapter_pack_registry()  # chapter 23's pack's registry, as the engine finds it


def claims_needing(pack: Any, functions: set[str]) -> Any:
    """``pack`` with only the claims whose checks call one of ``functions``: the only ones a
    learner file that differs from a correct one in those functions alone can fail."""
    registry = pack.code.registry
    chosen = tuple(
        c
        for c in pack.claims
        if functions & set(registry.resolve_check(c.claim.check).needs_of(c.claim.inputs))
    )
    return dataclasses.replace(pack, claims=chosen, complete=False)


def in_a_fork(child: Callable[[], None]) -> tuple[int, bytes]:
    """Run ``child`` in a process forked from this one: its exit code and what it wrote on
    stderr; a child that returns writes "went on" and exits 0."""
    import os

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            os.close(read)
            os.dup2(write, 2)
            child()
            os.write(write, b"went on")
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as said:
        output = said.read()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), output


# Every module of about two seconds or more, longest first (seconds of one worker's wall on this
# 2-core machine, from a whole run's timeline), so that pytest-xdist's two workers end near
# each other, the last modules handed out being the shortest: ``--dist loadfile`` hands out
# whole files in collection order (pyproject.toml turns off its reordering by the number of
# tests, which put long modules of few tests last). A module not named keeps its place after
# these; each file's own order stays.
FIRST = (
    "test_mutants.py",  # 68
    "test_boundary.py",  # 65
    "test_class_runs.py",  # 62
    "test_sandbox.py",  # 55
    "test_diagnose.py",  # 45
    "test_correct_alternatives.py",  # 44
    "test_twins.py",  # 34
    "test_faults.py",  # 33
    "test_outputs.py",  # 30
    "test_share.py",  # 27
    "test_learner.py",  # 26
    "test_validate_submissions.py",  # 23
    "test_cli_run.py",  # 21
    "test_bundle.py",  # 19
    "test_packs.py",  # 18
    "test_drift.py",  # 14
    "test_feedback.py",  # 12
    "test_report_figures.py",  # 12
    "test_each.py",  # 10
    "test_validate_fuzz.py",  # 9
    "test_validate_hostile.py",  # 7
    "test_codec.py",  # 7
    "test_record_write.py",  # 6
    "test_compare.py",  # 6
    "test_i18n.py",  # 6
    "test_class_report.py",  # 5
    "test_schemas.py",  # 4
    "test_reference_properties.py",  # 3
    "test_safeyaml.py",  # 3
    "test_bad_claims.py",  # 3
    "test_reference_edges.py",  # 2
    "test_claims_catch_wrong_values.py",  # 2
    "test_beyond.py",  # 2
    "test_audit.py",  # 2
    "test_smoke.py",  # 2
)


def pytest_configure(config: pytest.Config) -> None:
    """Byte-compile the engine and the pack once, before any test starts a process: pip
    byte-compiles an install, but an editable checkout where PYTHONDONTWRITEBYTECODE is set
    (this course's machines and CI) compiled every module again in every command the tests
    run and in every fork server (0.17 s of a 0.5 s command). Done by the controller only:
    xdist's workers start after it."""
    if hasattr(config, "workerinput"):
        return
    import compileall

    for folder in ("runner", "checks"):
        compileall.compile_dir(ROOT / folder, quiet=1)


def pytest_collection_modifyitems(items: list[Any]) -> None:
    def rank(item: Any) -> int:
        name = item.path.name
        return FIRST.index(name) if name in FIRST else len(FIRST)

    items.sort(key=rank)  # stable: every other file keeps its place
