"""Record: results -> an evidence document -> schema -> an atomic write and the manifest.

Nothing is written unless the whole document validates, and every file is written to a
temporary name in its directory and renamed, so a reader never sees half a file.
"""

from __future__ import annotations

import email.parser
import functools
import hashlib
import importlib
import json
import math
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import jsonschema
from pydantic import BaseModel

from checks.outcome import Raised
from checks.registry import Implementation
from runner.errors import EvidenceError
from runner.load import ClaimPack
from runner.models import ClaimResult
from runner.provenance import PROJECT_ROOT, Commit, environment, now_iso

EVIDENCE_SCHEMA = "learn-llm.evidence.v1"
MANIFEST_SCHEMA = "learn-llm.module-manifest.v1"
SCHEMA_DIR = PROJECT_ROOT / "schemas"
MANIFEST_NAME = "module-manifest-v1.json"
# distribution -> the module it installs (to find its metadata without scanning sys.path)
RUNTIME_DEPENDENCIES = {
    "numpy": "numpy",
    "pydantic": "pydantic",
    "pyyaml": "yaml",
    "jsonschema": "jsonschema",
}
# Fields that legitimately change between two runs of the same commit.
VOLATILE_KEYS = frozenset({"verified_at", "duration_ms"})
NOT_REDISTRIBUTED = "used as an installed dependency; not redistributed with this evidence"


def evidence_name(pack: ClaimPack, variant: str | None = None) -> str:
    suffix = f".{variant}" if variant else ""
    return f"{pack.meta.id}-v{pack.meta.version}{suffix}.json"


# -- the document ---------------------------------------------------------------------------
def build_evidence(
    pack: ClaimPack,
    results: list[ClaimResult],
    impl: Implementation,
    commit: Commit,
    command: str,
    duration_ms: float,
    faults: dict[str, Any] | None = None,
    challenge: dict[str, Any] | None = None,
) -> dict[str, Any]:
    counts = {
        s: sum(r.status == s for r in results) for s in ("passed", "failed", "error", "skipped")
    }
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
                "name": m.metric,
                "expected": m.expected,
                "actual": m.actual,
                "claim": r.id,
                "verdict": m.verdict,
                **({"unit": m.unit} if m.unit else {}),
            }
            for r in results
            for m in r.measurements
        ],
        "artifacts": [],
        "cost": {"gross_usd": 0, "credit_usd": 0},
        "licenses": dependency_licenses(),
        "known_failures": [
            f"{r.id}: {r.status}" + (f": {r.error}" if r.error else "")
            for r in results
            if r.status != "passed"
        ],
        "producer": {"name": "learn-llm-claims", "version": _own_version()},
        "commit_dirty": commit.dirty,
        "duration_ms": round(duration_ms, 3),
        "claim_pack": claim_pack_identity(pack),
        "implementation": {"kind": impl.kind, "name": impl.name, "sha256": impl.sha256},
        "summary": {**counts, "total": len(results)},
        "claims": results,
    }
    if challenge is not None:
        doc["challenge"] = challenge
    if faults is not None:
        doc["faults"] = faults
    plain: dict[str, Any] = to_json_data(doc)
    return plain


def to_json_data(value: Any) -> Any:
    """Plain JSON data: NaN and infinities as strings, raised errors as objects."""
    if isinstance(value, dict):
        return {str(k): to_json_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json_data(v) for v in value]
    if isinstance(value, Raised):
        return {"raised": value.error, "message": value.message}
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, BaseModel):
        # field by field rather than model_dump(), which would turn Raised into a plain dict
        return {name: to_json_data(getattr(value, name)) for name in type(value).model_fields}
    return value


def claim_pack_identity(pack: ClaimPack) -> dict[str, Any]:
    files = []
    whole = hashlib.sha256()
    for path in pack.files:
        data = path.read_bytes()
        rel = _repo_relative(path)
        files.append({"path": rel, "sha256": hashlib.sha256(data).hexdigest()})
        whole.update(rel.encode() + b"\0" + data + b"\0")
    return {
        "module": pack.meta.id,
        "version": pack.meta.version,
        "title": pack.meta.title.model_dump(),
        "chapter": pack.meta.chapter,
        "files": files,
        "sha256": whole.hexdigest(),
        "expectations_sha256": expectations_sha256(pack),
    }


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


def _repo_relative(path: Path) -> str:
    """A path as recorded in evidence and the manifest: repo-relative, else its bare name."""
    try:
        return path.resolve().relative_to(PROJECT_ROOT).as_posix()
    except ValueError:
        return path.name


@functools.cache
def dependency_licenses() -> list[dict[str, str]]:
    out = []
    for name, module in RUNTIME_DEPENDENCIES.items():
        meta = _dist_metadata(name, module)
        if meta is None:  # pragma: no cover - a dependency is missing
            continue
        license_ = str(meta.get("license_expression") or meta.get("license") or "see package")
        out.append(
            {
                "source": name,
                "version": str(meta["version"]),
                "license": license_.splitlines()[0][:120],
                "attribution": (
                    str(meta.get("author") or _names(meta.get("author_email")) or name)
                ).splitlines()[0][:120],
                "redistribution": NOT_REDISTRIBUTED,
            }
        )
    return out


@functools.cache
def _own_version() -> str:
    import tomllib  # only when evidence is built

    # pyproject.toml is the source of truth whether or not the project is installed
    with (PROJECT_ROOT / "pyproject.toml").open("rb") as fh:
        return str(tomllib.load(fh)["project"]["version"])


# -- schema ---------------------------------------------------------------------------------
@functools.cache
def evidence_schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(
        (SCHEMA_DIR / f"{EVIDENCE_SCHEMA}.json").read_text(encoding="utf-8")
    )
    return schema


@functools.cache
def evidence_validator() -> jsonschema.protocols.Validator:
    return jsonschema.Draft202012Validator(inline_refs(evidence_schema()))


@functools.cache
def evidence_is_valid() -> Callable[[Any], bool]:
    """The fast yes/no check (jsonschema-rs, compiled); a "no" goes to jsonschema for its words."""
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(evidence_schema()).is_valid


def evidence_errors(doc: Any) -> list[jsonschema.ValidationError]:
    """jsonschema's errors for ``doc``; none, without asking it, when the fast check passes."""
    if evidence_is_valid()(doc):
        return []
    return list(evidence_validator().iter_errors(doc))


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """The same schema with every non-recursive ``#/$defs/...`` reference replaced by its
    target. jsonschema resolves a ``$ref`` anew at each instance node, which was half of
    the validation time of an evidence file; only ``value`` (a list of values) recurses."""
    defs = schema.get("$defs", {})

    def expand(node: Any, stack: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [expand(item, stack) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1:
            name = ref.removeprefix("#/$defs/")
            if name in defs and name not in stack:
                return expand(defs[name], (*stack, name))
            return node
        return {k: (v if k == "$defs" else expand(v, stack)) for k, v in node.items()}

    return {**expand(schema, ()), "$defs": defs}


def schema_problems(doc: Any) -> list[str]:
    errors = sorted(evidence_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    return [f"{e.json_path}: {e.message}" for e in errors]


# -- writing --------------------------------------------------------------------------------
def write_json_atomic(path: Path, doc: Any) -> None:
    write_text_atomic(path, json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


def write_text_atomic(path: Path, text: str) -> None:
    """Write to a temporary file beside ``path``, then rename: all of it or nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp makes the file private (0600); give it the permissions of a normal file
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise EvidenceError(f"{path}: cannot read: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise EvidenceError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from None


def prepare_write(
    out_dir: Path,
    docs: Iterable[tuple[ClaimPack, dict[str, Any]]],
    variant: str | None = None,
) -> list[tuple[Path, Any]]:
    """Every file to write, validated, with versions protected; raises before any write.

    A variant run (a learner's file, a challenge) is written beside the reference evidence
    under its own name (``<module>-v<N>.<variant>.json``) and never enters the manifest,
    which names the reference evidence of each module.
    """
    if out_dir.exists() and not out_dir.is_dir():
        raise EvidenceError(f"{out_dir}: not a directory (--out names where evidence goes)")
    writes: list[tuple[Path, Any]] = []
    manifest_path = out_dir / MANIFEST_NAME
    manifest = (
        read_json(manifest_path)
        if manifest_path.exists()
        else {"schema": MANIFEST_SCHEMA, "modules": {}}
    )
    if not isinstance(manifest, dict) or not isinstance(manifest.get("modules"), dict):
        raise EvidenceError(
            f"{manifest_path}: not a module manifest (expected an object with 'modules')"
        )
    for pack, doc in docs:
        problems = schema_problems(doc)
        if problems:
            raise EvidenceError("evidence does not match its schema: " + "; ".join(problems[:5]))
        path = out_dir / evidence_name(pack, variant)
        if path.exists():
            old = read_json(path)
            old_sha = (
                (old.get("claim_pack") or {}).get("expectations_sha256")
                if isinstance(old, dict)
                else None
            )
            new_sha = doc["claim_pack"]["expectations_sha256"]
            if old_sha != new_sha:
                raise EvidenceError(
                    f"{path}: records {pack.meta.id} v{pack.meta.version} with other "
                    f"expectations ({str(old_sha)[:12]} ≠ {new_sha[:12]}); an existing version "
                    f"keeps its meaning: bump 'version' in {pack.directory / 'module.yaml'}"
                )
        writes.append((path, doc))
        if variant is not None:
            continue
        manifest["modules"][pack.meta.id] = {
            "evidence": _repo_relative(path),
            "version": pack.meta.version,
            "claim_pack_sha256": doc["claim_pack"]["sha256"],
        }
    if variant is None:
        manifest["modules"] = dict(sorted(manifest["modules"].items()))
        writes.append((manifest_path, manifest))
    return writes


def commit_writes(writes: list[tuple[Path, Any]]) -> None:
    for path, doc in writes:
        write_json_atomic(path, doc)


# -- drift ----------------------------------------------------------------------------------
def strip_volatile(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: strip_volatile(v) for k, v in value.items() if k not in VOLATILE_KEYS}
    if isinstance(value, list):
        return [strip_volatile(v) for v in value]
    return value


def drift(committed: Any, fresh: Any, path: str = "$") -> list[str]:
    """JSON paths where the two documents differ, ignoring only verified_at and timings."""
    a, b = strip_volatile(committed), strip_volatile(fresh)
    return _diff(a, b, path)


def _diff(a: Any, b: Any, path: str) -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a:
                out.append(f"{path}.{key}: only in the fresh run")
            elif key not in b:
                out.append(f"{path}.{key}: only in the committed evidence")
            else:
                out.extend(_diff(a[key], b[key], f"{path}.{key}"))
        return out
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items committed, {len(b)} now"]
        pairs = enumerate(zip(a, b, strict=True))
        return [d for i, (x, y) in pairs for d in _diff(x, y, f"{path}[{i}]")]
    if a != b or type(a) is not type(b):
        return [f"{path}: committed {_brief(a)}, now {_brief(b)}"]
    return []


def _brief(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)[:80]


def _names(addresses: object) -> str:
    """'Ann <a@x>, Bob <b@y>' -> 'Ann, Bob': attribution without e-mail addresses."""
    if not isinstance(addresses, str):
        return ""
    names = [part.split("<")[0].strip() for part in addresses.split(",")]
    names = [n for n in names if n]
    return ", ".join(names[:3]) + (" et al." if len(names) > 3 else "")


def _dist_metadata(dist: str, module_name: str) -> dict[str, Any] | None:
    """A distribution's metadata, read from the .dist-info beside its module.

    importlib.metadata finds the same file but scans every sys.path entry to do it, which
    cost more than the rest of evidence building.
    """
    module = sys.modules.get(module_name) or importlib.import_module(module_name)
    site = Path(module.__file__ or "").resolve().parent.parent
    for info in site.glob("*.dist-info"):
        if info.name.lower().startswith(f"{dist}-") and (info / "METADATA").is_file():
            with (info / "METADATA").open("rb") as fh:
                headers = email.parser.BytesHeaderParser().parse(fh)
            return {k.lower().replace("-", "_"): v for k, v in headers.items()}
    from importlib import metadata  # slow to import; only for unusual installs

    try:
        return dict(metadata.metadata(dist).json)
    except metadata.PackageNotFoundError:
        return None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
