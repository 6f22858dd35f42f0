"""The pytest plugin (entry point ``pytest11``): the engine's own hooks
(:mod:`runner.pytest_plugin`, ``pytest claims/``), or one line naming what shadows the engine."""

from __future__ import annotations

from typing import Any

from learn_llm_claims import shadowing

if shadowing() is None:
    from runner.pytest_plugin import (  # noqa: F401  (pytest finds its hooks here)
        pytest_addoption,
        pytest_collect_file,
    )
else:

    def pytest_configure(config: Any) -> None:
        import pytest

        raise pytest.UsageError(shadowing())
