"""The claim-file JSON Schema, generated from the pydantic models so the two never disagree.

``python -m runner.schema_export`` rewrites ``schemas/claim-file.v1.json``; a test checks
that the committed file is what this module generates.
"""

from __future__ import annotations

import json
from typing import Any

from runner.models import PropositionFile
from runner.provenance import PROJECT_ROOT

CLAIM_SCHEMA_PATH = PROJECT_ROOT / "schemas" / "claim-file.v1.json"


def claim_file_schema() -> dict[str, Any]:
    generated = PropositionFile.model_json_schema()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://learn-llm.invalid/schemas/claim-file.v1.json",
        "title": "learn-llm claim file v1",
        "description": "One proposition of a chapter and its executable claims "
        "(claims/<module>/*.yaml, except module.yaml and faults.yaml).",
        **{k: v for k, v in generated.items() if k not in ("title", "description")},
    }


def render() -> str:
    return json.dumps(claim_file_schema(), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    CLAIM_SCHEMA_PATH.write_text(render(), encoding="utf-8")
    print(f"wrote {CLAIM_SCHEMA_PATH.relative_to(PROJECT_ROOT)}")
