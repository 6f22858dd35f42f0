"""A pytest plugin: ``pytest claims/`` collects every claim as a test item.

Installed with the package (entry point ``pytest11``), so a course repository's existing
pytest set-up runs the claims beside its own tests. A claim file is any ``*.yaml`` beside a
``module.yaml``; each claim becomes an item named by its id, run through the core API
against the reference implementation, and a failure reads like the command line's, in the
language of ``--claims-lang`` (else ``LEARN_LLM_LANG``, the locale, Chinese).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from runner.errors import InvalidClaims
from runner.i18n import Catalog, catalog, resolve_language
from runner.load import (
    FAULTS_FILE,
    MODULE_FILE,
    YAML_SUFFIXES,
    ClaimPack,
    LoadedClaim,
    display_path,
)
from runner.models import ClaimResult


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--claims-lang",
        choices=("zh", "en"),
        default=None,
        help="language of claim failures (default: LEARN_LLM_LANG, the locale, else zh)",
    )


def _words(config: pytest.Config) -> Catalog:
    return catalog(resolve_language(config.getoption("--claims-lang", default=None)))


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if (
        file_path.suffix in YAML_SUFFIXES
        and file_path.name not in (MODULE_FILE, FAULTS_FILE)
        and (file_path.parent / MODULE_FILE).is_file()
    ):
        collector: ClaimFile = ClaimFile.from_parent(parent, path=file_path)
        return collector
    return None


# Each module is loaded whole once per session: what one file cannot show alone (a claim id
# used again in another file, a problem in module.yaml) is found as `run` finds it.
_MODULES = pytest.StashKey[dict[Path, "list[ClaimPack] | InvalidClaims"]]()


def _module(config: pytest.Config, directory: Path) -> list[ClaimPack] | InvalidClaims:
    from runner.api import load_claims

    cache = config.stash.setdefault(_MODULES, {})
    key = directory.resolve()
    if key not in cache:
        try:
            cache[key] = load_claims([directory])
        except InvalidClaims as exc:
            cache[key] = exc
    return cache[key]


class ClaimFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        from runner.api import load_claims

        shown = display_path(self.path)
        module = _module(self.config, self.path.parent)
        if isinstance(module, InvalidClaims):
            claim_files = {display_path(p) for p in self.path.parent.iterdir()} - {
                display_path(self.path.parent / n) for n in (MODULE_FILE, FAULTS_FILE)
            }
            # this file's problems, and the module's own (module.yaml, faults.yaml)
            mine = [p for p in module.problems if p.file == shown or p.file not in claim_files]
            if mine:
                words = _words(self.config)
                raise self.CollectError("\n".join(p.render(words) for p in mine))
            try:  # the problems are another file's: this one's claims still run
                packs = load_claims([self.path])
            except InvalidClaims as exc:
                words = _words(self.config)
                raise self.CollectError("\n".join(p.render(words) for p in exc.problems)) from None
        else:
            packs = module
        for pack in packs:
            for loaded in pack.claims:
                if loaded.file == shown:
                    yield ClaimItem.from_parent(
                        self, name=loaded.claim.id, loaded=loaded, pack=pack
                    )


class ClaimFailed(Exception):
    def __init__(self, result: ClaimResult) -> None:
        super().__init__(result.id)
        self.result = result


class ClaimItem(pytest.Item):
    def __init__(self, *, loaded: LoadedClaim, pack: ClaimPack, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.loaded = loaded
        self.pack = pack

    def runtest(self) -> None:
        from runner.run import run_claim

        registry = self.pack.code.registry
        result = run_claim(self.loaded, registry.reference(), registry, self.pack.meta.seed)
        if result.status == "skipped":
            words = _words(self.config)
            pytest.skip(words.say(result.reason.msg()) if result.reason else "skipped")
        if result.status != "passed":
            raise ClaimFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailed):
            from runner.reporters.text import claim_detail_lines

            words = _words(self.config)
            result = excinfo.value.result
            head = f"{words('problem.claim')} {result.id}: {words('status.' + result.status)}"
            lines = [head, words.pick(result.statement)]
            return "\n".join([*lines, *claim_detail_lines(result, words)])
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = (self.loaded.line - 1) if self.loaded.line else None
        return self.path, line, f"claim {self.loaded.claim.id}"
