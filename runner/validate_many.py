"""Validate many submissions, in one process or several, in the order they were given."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from checks import REGISTRY
from runner.i18n import Lang, language, set_language
from runner.submission import Report, Validator
from runner.validate import load_runnable

_WORKER: Validator | None = None


def make_validator(claims: Path, repo: Path | None, challenge: str | None) -> Validator:
    packs = load_runnable([claims], REGISTRY)
    return Validator(packs, REGISTRY, repo=repo, challenge=challenge)


def _init(claims: Path, repo: Path | None, challenge: str | None, lang: Lang) -> None:
    global _WORKER
    set_language(lang)  # a worker reports in the language the command was asked for
    _WORKER = make_validator(claims, repo, challenge)


def _one(path: Path) -> Report:
    assert _WORKER is not None
    return _WORKER.validate_file(path)


def validate_files(
    files: list[Path], claims: Path, repo: Path | None, challenge: str | None, jobs: int
) -> Iterator[Report]:
    # Loading the claims in the parent first turns bad claim files into one clear error
    # (exit 2) before any worker starts.
    validator = make_validator(claims, repo, challenge)
    if jobs == 1 or len(files) < 2:
        for path in files:
            yield validator.validate_file(path)
        return
    chunk = max(1, min(64, len(files) // (jobs * 4)))
    with ProcessPoolExecutor(
        max_workers=jobs, initializer=_init, initargs=(claims, repo, challenge, language())
    ) as pool:
        yield from pool.map(_one, files, chunksize=chunk)
