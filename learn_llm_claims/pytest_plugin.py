"""The pytest plugin (entry point ``pytest11``): the engine's own hooks
(:mod:`runner.pytest_plugin`, ``pytest claims/``), or one line naming what shadows the engine."""

from __future__ import annotations

import sys
from typing import Any

from learn_llm_claims import shadowing


def _asserts_left_alone() -> None:
    """pytest rewrites the asserts of every module of a distribution that has a ``pytest11``
    entry point (this one's engine and packs too), compiling each from its source in every
    pytest process, and every time where bytecode is not written (PYTHONDONTWRITEBYTECODE):
    0.4 s of CPU before the first test where this was measured. Their asserts are not a
    test's, and their messages need no rewriting: this distribution's own top-level packages
    are taken off pytest's list before any of them is imported (this module's package is
    already)."""
    hook = next((f for f in sys.meta_path if type(f).__name__ == "AssertionRewritingHook"), None)
    marked = getattr(hook, "_must_rewrite", None)
    if not isinstance(marked, set):  # another pytest than the one this was written for
        return
    from importlib import metadata

    try:
        files = metadata.distribution("learn-llm-claims").files or []
    except metadata.PackageNotFoundError:
        return
    own = {f.parts[0] for f in files if len(f.parts) > 1 and f.suffix == ".py"}
    marked.difference_update(own - {"tests"})
    cache = getattr(hook, "_marked_for_rewrite_cache", None)
    if isinstance(cache, dict):
        cache.clear()


_asserts_left_alone()

if shadowing() is None:
    from runner.pytest_plugin import (  # noqa: F401  (pytest finds its hooks here)
        pytest_addoption,
        pytest_collect_file,
    )
else:

    def pytest_configure(config: Any) -> None:
        import pytest

        raise pytest.UsageError(shadowing())
