"""Writing evidence: every I/O failure is one line and exit 2, concurrent runs lose nothing,
and unreadable files already there are named, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.record import same_assertions, write
from tests.conftest import EVIDENCE_NAME, MODULE, ROOT, partial_module_yaml

ONE_CLAIM = "-k", "topk.renormalize"


def course(root: Path, modules: dict[str, str] | None = None) -> Path:
    """A course repository at ``root`` with quick copies of the real module: its own id
    (its evidence is named as the real module's) and others. Writing evidence is what these
    tests judge, not the claims: one claim file and no faults is a module that runs in a
    fraction of a second, where the whole pack took seconds a run."""
    for new_id in [MODULE.name, *(modules or {})]:
        target = root / "claims" / new_id
        shutil.copytree(MODULE, target)
        meta = partial_module_yaml()
        (target / "module.yaml").write_text(meta.replace(f"id: {MODULE.name}", f"id: {new_id}"))
        # one claim file is enough for a quick module; ids must stay unique per module only
        for claim_file in target.glob("*.yaml"):
            if claim_file.name not in ("module.yaml", "7-top-k.yaml"):
                claim_file.unlink()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
    subprocess.run(
        ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c"],
        check=True,
    )
    return root


def run_cli(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "runner", *args, "--lang", "en"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def one_line_error(result) -> str:
    assert result.code == 2, result.out + result.err
    lines = result.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.err, result.err
    return lines[0]


# -- where the evidence goes ---------------------------------------------------------------------
def test_out_naming_a_file_is_one_line(cli, tmp_path, monkeypatch):
    course(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    line = one_line_error(cli("run", "claims/", "--out", "afile"))
    assert line == "error: afile: not a directory (--out names where evidence goes)"


def test_out_in_a_read_only_directory_is_one_line(cli, tmp_path, monkeypatch):
    if os.geteuid() == 0:
        pytest.skip("root writes through read-only permissions")
    course(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ro").mkdir(mode=0o500)
    assert "ro" in one_line_error(cli("run", "claims/", "--out", "ro/ev"))


@pytest.mark.parametrize("out", ["/proc/evidence", "/proc/self/status"])
def test_out_under_proc_is_one_line(cli, tmp_path, monkeypatch, out):
    course(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert out in one_line_error(cli("run", "claims/", "--out", out))


def test_out_as_a_dangling_symlink_is_one_line(cli, tmp_path, monkeypatch):
    course(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere" / "deeper")
    line = one_line_error(cli("run", "claims/", "--out", "dangling"))
    assert "dangling" in line


def test_an_empty_out_is_misuse_not_the_current_directory(cli, tmp_path, monkeypatch):
    course(tmp_path)
    monkeypatch.chdir(tmp_path)
    line = one_line_error(cli("run", "claims/", "--out", ""))
    assert line == "error: --out cannot be empty: name the directory evidence goes to"
    assert not list(tmp_path.glob("*.json"))


@pytest.mark.parametrize("flag", ["--junit-xml", "--gradescope-results"])
def test_reports_at_unwritable_paths_are_one_line(cli, tmp_path, monkeypatch, flag):
    course(tmp_path)
    monkeypatch.chdir(tmp_path)
    args = ["run", "claims/", *ONE_CLAIM, flag, "/proc/nope.xml"]
    if flag == "--gradescope-results":
        impl = tmp_path / "me.py"
        impl.write_text("def top_k_renormalize(probs, k):\n    return probs\n")
        args += ["--impl", str(impl)]
    assert "/proc/nope.xml" in one_line_error(cli(*args))


def test_report_html_at_an_unwritable_path_is_one_line(cli, tmp_path, monkeypatch):
    course(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert cli("run", "claims/").code == 0
    evidence = next((tmp_path / "evidence").glob("23-*.json"))
    assert "/proc/r.html" in one_line_error(cli("report", str(evidence), "--html", "/proc/r.html"))


# -- what is already there -------------------------------------------------------------------------
BAD_JSON = {
    "not-utf8": b"\xff\xfe{}",
    "digits": b'{"a": ' + b"9" * 4301 + b"}",
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "syntax": b"{not json",
}


@pytest.mark.parametrize("content", BAD_JSON.values(), ids=BAD_JSON.keys())
def test_unreadable_committed_evidence_is_named(cli, tmp_path, monkeypatch, content):
    course(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert cli("run", "claims/").code == 0
    evidence = tmp_path / "evidence" / EVIDENCE_NAME
    evidence.write_bytes(content)
    # writing again: refused with a line naming the file, nothing else touched
    manifest = (tmp_path / "evidence" / "module-manifest-v1.json").read_bytes()
    line = one_line_error(cli("run", "claims/"))
    assert f"evidence/{EVIDENCE_NAME}" in line
    assert (tmp_path / "evidence" / "module-manifest-v1.json").read_bytes() == manifest
    # --check: found wanting (exit 1), saying the committed evidence cannot be read
    checked = cli("run", "claims/", "--check")
    assert checked.code == 1 and "Traceback" not in checked.err
    assert f"drift: the recorded evidence cannot be read: evidence/{EVIDENCE_NAME}" in checked.out
    # report: one line
    assert EVIDENCE_NAME in one_line_error(cli("report", str(evidence), "--html", "r.html"))


@pytest.mark.parametrize(
    "content",
    [b"[]", b'{"modules": []}', b'"text"', b"9" * 5000],
    ids=["list", "shape", "str", "digits"],
)
def test_a_manifest_of_the_wrong_shape_is_named(cli, tmp_path, monkeypatch, content):
    course(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "evidence").mkdir()
    (tmp_path / "evidence" / "module-manifest-v1.json").write_bytes(content)
    line = one_line_error(cli("run", "claims/"))
    assert "evidence/module-manifest-v1.json" in line
    assert not (tmp_path / "evidence" / EVIDENCE_NAME).exists()


# -- runs at the same time ------------------------------------------------------------------------
def test_concurrent_runs_of_two_modules_keep_both_manifest_entries(tmp_path):
    """Two runs of different modules into one --out at once: each re-reads the manifest
    under the directory's lock and merges its entry (the issue lost 5 of 10 pairs)."""
    repo = course(tmp_path, {"99-other": ""})
    for _ in range(5):
        shutil.rmtree(repo / "evidence", ignore_errors=True)
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "runner", "run", f"claims/{module}/", "--lang", "en"],
                cwd=repo,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            for module in ("99-other", MODULE.name)
        ]
        for proc in procs:
            _, err = proc.communicate(timeout=120)
            assert proc.returncode == 0, err
        manifest = json.loads((repo / "evidence" / "module-manifest-v1.json").read_text())
        assert sorted(manifest["modules"]) == ["23-design-tradeoffs", "99-other"]


def test_temporary_files_left_by_a_killed_run_are_removed_by_the_next(tmp_path):
    out = tmp_path / "ev"
    out.mkdir()
    stale = out / f".{EVIDENCE_NAME}.abcd1234.tmp"
    stale.write_text("half a file")
    old = time.time() - write.STALE_S - 1
    os.utime(stale, (old, old))
    fresh = out / ".junit.xml.efgh5678.tmp"  # another command's, being written right now
    fresh.write_text("half a report")
    with write.locked(out):
        pass
    assert not stale.exists()
    assert sorted(p.name for p in out.iterdir()) == [fresh.name]  # and no lock file is left


def test_a_write_that_fails_leaves_no_temporary_file(tmp_path, monkeypatch):
    target = tmp_path / "x.json"

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    from runner.errors import EvidenceError

    with pytest.raises(EvidenceError) as info:
        write.write_json_atomic(target, {"a": 1})
    assert info.value.message.code == "io.disk_full"
    assert list(tmp_path.iterdir()) == []


# -- what "asserts the same" means ------------------------------------------------------------
@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> dict:
    """A real evidence document of the chapter's module (faults included)."""
    import copy

    from runner import api
    from runner.inject import fault_section
    from runner.provenance import Commit
    from runner.record import build_evidence

    (pack,) = api.load_claims([MODULE])
    run = api.run_packs([pack], api.Reference())
    (pack_run,) = run.packs
    commit = Commit(sha="a" * 40, dirty=False, root=ROOT)
    doc = build_evidence(
        pack, pack_run.results, run.implementation, commit, "python -m runner run claims/",
        pack_run.duration_ms, fault_section(pack_run.faults or []),
    )  # fmt: skip
    return copy.deepcopy(doc)


def changed(doc: dict, edit) -> dict:
    import copy

    new = copy.deepcopy(doc)
    edit(new)
    return new


def _first_float(doc: dict) -> dict:
    return next(
        m for c in doc["claims"] for m in c["measurements"] if isinstance(m["actual"], float)
        and m["actual"] != 0 and m.get("precision") == "value"
    )  # fmt: skip


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d.update(verified_at="2000-01-01T00:00:00Z"),
        lambda d: d["environment"].update(blas_kernel="Zen", blas_threads="64"),
        lambda d: d.update(duration_ms=1.0),
        lambda d: d["claims"][0].update(duration_ms=99.0),
        lambda d: d["producer"].update(version="9.9.9"),
        lambda d: d["licenses"].clear(),
        lambda d: _first_float(d).update(actual=_first_float(d)["actual"] * (1 + 1e-12)),
    ],
    ids=[
        "verified_at",
        "environment",
        "duration",
        "claim timing",
        "producer",
        "licenses",
        "last bits",
    ],
)
def test_provenance_and_last_bits_do_not_count_as_new(recorded, edit):
    assert same_assertions(changed(recorded, edit), recorded)


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: _first_float(d).update(actual=_first_float(d)["actual"] * (1 + 1e-6)),
        lambda d: d["claims"][0].update(status="failed"),
        lambda d: d["claims"][0]["statement"].update(en="another statement"),
        lambda d: d["summary"].pop("by_kind"),
        lambda d: d.update(commit="b" * 40),
        lambda d: d.update(extra="a field this runner does not write"),
        lambda d: d.pop("environment"),  # no longer schema-valid: always replaced
    ],
    ids=[
        "a measured value",
        "a status",
        "a statement",
        "a missing field",
        "the commit",
        "an extra field",
        "invalid",
    ],
)
def test_anything_asserted_differently_counts_as_new(recorded, edit):
    assert not same_assertions(changed(recorded, edit), recorded)


@pytest.mark.parametrize(
    ("stems", "names"),
    [
        ([" bob", "bob"], ["bob-2", "bob"]),  # a name that cleans up to a classmate's
        (["!bob", "bob", "bob-2"], ["bob-3", "bob", "bob-2"]),
        (["bob", "bob", "bob-2"], ["bob", "bob-3", "bob-2"]),  # one stem in two folders
        (["bad name", "bad_name"], ["bad_name-2", "bad_name"]),
        (["alice", "bob"], ["alice", "bob"]),
    ],
)
def test_a_learner_named_as_it_stands_keeps_its_name_in_a_class(stems, names):
    """Each learner's evidence and Gradescope results are named from its file's stem: a
    file named so that it cleans up to a classmate's name never takes the classmate's."""
    assert write.learner_variants(stems) == names
    assert len(set(names)) == len(names)


@pytest.mark.parametrize(
    ("stems", "names"),
    [
        (["reference", "reference-learner"], ["reference-learner-2", "reference-learner"]),
        (["reference-learner", "reference"], ["reference-learner", "reference-learner-2"]),
        (["reference"], ["reference-learner"]),
        (["challenge", "reference"], ["challenge-learner", "reference-learner"]),
        ([" reference", "reference"], ["reference-learner", "reference-learner-2"]),
    ],
)
def test_a_learner_named_like_the_references_variant_never_takes_a_classmates_name(stems, names):
    """``reference.py`` is judged as ``reference-learner``: a classmate who hands in
    ``reference-learner.py`` would otherwise share its evidence and results file, and one of
    the two would be lost (found by an outside attack round)."""
    assert write.learner_variants(stems, ("challenge", "reference")) == names
    assert len(set(names)) == len(names)
