"""Who made what a run depended on: versions and licenses, read from installed metadata.

Each distribution's ``METADATA`` (RFC 822 headers) is read from the ``.dist-info`` directory
beside its package, with a few lines of header parsing: ``importlib.metadata`` and
``email.parser`` cost 30-45 ms to import, more than building and writing the evidence.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterable
from pathlib import Path

NOT_REDISTRIBUTED = "used as an installed dependency; not redistributed with this evidence"
# distribution -> the module it installs
RUNTIME_DEPENDENCIES = {
    "numpy": "numpy",
    "pydantic": "pydantic",
    "pyyaml": "yaml",
    "jsonschema-rs": "jsonschema_rs",
    "threadpoolctl": "threadpoolctl",
    "dulwich": "dulwich",
}
PRODUCER = "learn-llm-claims"


def _normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _headers(metadata: Path) -> dict[str, list[str]]:
    """The header block of a METADATA file: name (lower-case) -> values, in order."""
    out: dict[str, list[str]] = {}
    last: str | None = None
    with metadata.open(encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if not line.strip():
                break  # the body (the long description) follows the first blank line
            if line[0] in " \t" and last is not None:
                out[last][-1] += "\n" + line.strip()
                continue
            name, _, value = line.partition(":")
            last = name.strip().lower()
            out.setdefault(last, []).append(value.strip())
    return out


def _dist_info(dist: str, folders: Iterable[str]) -> Path | None:
    wanted = _normal(dist)
    for folder in folders:
        try:
            entries = os.scandir(folder)
        except OSError:
            continue
        with entries:
            for entry in entries:
                name = entry.name
                stem = name.removesuffix(".dist-info")  # "<name>-<version>"
                if stem != name and _normal(stem.rsplit("-", 1)[0]) == wanted:
                    metadata = Path(entry.path) / "METADATA"
                    if metadata.is_file():
                        return metadata
    return None


def headers_of(dist: str, module: str | None = None) -> dict[str, list[str]] | None:
    """A distribution's metadata headers: beside its module first, then on sys.path."""
    folders: list[str] = []
    loaded = sys.modules.get(module) if module else None
    if loaded is not None and getattr(loaded, "__file__", None):
        folders.append(str(Path(str(loaded.__file__)).resolve().parent.parent))
    folders += [p for p in sys.path if p and os.path.isdir(p)]
    found = _dist_info(dist, folders)
    return _headers(found) if found else None


@functools.cache
def own_version() -> str:
    found = headers_of(PRODUCER, "runner")
    return found["version"][0] if found and found.get("version") else "0+unknown"


@functools.cache
def dependency_licenses() -> list[dict[str, str]]:
    out = []
    for dist, module in RUNTIME_DEPENDENCIES.items():
        meta = headers_of(dist, module)
        if meta is None:
            continue
        first = {k: v[0] for k, v in meta.items() if v}
        license_ = first.get("license-expression") or first.get("license") or ""
        if not license_:
            classifiers = [c for c in meta.get("classifier", []) if c.startswith("License ::")]
            license_ = classifiers[0].rsplit("::", 1)[-1].strip() if classifiers else "see package"
        author = first.get("author") or _names(first.get("author-email")) or dist
        out.append(
            {
                "source": dist,
                "version": first.get("version", "?"),
                "license": license_.splitlines()[0][:120] or "see package",
                "attribution": author.splitlines()[0][:120] or dist,
                "redistribution": NOT_REDISTRIBUTED,
            }
        )
    return out


def _names(addresses: object) -> str:
    """'Ann <a@x>, Bob <b@y>' -> 'Ann, Bob': attribution without e-mail addresses."""
    if not isinstance(addresses, str):
        return ""
    names = [part.split("<")[0].strip().strip('"') for part in addresses.split(",")]
    names = [n for n in names if n and "@" not in n]
    return ", ".join(names[:3]) + (" et al." if len(names) > 3 else "")
