"""The two schemas: well formed, in step with the code, and what they describe validates."""

from __future__ import annotations

import json
import subprocess

import jsonschema
import pytest
import yaml

from runner import provenance
from runner.load import claim_files
from runner.schema_export import CLAIM_SCHEMA_PATH, render
from tests.conftest import MODULE, ROOT

EVIDENCE_SCHEMA = ROOT / "schemas" / "learn-llm.evidence.v1.json"


@pytest.mark.parametrize("path", [EVIDENCE_SCHEMA, CLAIM_SCHEMA_PATH], ids=lambda p: p.name)
def test_schemas_are_draft_2020_12_with_an_id(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith(path.name)


def test_committed_claim_file_schema_is_the_one_the_models_generate():
    """Regenerate with `python -m runner.schema_export` after changing runner/models.py."""
    assert CLAIM_SCHEMA_PATH.read_text(encoding="utf-8") == render()


@pytest.mark.parametrize("path", claim_files(MODULE), ids=lambda p: p.name)
def test_every_claim_file_validates_against_the_claim_file_schema(path):
    schema = json.loads(CLAIM_SCHEMA_PATH.read_text(encoding="utf-8"))
    errors = list(
        jsonschema.Draft202012Validator(schema).iter_errors(yaml.safe_load(path.read_text("utf-8")))
    )
    assert errors == []


def test_claim_file_schema_rejects_what_the_loader_rejects():
    schema = json.loads(CLAIM_SCHEMA_PATH.read_text(encoding="utf-8"))
    doc = yaml.safe_load((MODULE / "7-top-k.yaml").read_text(encoding="utf-8"))
    doc["claims"][0]["expect"][0]["tolerence"] = {"kind": "exact"}  # a misspelt key
    assert not jsonschema.Draft202012Validator(schema).is_valid(doc)


def git(repo, *args):
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True)


def test_commit_is_the_last_one_that_touched_measured_files_and_dirt_is_marked(
    tmp_path, monkeypatch
):
    repo = tmp_path / "repo"
    (repo / "checks").mkdir(parents=True)
    (repo / "checks" / "a.py").write_text("x = 1\n")
    git(repo, "init", "-q")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "code")
    measured = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    (repo / "evidence").mkdir()
    (repo / "evidence" / "e.json").write_text("{}\n")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "add", ".")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "evidence only")
    monkeypatch.setattr(provenance, "PROJECT_ROOT", repo)
    # a commit of evidence alone does not change what was measured
    assert provenance.measured_commit() == provenance.Commit(measured, dirty=False)
    (repo / "checks" / "a.py").write_text("x = 2\n")
    assert provenance.measured_commit() == provenance.Commit(measured, dirty=True)
    (repo / "checks" / "a.py").write_text("x = 1\n")
    (repo / "claims").mkdir()
    (repo / "claims" / "new.yaml").write_text("{}\n")  # untracked counts too
    assert provenance.measured_commit() == provenance.Commit(measured, dirty=True)


def test_no_git_means_no_commit(tmp_path, monkeypatch):
    monkeypatch.setattr(provenance, "PROJECT_ROOT", tmp_path)
    assert provenance.measured_commit() is None


def test_no_git_program_means_no_commit(monkeypatch):
    monkeypatch.setenv("PATH", "")  # git cannot be found: not a traceback, no commit
    assert provenance.measured_commit() is None
