"""The JSON Schemas, generated from the pydantic models so the two never disagree.

``python -m runner.schema_export`` rewrites ``claim-file.v1.json`` and
``learn-llm.evidence.v1.json`` in both places they live: the repository's ``schemas/`` folder
(for editors and people) and ``runner/schemas/`` (the engine's package data, which the wheel
ships: no top-level ``schemas`` package to collide with PyPI's). A test checks that the
committed files of both are what this module generates.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from runner import schemas
from runner.models import PropositionFile
from runner.models.evidence import evidence_json_schema

PACKAGE_DIR = Path(schemas.__file__).resolve().parent  # runner/schemas/
REPOSITORY_DIR = PACKAGE_DIR.parents[1] / "schemas"  # schemas/ beside runner/ in a checkout


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
        for folder, shown in ((PACKAGE_DIR, "runner/schemas"), (REPOSITORY_DIR, "schemas")):
            if folder.is_dir():
                (folder / name).write_text(render(make()), encoding="utf-8")
                print(f"wrote {shown}/{name}")
