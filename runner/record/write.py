"""Write evidence: validated, under a lock, atomically, with the manifest merged.

Several runs may write into one evidence directory at once (two modules, a class of
learners): every write holds the directory's lock, re-reads the manifest under it and merges
its own entries, so no run's entry is lost. Each file is written to a temporary name beside
it and renamed, so a reader never sees half a file; temporary files a killed run left
behind are removed by the next writer (it holds the lock, so they are nobody's).
Every I/O failure is an :class:`~runner.errors.EvidenceError` naming the path (exit 2).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from runner.errors import EvidenceError
from runner.files import NotRegular, read_regular, special
from runner.i18n import Msg, json_reason, os_reason
from runner.load import ClaimPack, display_path
from runner.provenance import repo_relative
from runner.record.drift import drift
from runner.record.schema import schema_problems

MANIFEST_SCHEMA = "learn-llm.module-manifest.v1"
MANIFEST_NAME = "module-manifest-v1.json"
TEMP = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")
MAX_EVIDENCE_BYTES = 64 * 2**20
SAFE_STEM = re.compile(r"[^A-Za-z0-9_-]+")


def evidence_name(pack: ClaimPack, variant: str | None = None) -> str:
    suffix = f".{variant}" if variant else ""
    return f"{pack.meta.id}-v{pack.meta.version}{suffix}.json"


def variant_name(stem: str) -> str:
    """A learner's file stem as a file-name part: never empty, never a path."""
    cleaned = SAFE_STEM.sub("_", stem).strip("_")[:80]
    return cleaned or "learner"


# -- reading ---------------------------------------------------------------------------------
def read_json(path: Path, what: str = "evidence") -> Any:
    """A JSON file this project wrote earlier, or EvidenceError saying why it cannot be read.

    Opened without blocking and only if it is a regular file: a FIFO or a device put where
    evidence belongs is named, never waited on (the directory's lock may be held)."""
    shown = display_path(path)
    try:
        raw = read_regular(path, MAX_EVIDENCE_BYTES + 1)
    except NotRegular:
        raise EvidenceError("io.not_regular", path=shown) from None
    except OSError as exc:
        raise EvidenceError("io.cannot_read", path=shown, reason=_reason(exc)) from None
    if len(raw) > MAX_EVIDENCE_BYTES:
        raise EvidenceError("io.too_large", path=shown, limit=MAX_EVIDENCE_BYTES)
    try:
        doc = json.loads(raw.decode("utf-8"))
        # "\ud800" is valid JSON and no Unicode text: nothing downstream could write it
        json.dumps(doc, ensure_ascii=False).encode("utf-8")
        return doc
    except UnicodeEncodeError:
        raise EvidenceError("io.surrogate", path=shown) from None
    except UnicodeDecodeError as exc:
        raise EvidenceError("io.not_utf8", path=shown, byte=exc.start) from None
    except json.JSONDecodeError as exc:
        raise EvidenceError(
            "io.not_json", path=shown, line=exc.lineno, what=json_reason(exc)
        ) from None
    except (ValueError, RecursionError):  # a 4,301-digit integer, nesting 100k deep
        raise EvidenceError("io.unreadable_json", path=shown, what=what) from None


def _reason(exc: OSError) -> Msg | str:
    return os_reason(exc)


# -- writing ---------------------------------------------------------------------------------
def refuses_now(out_dir: Path, manifest: bool) -> None:
    """Raise what :func:`record_evidence` would refuse ``out_dir`` for, asked before a run
    spends its time: a path that is not a directory, and (where the run enters the
    manifest) a manifest that is not one. Asked again under the lock when writing: the
    folder may change while the claims run."""
    if out_dir.exists() and not out_dir.is_dir():
        raise EvidenceError("io.not_directory", path=display_path(out_dir))
    if manifest:
        _read_manifest(out_dir / MANIFEST_NAME)


@contextlib.contextmanager
def locked(out_dir: Path) -> Iterator[None]:
    """Hold ``out_dir``'s lock (the directory itself is locked: no lock file is left in the
    evidence); clean temporary files left by kills."""
    shown = display_path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise EvidenceError("io.not_directory", path=shown)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(out_dir, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as exc:
        raise EvidenceError("io.cannot_write", path=shown, reason=_reason(exc)) from None
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX)
    except ImportError:  # pragma: no cover - Windows has no flock; writes stay atomic
        pass
    except OSError as exc:
        os.close(fd)
        raise EvidenceError("io.cannot_lock", path=shown, reason=_reason(exc)) from None
    try:
        _remove_stale_temporaries(out_dir)
        yield
    finally:
        os.close(fd)  # closing releases the lock


# A temporary file lives from staging to its rename, well under a second; one this old was
# left by a killed run. (A younger one may be another command's, written without the lock:
# a JUnit report a grader sends into the evidence folder.)
STALE_S = 120


def _remove_stale_temporaries(out_dir: Path) -> None:
    now = time.time()
    with contextlib.suppress(OSError):
        for entry in os.scandir(out_dir):
            if TEMP.match(entry.name) and entry.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    if now - entry.stat(follow_symlinks=False).st_mtime > STALE_S:
                        os.unlink(entry.path)


def write_json_atomic(path: Path, doc: Any) -> None:
    write_text_atomic(path, _json(doc))


def write_text_atomic(path: Path, text: str | Iterable[str]) -> None:
    """Write to a temporary file beside ``path``, then rename: all of it or nothing. The
    folders on the way are made, as pytest's --junitxml makes them (the path is the
    person's own choice). ``text`` may come in parts (a class's report, never whole in
    memory)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise EvidenceError(
            "io.cannot_write", path=display_path(path), reason=_reason(exc)
        ) from None
    commit_staged([stage(path, text)])


def stage(path: Path, text: str | Iterable[str]) -> tuple[Path, str]:
    """Write ``text`` (or its parts, in order) to a temporary file beside ``path``; (path,
    temporary) to rename later. Nothing at ``path`` changes yet; an error removes the
    temporary file."""
    shown = display_path(path)
    if path.is_dir():
        raise EvidenceError("io.is_directory", path=shown)
    if special(path):  # renamed over, /dev/null (for root), or /dev/stdout's link, would go
        raise EvidenceError("io.special", path=shown)
    if not path.parent.is_dir():
        raise EvidenceError("io.no_directory", path=shown)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for part in [text] if isinstance(text, str) else text:
                fh.write(part)
            fh.flush()
            os.fsync(fh.fileno())
        # mkstemp makes the file private (0600); give it the permissions of a normal file
        os.chmod(tmp, 0o666 & ~_umask())
        return path, tmp
    except OSError as exc:
        _discard([tmp])
        code = "io.disk_full" if exc.errno == errno.ENOSPC else "io.cannot_write"
        raise EvidenceError(code, path=shown, reason=_reason(exc)) from None
    except BaseException:
        _discard([tmp])
        raise


def commit_staged(staged: list[tuple[Path, str]]) -> None:
    """Rename every staged file into place. Renames need no space, so once everything is
    staged (where a full disk shows) the set is written whole; a rename that still fails
    removes every temporary file not yet renamed."""
    for i, (path, tmp) in enumerate(staged):
        try:
            os.replace(tmp, path)
        except OSError as exc:
            _discard([t for _, t in staged[i:]])
            code = "io.disk_full" if exc.errno == errno.ENOSPC else "io.cannot_write"
            raise EvidenceError(code, path=display_path(path), reason=_reason(exc)) from None


def _discard(temporaries: list[str | None]) -> None:
    for tmp in temporaries:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _json(doc: Any) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@dataclass(frozen=True)
class Recorded:
    """What a write did: the files it wrote, and those it left as they were because they
    already recorded what the run asserts (see :func:`same_assertions`)."""

    written: list[Path]
    unchanged: list[Path]


def write_evidence(
    out_dir: Path,
    docs: Iterable[tuple[ClaimPack, dict[str, Any]]],
    repo_root: Path | None,
    variant: str | None = None,
) -> list[Path]:
    """:func:`record_evidence`, and the files it wrote."""
    return record_evidence(out_dir, docs, repo_root, variant).written


def record_evidence(
    out_dir: Path,
    docs: Iterable[tuple[ClaimPack, dict[str, Any]]],
    repo_root: Path | None,
    variant: str | None = None,
) -> Recorded:
    """Validate every document, then write them (and, for the reference, the manifest)
    under the directory's lock. Nothing is written if anything is invalid.

    A variant run (a learner's file, a challenge) is written beside the reference evidence
    under its own name (``<module>-v<N>.<variant>.json``) and never enters the manifest,
    which names the reference evidence of each module.

    A file that already records what its document asserts is left untouched (its bytes and
    its time): a run that only measured the same things again, on another day or machine,
    leaves a checkout clean. A document that asserts anything new replaces it.
    """
    docs = list(docs)
    for _, doc in docs:
        problems = schema_problems(doc)
        if problems:
            raise EvidenceError("io.schema", problems="; ".join(problems[:5]))
    with locked(out_dir):
        # everything that can refuse is asked before the first byte is written
        manifest_path = out_dir / MANIFEST_NAME
        manifest = _read_manifest(manifest_path) if variant is None else None
        paths = [out_dir / evidence_name(pack, variant) for pack, _ in docs]
        texts: list[tuple[Path, str]] = []
        unchanged: list[Path] = []
        for path, (pack, doc) in zip(paths, docs, strict=True):
            old = _refuse_changed_meaning(path, pack, doc)
            if old is not None and same_assertions(old, doc):
                unchanged.append(path)
            else:
                texts.append((path, _json(doc)))
        if manifest is not None:  # re-read under the lock: merged, not replaced
            for pack, doc in docs:
                manifest["modules"][pack.meta.id] = {
                    "evidence": repo_relative(out_dir / evidence_name(pack), repo_root),
                    "version": pack.meta.version,
                    "claim_pack_sha256": doc["claim_pack"]["sha256"],
                }
            manifest["modules"] = dict(sorted(manifest["modules"].items()))
            text = _json(manifest)
            if _bytes(manifest_path) == text.encode("utf-8"):
                unchanged.append(manifest_path)
            else:
                texts.append((manifest_path, text))
        # evidence and manifest are written as a set: all staged first (a full disk fails
        # here, before anything changed), then renamed into place
        staged: list[tuple[Path, str]] = []
        try:
            for path, text in texts:
                staged.append(stage(path, text))
        except BaseException:
            _discard([tmp for _, tmp in staged])
            raise
        commit_staged(staged)
        written = [path for path, _ in texts]
    return Recorded(written, unchanged)


# What a run records about itself rather than asserts: never a reason to rewrite evidence.
# recorded, never compared (docs/evidence.md); ``commands`` too: ``run claims/`` and
# ``run claims/<module>/`` measure the same module
PROVENANCE = ("verified_at", "environment", "licenses", "producer", "duration_ms", "commands")
MEASURED = "<measured>"


def same_assertions(old: Any, new: dict[str, Any]) -> bool:
    """Whether committed evidence ``old`` already records what ``new`` asserts.

    What the claims assert is :func:`runner.record.drift.drift`'s to say (statuses, reasons,
    expectations, verdicts, the fault matrix, the claim pack, the commit, and measured
    values to their reproduction precision): nothing may drift. Everything else in the two
    documents must be equal too, provenance (:data:`PROVENANCE`, claims' timings) and the
    measured values drift already compared aside: a new field, a changed text, a new format
    is written. Committed evidence that the schema no longer accepts is always replaced."""
    if not isinstance(old, dict) or drift(old, new):
        return False
    if _asserted(old) != _asserted(new):
        return False
    return not schema_problems(old)


def _asserted(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` without provenance, its measured values by their place only (drift compares
    them to their precision; a failing measurement's detail quotes them)."""
    out = {k: v for k, v in doc.items() if k not in PROVENANCE}
    out["metrics"] = [
        {**m, "actual": MEASURED} if isinstance(m, dict) else m for m in doc.get("metrics") or []
    ]
    out["claims"] = [_claim(c) for c in doc.get("claims") or []]
    faults = doc.get("faults")
    if isinstance(faults, dict) and isinstance(faults.get("variants"), list):
        out["faults"] = {**faults, "variants": [_variant(v) for v in faults["variants"]]}
    return out


def _claim(claim: Any) -> Any:
    if not isinstance(claim, dict):
        return claim
    out = {k: v for k, v in claim.items() if k != "duration_ms"}
    out["measurements"] = [
        {**m, "actual": MEASURED, "detail": _code(m.get("detail"))} if isinstance(m, dict) else m
        for m in claim.get("measurements") or []
    ]
    observations = claim.get("observations")
    if isinstance(observations, dict):
        out["observations"] = sorted(observations)
    return out


def _variant(variant: Any) -> Any:
    if not isinstance(variant, dict) or not isinstance(variant.get("observed_signal"), list):
        return variant
    facts = [
        {**f, "values": sorted(f.get("values") or {}), "detail": _code(f.get("detail"))}
        if isinstance(f, dict)
        else f
        for f in variant["observed_signal"]
    ]
    return {**variant, "observed_signal": facts}


def _code(detail: Any) -> Any:
    """A message by its code alone: its parameters quote measured values."""
    return detail.get("code") if isinstance(detail, dict) else detail


def _bytes(path: Path) -> bytes | None:
    try:
        return read_regular(path, MAX_EVIDENCE_BYTES + 1)
    except (OSError, NotRegular):
        return None


def learner_variants(stems: list[str], reserved: Iterable[str] = ()) -> list[str]:
    """A distinct evidence variant per learner file of a class (``alice``, ``alice-2``), in
    the order given: two files with one stem never overwrite each other's evidence. A stem
    that is a variant name as it stands keeps it: a file named so that its name cleans up
    to a classmate's (`` bob.py``, ``!bob.py`` beside ``bob.py``) never takes the
    classmate's evidence or results file; it gets a numbered one. A ``reserved`` name (the
    reference's own variants) is never a learner's: such a stem becomes ``<stem>-learner``,
    numbered like any other past the names taken (``reference-learner.py`` beside
    ``reference.py`` keeps its name; ``reference.py`` gets ``reference-learner-2``)."""
    kept = set(reserved)
    named: dict[int, str] = {}
    taken: set[str] = set()
    for i, stem in enumerate(stems):  # names as they stand first, the first of each once
        if variant_name(stem) == stem and stem not in taken and stem not in kept:
            named[i] = stem
            taken.add(stem)
    for i, stem in enumerate(stems):  # then the rest, numbered past every name taken
        if i not in named:
            base, n = variant_name(stem), 1
            if base in kept:
                base = f"{base}-learner"
            name = base
            while name in taken or name in kept:
                n += 1
                name = f"{base}-{n}"
            taken.add(name)
            named[i] = name
    return [named[i] for i in range(len(stems))]


def _refuse_changed_meaning(path: Path, pack: ClaimPack, doc: dict[str, Any]) -> Any:
    """The evidence at ``path`` (None when there is none), unless it records other
    expectations under the same version: then EvidenceError asks for a new version."""
    if not path.exists():
        return None
    old = read_json(path)
    old_sha = None
    if isinstance(old, dict) and isinstance(old.get("claim_pack"), dict):
        old_sha = old["claim_pack"].get("expectations_sha256")
    new_sha = doc["claim_pack"]["expectations_sha256"]
    if old_sha != new_sha:
        raise EvidenceError(
            "io.meaning_changed",
            path=display_path(path),
            module=pack.meta.id,
            version=pack.meta.version,
            old=str(old_sha)[:12],
            new=new_sha[:12],
            meta=display_path(pack.directory / "module.yaml"),
        )
    return old


def _read_manifest(path: Path) -> dict[str, Any]:
    if not path.exists():
        return {"schema": MANIFEST_SCHEMA, "modules": {}}
    manifest = read_json(path, "manifest")
    if not isinstance(manifest, dict) or not isinstance(manifest.get("modules"), dict):
        raise EvidenceError("io.not_manifest", path=display_path(path))
    return manifest
