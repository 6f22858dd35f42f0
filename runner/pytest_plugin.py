"""A pytest plugin: ``pytest claims/`` collects every claim as a test item.

Installed with the package (entry point ``pytest11``), so a course repository's existing
pytest set-up runs the claims beside its own tests. A claim file is any ``*.yaml`` beside a
``module.yaml``; each claim becomes an item named by its id, judged against the reference
implementation, and a failure reads ``name: expected <value> ± <tolerance>, actual <value>``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from runner.errors import InvalidClaims
from runner.load import FAULTS_FILE, MODULE_FILE, YAML_SUFFIXES, ClaimPack, LoadedClaim
from runner.models import ClaimResult


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if (
        file_path.suffix in YAML_SUFFIXES
        and file_path.name not in (MODULE_FILE, FAULTS_FILE)
        and (file_path.parent / MODULE_FILE).is_file()
    ):
        collector: ClaimFile = ClaimFile.from_parent(parent, path=file_path)
        return collector
    return None


class ClaimFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        from checks import REGISTRY
        from runner.validate import load_runnable

        try:
            packs = load_runnable([self.path], REGISTRY)
        except InvalidClaims as exc:
            raise self.CollectError(str(exc)) from None
        for pack in packs:
            for loaded in pack.claims:
                yield ClaimItem.from_parent(self, name=loaded.claim.id, loaded=loaded, pack=pack)


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
        from checks import REGISTRY
        from runner.run import run_claim

        result = run_claim(self.loaded, REGISTRY.reference(), REGISTRY, self.pack.meta.seed)
        if result.status == "skipped":
            pytest.skip(result.error or "skipped")
        if result.status != "passed":
            raise ClaimFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ClaimFailed):
            # imported here: pytest loads this plugin in every session, reporters or not
            from runner.output import failure_lines

            result = excinfo.value.result
            statement = result.statement
            lines = [f"claim {result.id} {result.status}", statement.zh, statement.en]
            return "\n".join([*lines, *failure_lines(result, self.pack)])
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int | None, str]:
        line = (self.loaded.line - 1) if self.loaded.line else None
        return self.path, line, f"claim {self.loaded.claim.id}"
