"""The whole pipeline on the real claim pack, written to a temporary folder."""

from __future__ import annotations

import json

from tests.conftest import CLAIMS, EVIDENCE_NAME, N_CLAIMS, VERSION


def test_reference_run_passes_and_writes_schema_valid_evidence(cli, tmp_path):
    result = cli("run", str(CLAIMS), "--out", str(tmp_path))
    assert result.code == 0, result.out + result.err
    assert result.out.splitlines()[-3] == f"{N_CLAIMS} passed, 0 failed"
    doc = json.loads((tmp_path / EVIDENCE_NAME).read_text())
    names = {m["name"] for m in doc["metrics"]}
    assert {"support_log10_gpt2_vocab_1000_ctx", "gpt2_small_parameter_total"} <= names
    manifest = json.loads((tmp_path / "module-manifest-v1.json").read_text())
    assert manifest["modules"]["23-design-tradeoffs"]["version"] == VERSION
