"""Portable evidence: `run --check` compares what the claims assert, to a stated precision.

Evidence recorded under one OpenBLAS kernel and thread count must check under others (the
last bits of rounding residue differ; nothing the claims assert does), and the drift check
must still catch every change that matters: a status, a verdict, an expected value, a
measured value beyond its precision.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from runner.record import drift
from tests.conftest import CLAIMS, EVIDENCE_NAME

EVIDENCE = f"evidence/{EVIDENCE_NAME}"


def _cli(repo: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "runner", *args, "--lang", "en"],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        timeout=120,
        check=False,
    )


# the instruction set each kernel needs: OpenBLAS trusts OPENBLAS_CORETYPE, and a kernel the
# CPU lacks dies of SIGILL (SkylakeX needs AVX-512, which many CI machines do not have)
NEEDS = {"Haswell": "avx2", "Sandybridge": "avx", "Prescott": "pni", "SkylakeX": "avx512f"}


@functools.cache
def _cpu_flags() -> set[str]:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    except OSError:  # pragma: no cover - not Linux
        return set()
    return {flag for line in text.splitlines() if line.startswith("flags") for flag in line.split()}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course repository whose evidence was recorded with one kernel, one thread."""
    if NEEDS["Haswell"] not in _cpu_flags():  # pragma: no cover - a CPU older than 2013
        pytest.skip("this CPU cannot run OpenBLAS's Haswell kernel")
    repo = tmp_path_factory.mktemp("course")
    shutil.copytree(CLAIMS, repo / "claims")
    for args in (["init", "-q"], ["add", "-A"]):
        subprocess.run(["git", "-C", str(repo), *args], check=True)
    subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "c"],
        check=True,
    )
    done = _cli(repo, "run", "claims/", OPENBLAS_CORETYPE="Haswell", OPENBLAS_NUM_THREADS="1")
    assert done.returncode == 0, done.stdout + done.stderr
    return repo


def _probe(code: str, **env: str) -> str:
    """What a fresh Python prints for ``code`` under ``env``."""
    return subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=True,
    ).stdout.strip()


def _kernel(repo: Path, coretype: str) -> str:
    probe = (
        "import threadpoolctl, numpy;"
        "print([i['architecture'] for i in threadpoolctl.threadpool_info() if i['user_api'] == 'blas'][0])"
    )
    return _probe(probe, OPENBLAS_CORETYPE=coretype)


@pytest.mark.parametrize(
    ("coretype", "threads"), [("Sandybridge", "2"), ("Prescott", "1"), ("SkylakeX", "2")]
)
def test_evidence_checks_under_another_blas_kernel_and_thread_count(recorded, coretype, threads):
    if NEEDS[coretype] not in _cpu_flags():
        pytest.skip(f"this CPU cannot run OpenBLAS's {coretype} kernel")
    recorded_with = json.loads((recorded / EVIDENCE).read_text())["environment"]
    assert recorded_with["blas_kernel"] == "Haswell" and recorded_with["blas_threads"] == "1"
    kernel = _kernel(recorded, coretype)
    if kernel == "Haswell":  # pragma: no cover - an OpenBLAS build without that kernel
        pytest.skip(f"OpenBLAS ignores OPENBLAS_CORETYPE={coretype} here")
    done = _cli(
        recorded,
        "run",
        "claims/",
        "--check",
        OPENBLAS_CORETYPE=coretype,
        OPENBLAS_NUM_THREADS=threads,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert (
        "no drift: the evidence in evidence/ matches this run (the files there, committed or not)"
        in done.stdout
    )


def _simd(disabled: str) -> list[str]:
    """The CPU features NumPy dispatches to, with ``disabled`` turned off."""
    probe = (
        "from numpy._core._multiarray_umath import __cpu_features__ as f;"
        "print(' '.join(sorted(k for k, v in f.items() if v)))"
    )
    return _probe(probe, NPY_DISABLE_CPU_FEATURES=disabled).split()


@pytest.mark.parametrize("disabled", ["X86_V3", "X86_V4"])
def test_evidence_checks_under_another_numpy_simd_level(recorded, disabled):
    """NumPy's own loops (exp, sums) are chosen by CPU: its AVX2 and SSE4 exp differ in the
    last bits, which moves where float32 first rounds a gap away (1.0e7 against 4.0e7)."""
    if disabled not in _simd(""):
        pytest.skip(f"this CPU has no {disabled} loops to turn off")
    assert disabled not in _simd(disabled)
    done = _cli(recorded, "run", "claims/", "--check", NPY_DISABLE_CPU_FEATURES=disabled)
    assert done.returncode == 0, done.stdout[-3000:]
    assert (
        "no drift: the evidence in evidence/ matches this run (the files there, committed or not)"
        in done.stdout
    )


# -- what is compared, and to what precision ---------------------------------------------------
@pytest.fixture(scope="module")
def doc(recorded: Path) -> dict:
    return json.loads((recorded / EVIDENCE).read_text())


def paths_of(old: dict, new: dict) -> list[str]:
    return [d.path for d in drift(old, new)]


def claim(doc: dict, claim_id: str) -> dict:
    return next(c for c in doc["claims"] if c["id"] == claim_id)


def at(doc: dict, claim_id: str) -> str:
    """The JSON path of a claim in the evidence (claims are recorded in file order)."""
    return f"$.claims[{[c['id'] for c in doc['claims']].index(claim_id)}]"


def test_identical_evidence_does_not_drift(doc):
    assert drift(doc, copy.deepcopy(doc)) == []


def test_provenance_is_recorded_not_compared(doc):
    fresh = copy.deepcopy(doc)
    fresh["verified_at"] = "2030-01-01T00:00:00Z"
    fresh["environment"] = {"python": "3.99.0", "numpy": "9.0", "blas_kernel": "Other"}
    fresh["licenses"] = []
    fresh["duration_ms"] = 1.0
    fresh["producer"]["version"] = "99.0"
    for c in fresh["claims"]:
        c["duration_ms"] = 123.0
    assert drift(doc, fresh) == []


def test_rounding_residue_is_compared_to_an_absolute_precision(doc):
    fresh = copy.deepcopy(doc)
    measurement = claim(fresh, "mask.prefix-softmax")["measurements"][0]
    assert measurement["precision"] == "residue"
    measurement["actual"] = measurement["actual"] + 3e-16  # another kernel's last bits
    assert drift(doc, fresh) == []
    measurement["actual"] = 5e-12  # beyond the stated 1e-12: a real change
    assert paths_of(doc, fresh) == [f"{at(doc, 'mask.prefix-softmax')}.measurements[0].actual"]


def test_measured_values_are_compared_to_nine_significant_digits(doc):
    fresh = copy.deepcopy(doc)
    c = claim(fresh, "support.gpt2-vocab-1000-ctx")
    metric = next(m for m in fresh["metrics"] if m["name"] == "support_log10_gpt2_vocab_1000_ctx")
    value = c["measurements"][0]["actual"]
    c["measurements"][0]["actual"] = metric["actual"] = value * (1 + 1e-12)
    assert drift(doc, fresh) == []
    c["measurements"][0]["actual"] = metric["actual"] = value * (1 + 1e-7)
    found = paths_of(doc, fresh)
    assert f"{at(doc, 'support.gpt2-vocab-1000-ctx')}.measurements[0].actual" in found
    assert any(p.startswith("$.metrics[") for p in found)


def test_an_exact_zero_and_a_tiny_value_are_different_values(doc):
    """Nine significant digits is relative: 0.0 never reproduces 1e-20 (an underflow that
    happens on one machine and not another is a real difference)."""
    fresh = copy.deepcopy(doc)
    tails = claim(fresh, "temperature.underflow")["measurements"][2]
    assert tails["actual"] == 0.0
    tails["actual"] = 1e-20
    assert f"{at(doc, 'temperature.underflow')}.measurements[2].actual" in paths_of(doc, fresh)


@pytest.mark.parametrize(
    ("where", "value"),
    [
        (("status",), "failed"),
        (("measurements", 0, "verdict"), "failed"),
        (("measurements", 0, "expected"), 4701.21),
        (("measurements", 0, "tolerance"), {"kind": "close", "abs": 1.0}),
        (("reason",), {"code": "claim.raised", "params": {}}),
    ],
)
def test_what_a_claim_asserts_is_compared_exactly(doc, where, value):
    fresh = copy.deepcopy(doc)
    node = fresh["claims"][0]
    for key in where[:-1]:
        node = node[key]
    node[where[-1]] = value
    assert drift(doc, fresh) != []


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["claims"][0].update(points=7), "$.claims[0].points"),
        (lambda d: d["claims"][0].update(visibility="hidden"), "$.claims[0].visibility"),
        (lambda d: d["summary"].update(points=d["summary"]["points"] + 1), "$.summary.points"),
        (lambda d: d["summary"].update(max_points=1e6), "$.summary.max_points"),
        (lambda d: d["known_failures"].append("support.gpt2-vocab-1000-ctx: failed"),
         "$.known_failures"),
    ],
)  # fmt: skip
def test_points_visibility_and_known_failures_are_compared(doc, change, path):
    """What a grade is made of: a claim's points and visibility, the summary's points, and
    the list of claims that did not pass (an invented line is drift)."""
    fresh = copy.deepcopy(doc)
    change(fresh)
    assert paths_of(doc, fresh) == [path]


def test_the_fault_matrix_and_facts_are_compared(doc):
    fresh = copy.deepcopy(doc)
    fault = fresh["faults"]["matrix"]["mask-multiply-zero"]
    fault["mask.prefix-softmax"] = "passed"
    # as deep as the change: the fault's cell, keys that are not names in brackets
    assert paths_of(doc, fresh) == ['$.faults.matrix["mask-multiply-zero"]["mask.prefix-softmax"]']
    fresh = copy.deepcopy(doc)
    fresh["faults"]["variants"][0]["observed_signal"][0]["held"] = False
    assert paths_of(doc, fresh) == ["$.faults.variants[0].observed_signal[0].held"]


def test_a_changed_pack_digest_is_named_not_the_whole_pack(doc):
    """A maintainer who changed the pack's code sees which digest moved, not two identical
    prefixes of the whole claim pack; a key only one side has is named as absent."""
    fresh = copy.deepcopy(doc)
    fresh["claim_pack"]["code_sha256"] = "0" * 64
    (found,) = drift(doc, fresh)
    assert (found.path, found.fresh) == ("$.claim_pack.code_sha256", json.dumps("0" * 64))
    del fresh["claim_pack"]["expectations_sha256"]
    fresh["claim_pack"]["extra"] = 1
    found = {d.path: (d.committed, d.fresh) for d in drift(doc, fresh)}
    assert found["$.claim_pack.expectations_sha256"][1] == "—"
    assert found["$.claim_pack.extra"] == ("—", "1")


def test_rounding_counts_are_recorded_not_compared(doc):
    fresh = copy.deepcopy(doc)
    mask = claim(fresh, "mask.prefix-softmax")
    assert mask["observation_precision"]["rows_summing_to_exactly_one"] == "rounding"
    mask["observations"]["rows_summing_to_exactly_one"] += 1
    assert drift(doc, fresh) == []


def test_evidence_that_is_not_an_object_drifts_without_raising(doc):
    for committed in (None, [], "text", 3, {"claims": "x", "faults": 1, "metrics": {}}):
        assert drift(committed, doc)
