"""The two schemas: well formed, generated from the models, and what they describe validates."""

from __future__ import annotations

import json
import subprocess

import jsonschema
import pytest
import yaml

from runner import provenance, schemas
from runner.load import claim_files
from runner.schema_export import GENERATED, PACKAGE_DIR, REPOSITORY_DIR, render
from tests.conftest import EVIDENCE_NAME, MODULE


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_schemas_are_draft_2020_12_with_an_id(name):
    schema = schemas.load(name)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith(name)


@pytest.mark.parametrize("folder", [PACKAGE_DIR, REPOSITORY_DIR], ids=["runner/schemas", "schemas"])
@pytest.mark.parametrize("name", sorted(GENERATED))
def test_committed_schemas_are_the_ones_the_models_generate(name, folder):
    """Regenerate with `python -m runner.schema_export` after changing runner/models/: the
    engine's package data and the repository's schemas/ folder hold the same files."""
    assert (folder / name).read_text(encoding="utf-8") == render(GENERATED[name]())


@pytest.mark.parametrize("path", claim_files(MODULE), ids=lambda p: p.name)
def test_every_claim_file_validates_against_the_claim_file_schema(path):
    schema = schemas.load(schemas.CLAIM_FILE)
    doc = yaml.safe_load(path.read_text("utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(doc)) == []


def test_claim_file_schema_rejects_what_the_loader_rejects():
    schema = schemas.load(schemas.CLAIM_FILE)
    doc = yaml.safe_load((MODULE / "7-top-k.yaml").read_text(encoding="utf-8"))
    doc["claims"][0]["expect"][0]["tolerence"] = {"kind": "exact"}  # a misspelt key
    assert not jsonschema.Draft202012Validator(schema).is_valid(doc)


def test_evidence_schema_agrees_with_an_independent_validator(tmp_path, cli):
    """jsonschema-rs validates at run time; the pure-Python validator is the oracle here."""
    from runner.record.schema import schema_problems

    assert cli("run", str(MODULE), "--out", str(tmp_path)).code == 0
    doc = json.loads((tmp_path / EVIDENCE_NAME).read_text())
    oracle = jsonschema.Draft202012Validator(schemas.load(schemas.EVIDENCE))
    assert schema_problems(doc) == [] and oracle.is_valid(doc)
    doc["claims"][0]["status"] = "maybe"
    del doc["producer"]
    assert schema_problems(doc) and not oracle.is_valid(doc)


def test_the_chapters_template_filled_in_is_valid_evidence():
    path = MODULE.parents[1] / "tests" / "data" / "chapter-23-template.yaml"
    doc = yaml.safe_load(path.read_text("utf-8"))
    oracle = jsonschema.Draft202012Validator(schemas.load(schemas.EVIDENCE))
    assert not oracle.is_valid(doc)  # '<learner-commit-sha>' is not a sha
    doc.update(commit="0123abc", verified_at="2026-11-30", environment="python 3.11")
    doc["metrics"] = [
        {"name": "gpt2_small_parameter_total", "expected": 123532032, "actual": 123532032}
    ]
    doc["artifacts"] = ["out/run.log"]
    doc["licenses"] = []
    doc["known_failures"] = []
    assert list(oracle.iter_errors(doc)) == []


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def commit_all(repo, message):
    git(repo, "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message)
    return subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()


def test_commit_is_the_last_one_that_touched_the_claims_being_run(tmp_path):
    """A course repository with only claims/: the commit is that repository's, and only a
    change to the claim pack makes the evidence stale."""
    repo = tmp_path / "course"
    module = repo / "claims" / "m"
    module.mkdir(parents=True)
    (module / "a.yaml").write_text("x: 1\n")
    git(repo, "init", "-q")
    measured = commit_all(repo, "claims")
    (repo / "evidence").mkdir()
    (repo / "evidence" / "e.json").write_text("{}\n")
    commit_all(repo, "evidence only")
    # a commit of evidence alone does not change what was measured
    answer = provenance.start_measured_commit([module])()
    assert answer == provenance.Commit(measured, dirty=False, root=repo.resolve())
    (module / "a.yaml").write_text("x: 2\n")
    assert provenance.start_measured_commit([module])().dirty
    (module / "a.yaml").write_text("x: 1\n")
    (module / "new.yaml").write_text("{}\n")  # untracked counts too
    assert provenance.start_measured_commit([module])().dirty


def test_a_module_no_commit_holds_yet_is_dirty_and_the_others_keep_their_own(tmp_path):
    """Each module has its own commit; one not committed yet made the whole run unmeasured
    (no evidence for any module, and --check refused to compare)."""
    repo = tmp_path / "course"
    old, new = repo / "claims" / "old", repo / "claims" / "new"
    old.mkdir(parents=True)
    (old / "a.yaml").write_text("x: 1\n")
    git(repo, "init", "-q")
    measured = commit_all(repo, "old module")
    new.mkdir()
    (new / "b.yaml").write_text("y: 1\n")  # untracked

    answer = provenance.start_measured_commit([old, new])()

    assert isinstance(answer, provenance.Commit) and answer.dirty
    assert (answer.of(old).sha, answer.of(old).dirty) == (measured, False)
    assert (answer.of(new).sha, answer.of(new).dirty) == (measured, True)


def test_modules_of_two_repositories_have_no_one_commit_and_say_which_is_apart(tmp_path):
    """One commit cannot hold what a run of two repositories' modules measures (nor one
    command in one checkout reproduce it): no commit, naming the folders that are apart."""
    here, there, nowhere = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for repo in (here, there):
        (repo / "claims" / "m").mkdir(parents=True)
        (repo / "claims" / "m" / "a.yaml").write_text("x: 1\n")
        git(repo, "init", "-q")
        commit_all(repo, "claims")
    (nowhere / "m").mkdir(parents=True)
    first, second = here / "claims" / "m", there / "claims" / "m"

    answer = provenance.start_measured_commit([first, second, nowhere / "m", first])()

    assert answer == provenance.Unmeasured(apart=(second, nowhere / "m"), first=first)
    both = provenance.start_measured_commit([first, here / "claims"])()
    assert isinstance(both, provenance.Commit)  # two folders of one repository: one commit


def test_no_git_means_no_commit(tmp_path):
    (tmp_path / "m").mkdir()
    assert provenance.start_measured_commit([tmp_path / "m"])() == provenance.Unmeasured()


def test_no_git_program_means_no_commit(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", "")  # git cannot be found: not a traceback, no commit
    assert provenance.start_measured_commit([tmp_path])() == provenance.Unmeasured()


def test_the_repositorys_fsmonitor_hook_is_never_run(tmp_path):
    """git status would run core.fsmonitor's command: the runner asks git without it."""
    repo = tmp_path / "course"
    module = repo / "claims" / "m"
    module.mkdir(parents=True)
    (module / "a.yaml").write_text("x: 1\n")
    git(repo, "init", "-q")
    commit_all(repo, "claims")
    marker = tmp_path / "ran"
    git(repo, "config", "core.fsmonitor", f"touch {marker}; echo")
    answer = provenance.start_measured_commit([module])()
    assert isinstance(answer, provenance.Commit)
    assert not marker.exists()


@pytest.mark.parametrize(
    "config",
    [
        ("filter.x.clean", "sh -c 'touch {marker}; cat'"),
        ("filter.x.process", "sh -c 'touch {marker}'"),
        ("log.showSignature", "true"),
        ("gpg.program", "sh -c 'touch {marker}'"),
    ],
    ids=["clean-filter", "process-filter", "show-signature", "gpg-program"],
)
def test_no_program_the_repositorys_configuration_names_is_run(tmp_path, config):
    """A fork of a course repository may configure programs git runs: a clean filter on
    every changed file (what `git status` would run), a signature check on `git log`. The
    runner decides dirtiness by hashing files itself, and still sees the change."""
    repo = tmp_path / "course"
    module = repo / "claims" / "m"
    module.mkdir(parents=True)
    (module / "a.yaml").write_text("x: 1\n")
    (repo / ".gitattributes").write_text("* filter=x\n")
    git(repo, "init", "-q")
    commit_all(repo, "claims")
    marker = tmp_path / "ran"
    git(repo, "config", config[0], config[1].format(marker=marker))
    if config[0] == "gpg.program":
        git(repo, "config", "log.showSignature", "true")
    (module / "a.yaml").write_text("x: 2\n")  # changed: status would filter it

    answer = provenance.start_measured_commit([module])()

    assert isinstance(answer, provenance.Commit) and answer.dirty
    assert not marker.exists()
    (module / "a.yaml").write_text("x: 1\n")
    again = provenance.start_measured_commit([module])()
    assert isinstance(again, provenance.Commit) and not again.dirty
    assert not marker.exists()


def test_the_environment_names_the_blas_kernel_and_nothing_personal():
    env = provenance.environment()
    assert {"python", "numpy", "platform", "blas", "blas_kernel"} <= set(env)
    text = json.dumps(env)
    assert "/" not in text.replace("Linux-", "") and "\\\\" not in text
