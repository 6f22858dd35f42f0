"""The JSON Schemas of the evidence and of claim files, shipped as the engine's package data.

Both are generated from the runner's models (``python -m runner.schema_export``); a test
keeps the committed files equal to what the models generate.
"""

from __future__ import annotations

import functools
import json
from typing import Any

EVIDENCE = "learn-llm.evidence.v1.json"
CLAIM_FILE = "claim-file.v1.json"


@functools.cache
def load(name: str) -> dict[str, Any]:
    """A schema shipped in this package, parsed (cached: it never changes while running)."""
    from runner.files import shipped

    schema: dict[str, Any] = json.loads(shipped(__file__, name))
    return schema
