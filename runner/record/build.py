"""Build the evidence of one module's run: results in, an :class:`Evidence` model out."""

from __future__ import annotations

import hashlib
import json
import math
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from runner.i18n import Msg, catalog
from runner.load import ClaimPack
from runner.models import ClaimResult
from runner.models.evidence_format import EVIDENCE_SCHEMA, RUNNER_FORMAT
from runner.pack import Raised, Registry
from runner.provenance import Commit, environment, now_iso, repo_relative
from runner.record.licenses import PRODUCER, dependency_licenses, own_version

# Reproduction precision of `run --check` (see runner.record.drift).
REL, RESIDUE_ABS, MEMORY_REL = 1e-9, 1e-12, 0.25
COMPARED = [
    "module, seed, commit, commit_dirty",
    "claim_pack (files and sha256s)",
    "implementation",
    "summary",
    "claims: status, reason code, expected, tolerance, verdict; actual and observations to "
    "their precision",
    "faults: matrix, score, catchers, claims broken, facts held, their values to precision",
    "challenge",
]


def build_evidence(
    pack: ClaimPack,
    results: list[ClaimResult],
    impl: dict[str, Any],
    commit: Commit,
    command: str,
    duration_ms: float,
    faults: dict[str, Any] | None = None,
    challenge: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The evidence document as JSON data, validated by its model."""
    english = catalog("en")  # the template's free-text field, for any reader; not compared
    claims = [claim_record(r, pack.code.registry) for r in results]
    doc: dict[str, Any] = {
        "schema": EVIDENCE_SCHEMA,
        "module": pack.meta.id,
        "commit": commit.sha,
        "verified_at": now_iso(),
        "environment": environment(),
        "seed": pack.meta.seed,
        "commands": [command],
        "metrics": [
            {
                "name": m["metric"],
                "expected": m["expected"],
                "actual": m["actual"],
                "claim": c["id"],
                "verdict": m["verdict"],
                **({"unit": m["unit"]} if m.get("unit") else {}),
                **({"context": True} if m.get("context") else {}),
            }
            for c in claims
            for m in c["measurements"]
        ],
        "artifacts": [],
        "cost": {"gross_usd": 0, "credit_usd": 0},
        "licenses": dependency_licenses(),
        "known_failures": [
            f"{r.id}: {r.status}" + (f": {english.say(r.reason.msg())}" if r.reason else "")
            for r in results
            if r.status != "passed"
        ],
        "producer": {"name": PRODUCER, "version": own_version(), "format": RUNNER_FORMAT},
        "commit_dirty": commit.dirty,
        "duration_ms": round(duration_ms, 3),
        "reproduction": {
            "rel": REL,
            "residue_abs": RESIDUE_ABS,
            "memory_rel": MEMORY_REL,
            "compared": COMPARED,
        },
        "claim_pack": claim_pack_identity(pack, commit),
        "implementation": impl,
        "summary": {
            **summary(results),
            "by_kind": {kind: summary([r for r in results if r.kind == kind]) for kind in KINDS},
        },
        "claims": claims,
    }
    if challenge is not None:
        doc["challenge"] = to_json_data(challenge)
    if faults is not None:
        doc["faults"] = to_json_data(faults)
    # Plain data, checked against the schema generated from runner.models.evidence.Evidence
    # before it is written (jsonschema-rs); building the pydantic model here as well would
    # only add its import to every run. A test keeps the two in step.
    return doc


KINDS = ("proposition", "contract")


def summary(results: list[ClaimResult]) -> dict[str, Any]:
    """Counts by status, and the points, of ``results``."""
    counts: dict[str, Any] = {
        s: sum(r.status == s for r in results) for s in ("passed", "failed", "error", "skipped")
    }
    counts["total"] = len(results)
    counts["points"] = sum(r.score for r in results)
    counts["max_points"] = sum(r.points for r in results)
    return counts


def claim_record(result: ClaimResult, registry: Registry) -> dict[str, Any]:
    spec = registry.find_check(result.check)
    precision = dict(spec.precision) if spec else {}
    record: dict[str, Any] = to_json_data(result)
    for m in record["measurements"]:
        m["precision"] = precision.get(m["name"], "value")
    record["observation_precision"] = {
        k: precision[k] for k in record["observations"] if precision.get(k, "value") != "value"
    }
    return record


def to_json_data(value: Any) -> Any:
    """Plain JSON data: NaN and infinities as strings, raised errors as objects."""
    if isinstance(value, dict):
        return {str(k): to_json_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json_data(v) for v in value]
    if isinstance(value, Raised):
        return {"raised": value.error, "message": value.message}
    if isinstance(value, Msg):
        return value.as_data()
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, BaseModel):
        # field by field rather than model_dump(), which would turn Raised into a plain dict
        return {name: to_json_data(getattr(value, name)) for name in type(value).model_fields}
    return value


def claim_pack_identity(pack: ClaimPack, commit: Commit | None) -> dict[str, Any]:
    root = commit.root if commit else None
    files = []
    whole = hashlib.sha256()
    for path in pack.files:
        data = path.read_bytes()
        rel = repo_relative(path, root)
        files.append({"path": rel, "sha256": hashlib.sha256(data).hexdigest()})
        whole.update(rel.encode() + b"\0" + data + b"\0")
    return {
        "module": pack.meta.id,
        "version": pack.meta.version,
        "title": pack.meta.title.model_dump(),
        "chapter": pack.meta.chapter,
        "pack": pack.code.name if pack.pack is not None else pack.meta.pack,
        "files": files,
        "sha256": whole.hexdigest(),
        "code_sha256": code_sha256(pack.pack.code_directories()) if pack.pack else None,
        "expectations_sha256": expectations_sha256(pack),
    }


def code_sha256(places: tuple[str, ...]) -> str:
    """One digest of the pack's code: every file under its code directories (symlinked
    folders followed), each by its path inside them, and of a pack that is one file. Left
    out: what Python and tools write beside code and no wheel ships (``__pycache__``,
    compiled bytecode, hidden files and folders such as ``.mypy_cache`` or ``.DS_Store``,
    ``*.egg-info``), so a checkout and an install of the same code agree."""
    whole = hashlib.sha256()
    for place in places:
        root = Path(place)
        for rel, path in _code_files(root) if root.is_dir() else [(root.name, root)]:
            whole.update(rel.encode("utf-8", "surrogatepass") + b"\0" + path.read_bytes() + b"\0")
    return whole.hexdigest()


def _code_files(root: Path) -> list[tuple[str, Path]]:
    found: list[tuple[str, Path]] = []
    seen: set[str] = set()  # folders by their real path: a link back up is walked once
    for folder, dirs, files in os.walk(root, followlinks=True):
        real = os.path.realpath(folder)
        if real in seen:
            dirs[:] = []
            continue
        seen.add(real)
        dirs[:] = sorted(d for d in dirs if not _generated(d))
        for name in files:
            path = Path(folder, name)
            if not _generated(name) and path.suffix not in (".pyc", ".pyo") and path.is_file():
                found.append((path.relative_to(root).as_posix(), path))
    return sorted(found)


def _generated(name: str) -> bool:
    return name.startswith(".") or name == "__pycache__" or name.endswith(".egg-info")


def expectations_sha256(pack: ClaimPack) -> str:
    """What the claims assert; a change here is a change of meaning and needs a new version."""
    asserted = sorted(
        (
            {
                "id": c.claim.id,
                "check": c.claim.check,
                "inputs": c.claim.inputs,
                "expect": [
                    e.model_dump(include={"measure", "metric", "value", "tolerance"}, mode="json")
                    for e in c.claim.expect
                ],
            }
            for c in pack.claims
        ),
        key=lambda d: str(d["id"]),
    )
    blob = json.dumps(asserted, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()
