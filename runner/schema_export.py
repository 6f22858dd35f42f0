"""The JSON Schemas, generated from the pydantic models so the two never disagree.

``python -m runner.schema_export`` rewrites ``schemas/claim-file.v1.json`` and
``schemas/learn-llm.evidence.v1.json``; a test checks that the committed files are what
this module generates.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import schemas
from runner.models import PropositionFile
from runner.models.evidence import evidence_json_schema

SCHEMA_DIR = Path(schemas.__file__).resolve().parent


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


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


GENERATED = {schemas.CLAIM_FILE: claim_file_schema, schemas.EVIDENCE: evidence_json_schema}


if __name__ == "__main__":
    for name, make in GENERATED.items():
        (SCHEMA_DIR / name).write_text(render(make()), encoding="utf-8")
        print(f"wrote schemas/{name}")
