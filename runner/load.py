"""Load: claim files on disk -> pydantic models. Nothing here runs or resolves a check."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from runner.errors import ClaimProblem, InvalidClaims, UsageError
from runner.models import Claim, Fault, FaultsFile, ModuleMeta, PropositionFile, Text
from runner.safeyaml import Document, YamlError, parse

MODULE_FILE = "module.yaml"
FAULTS_FILE = "faults.yaml"
YAML_SUFFIXES = (".yaml", ".yml")

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class LoadedClaim:
    claim: Claim
    file: str
    line: int | None
    proposition: int
    stage: Text


@dataclass(frozen=True)
class LoadedFault:
    fault: Fault
    file: str
    line: int | None


@dataclass(frozen=True)
class ClaimPack:
    """One module's claims, as read from its directory."""

    meta: ModuleMeta
    directory: Path
    files: tuple[Path, ...]  # module.yaml first, then the claim files, sorted
    claims: tuple[LoadedClaim, ...]
    complete: bool  # False when only some of the module's claim files were named
    faults: tuple[LoadedFault, ...] = ()

    def claim(self, claim_id: str) -> LoadedClaim | None:
        return next((c for c in self.claims if c.claim.id == claim_id), None)


def display_path(path: Path) -> str:
    """A path relative to where the person is, or as given when it lies elsewhere."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return str(path)
    return str(path) if rel.startswith("..") else rel


def load_packs(paths: list[Path]) -> list[ClaimPack]:
    """Read every module named by ``paths`` (module dirs, a dir of modules, or claim files)."""
    wanted: dict[Path, set[Path] | None] = {}  # module dir -> chosen files (None: all)
    for path in paths:
        if not path.exists():
            raise UsageError(f"{display_path(path)}: no such file or directory")
        if path.is_file():
            if path.suffix not in YAML_SUFFIXES or path.name in (MODULE_FILE, FAULTS_FILE):
                raise UsageError(f"{display_path(path)}: not a claim file (*.yaml)")
            module_dir = path.parent
            if not (module_dir / MODULE_FILE).is_file():
                raise UsageError(f"{display_path(path)}: no {MODULE_FILE} beside it")
            chosen = wanted.setdefault(module_dir, set())
            if chosen is not None:
                chosen.add(path)
        elif (path / MODULE_FILE).is_file():
            wanted[path] = None
        else:
            modules = sorted(p.parent for p in path.glob(f"*/{MODULE_FILE}"))
            if not modules:
                raise UsageError(f"{display_path(path)}: no module ({MODULE_FILE}) in it")
            for module_dir in modules:
                wanted[module_dir] = None

    problems: list[ClaimProblem] = []
    packs = []
    for module_dir, chosen in sorted(wanted.items()):
        pack = _load_pack(module_dir, chosen, problems)
        if pack is not None:
            packs.append(pack)
    if problems:
        raise InvalidClaims(problems)
    return packs


def claim_files(module_dir: Path) -> list[Path]:
    return sorted(
        p
        for p in module_dir.iterdir()
        if p.suffix in YAML_SUFFIXES and p.name not in (MODULE_FILE, FAULTS_FILE) and p.is_file()
    )


def _load_pack(
    module_dir: Path, chosen: set[Path] | None, problems: list[ClaimProblem]
) -> ClaimPack | None:
    meta_doc = read_yaml(module_dir / MODULE_FILE, problems)
    meta = None
    if meta_doc is not None:
        meta = to_model(ModuleMeta, meta_doc, module_dir / MODULE_FILE, problems)
    files = claim_files(module_dir)
    if not files:
        problems.append(ClaimProblem(display_path(module_dir), None, "no claim files in module"))
    claims: list[LoadedClaim] = []
    for path in files if chosen is None else sorted(chosen):
        doc = read_yaml(path, problems)
        if doc is None:
            continue
        prop = to_model(PropositionFile, doc, path, problems)
        if prop is None:
            continue
        for i, claim in enumerate(prop.claims):
            line = doc.line_of(("claims", i))
            claims.append(
                LoadedClaim(claim, display_path(path), line, prop.proposition, prop.stage)
            )
    faults: list[LoadedFault] = []
    faults_path = module_dir / FAULTS_FILE
    # faults are judged against the whole module, so a run of single files leaves them out
    if faults_path.is_file() and chosen is None:
        doc = read_yaml(faults_path, problems)
        table = to_model(FaultsFile, doc, faults_path, problems) if doc is not None else None
        if doc is not None and table is not None:
            for i, fault in enumerate(table.faults):
                line = doc.line_of(("faults", i))
                faults.append(LoadedFault(fault, display_path(faults_path), line))
    if meta is None:
        return None
    extra = (faults_path,) if faults_path.is_file() else ()
    return ClaimPack(
        meta=meta,
        directory=module_dir,
        files=(module_dir / MODULE_FILE, *files, *extra),
        claims=tuple(claims),
        complete=chosen is None,
        faults=tuple(faults),
    )


def read_yaml(path: Path, problems: list[ClaimProblem]) -> Document | None:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        problems.append(ClaimProblem(display_path(path), None, f"cannot read: {exc.strerror}"))
        return None
    try:
        return parse(raw)
    except YamlError as exc:
        problems.extend(ClaimProblem(display_path(path), p.line, p.message) for p in exc.problems)
        return None


def to_model(model: type[M], doc: Document, path: Path, problems: list[ClaimProblem]) -> M | None:
    """Validate ``doc`` as ``model``; each pydantic error becomes a problem with its line."""
    if not isinstance(doc.data, dict):
        problems.append(
            ClaimProblem(display_path(path), doc.line_of(()), "expected a mapping at the top")
        )
        return None
    try:
        return model.model_validate(doc.data)
    except ValidationError as exc:
        for err in exc.errors():
            path_in_data = data_path(doc.data, err["loc"])
            claim, field = split_claim(doc.data, path_in_data)
            problems.append(
                ClaimProblem(
                    display_path(path),
                    doc.line_of(path_in_data),
                    describe_error(err),
                    claim=claim,
                    field=field or None,
                    kind="fault" if path_in_data[:1] == ("faults",) else "claim",
                )
            )
        return None


def data_path(data: Any, loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """pydantic's ``loc`` without the entries that are not in the data (union tags)."""
    out: list[int | str] = []
    node = data
    for part in loc:
        in_dict = isinstance(node, dict) and part in node
        in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if in_dict or in_list:
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and part not in _UNION_TAGS:
            out.append(part)  # a missing or unknown key: name it, then stop
            break
        else:
            continue
        out.append(part)
    return tuple(out)


_UNION_TAGS = {"exact", "close", "range", "raises"}


def split_claim(data: Any, path: tuple[int | str, ...]) -> tuple[str | None, str]:
    """(claim or fault id, field inside it) for a path under ``claims[i]`` or ``faults[i]``."""
    if len(path) >= 2 and path[0] in ("claims", "faults") and isinstance(path[1], int):
        claim = data[path[0]][path[1]]
        claim_id = claim.get("id") if isinstance(claim, dict) else None
        label = str(claim_id) if isinstance(claim_id, str) else f"#{path[1] + 1}"
        return label, format_field(path[2:])
    return None, format_field(path)


def format_field(path: tuple[int | str, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def describe_error(err: Any) -> str:
    kind = err["type"]
    ctx = err.get("ctx") or {}
    got = err.get("input")
    if kind == "missing":
        return "missing (required)"
    if kind == "extra_forbidden":
        return "unknown key (not part of the format; check the spelling)"
    if kind == "union_tag_invalid":
        return f"kind {ctx.get('tag')!r} is not one of {ctx.get('expected_tags')}"
    if kind == "union_tag_not_found":
        return "needs a kind: one of 'exact', 'close', 'range', 'raises'"
    if kind == "value_error":
        return str(ctx.get("error", err["msg"]))
    if kind == "string_pattern_mismatch":
        return f"{got!r} does not match {ctx.get('pattern')}"
    return f"{err['msg'][0].lower()}{err['msg'][1:]}, got {_short(got)}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
