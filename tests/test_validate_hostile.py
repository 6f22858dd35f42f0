"""`validate` against the adversarial tester's findings: hostile repositories (pack bombs,
dangling commits, unreadable files), misuse that once passed (``--repo ""``, a JUnit report
over a submission), interrupts, and text shown escaped once."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.test_validate_submissions import GOOD_YAML, learner_repo, validate


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """As in test_validate_submissions: the learner's repository ``repo/`` in the current
    directory (its commit is LEARNER_HEAD)."""
    learner_repo(tmp_path, "repo")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_an_empty_repo_is_misuse_not_the_current_directory(cli, work):
    (work / "sub.yaml").write_text(GOOD_YAML, encoding="utf-8")

    result = validate(cli, "sub.yaml", "--repo", "")

    assert (result.code, result.out) == (2, "")
    assert result.err == "error: --repo: an empty path names no repository\n"


def test_a_junit_report_never_overwrites_a_submission(cli, work):
    sub = work / "sub.yaml"
    sub.write_text(GOOD_YAML, encoding="utf-8")
    (work / "link.xml").symlink_to(sub)

    for target in ("sub.yaml", "./sub.yaml", str(sub), "link.xml"):
        result = validate(cli, "sub.yaml", "--junit-xml", target)

        assert (result.code, result.out) == (2, "")
        assert "is one of this command's inputs" in result.err
        assert sub.read_text(encoding="utf-8") == GOOD_YAML


def test_a_junit_report_over_a_file_of_a_folder_is_refused(cli, work):
    (work / "subs").mkdir()
    sub = work / "subs" / "a.yaml"
    sub.write_text(GOOD_YAML, encoding="utf-8")

    result = validate(cli, "subs", "--junit-xml", "subs/a.yaml")

    assert result.code == 2
    assert sub.read_text(encoding="utf-8") == GOOD_YAML
    assert not Path("subs/b.xml").exists()
