"""Installed distributions, read from their ``.dist-info`` folders on the import path.

``importlib.metadata`` (with the ``email`` package it parses headers with) costs 30-55 ms to
import, more than loading a module's claims: every run needs a version, the licences of its
dependencies and the packs' entry points, so the few files those live in (``METADATA``,
``entry_points.txt``, ``RECORD``) are read here with a few lines of parsing each.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path


def _normal(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def distribution_name(folder: str) -> str:
    """The distribution a ``.dist-info`` or ``.egg-info`` folder holds, normalised: one
    found as both (an editable install's, and the egg-info a build left in its source) is
    one distribution, not two."""
    stem = folder.rsplit(".", 1)[0]  # "my_pack-0.1" of "my_pack-0.1.dist-info"
    return _normal(stem.split("-", 1)[0])


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


@dataclass(frozen=True)
class EntryPoint:
    """One line of a distribution's ``entry_points.txt``: ``name = module:attribute``."""

    name: str
    value: str
    dist_info: Path  # the ``.dist-info`` folder that declares it

    def load(self) -> object:
        import importlib

        module_name, _, attribute = self.value.partition(":")
        found: object = importlib.import_module(module_name.strip())
        for part in attribute.strip().split(".") if attribute.strip() else ():
            found = getattr(found, part)
        return found

    def files(self) -> list[str]:
        """The paths its ``RECORD`` lists, relative to the folder the distribution is
        installed in (an editable install lists none of its packages' files)."""
        try:
            text = (self.dist_info / "RECORD").read_text(encoding="utf-8", errors="replace")
        except OSError:
            return []
        return [line.split(",", 1)[0] for line in text.splitlines() if line]

    def locate(self, relative: str) -> Path:
        return self.dist_info.parent / relative


def entry_points(group: str) -> Iterator[EntryPoint]:
    """The entry points of ``group`` of every distribution on the import path, in path
    order (a distribution found twice is read where it is found first)."""
    seen: set[str] = set()
    for folder in _path_folders():
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if not entry.name.endswith((".dist-info", ".egg-info")):
                continue
            dist = distribution_name(entry.name)
            if dist in seen:
                continue
            seen.add(dist)
            yield from _group(Path(entry.path), group)


def _group(dist_info: Path, group: str) -> Iterator[EntryPoint]:
    try:
        text = (dist_info / "entry_points.txt").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line[1:-1].strip() == group
            continue
        if inside and "=" in line:
            name, _, value = line.partition("=")
            yield EntryPoint(name.strip(), value.strip(), dist_info)


def _path_folders() -> Iterable[str]:
    return [p for p in sys.path if p and os.path.isdir(p)]
