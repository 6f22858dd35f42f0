"""The front door of the installed engine: the ``learn-llm-claims`` script and the pytest
plugin come through here, a module named after the distribution, so that a local file or
folder that takes the engine's name (a course's ``runner.py``, a ``runner/`` folder found
first on the import path, another distribution's ``runner``) is named in one line instead
of failing with a traceback from inside someone else's code.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

ENGINE = "runner"
_HERE = Path(__file__).resolve().parents[1]  # the engine is installed beside this package


def shadowing() -> str | None:
    """One line saying where ``runner`` would come from, when that is not the engine that
    was installed with this module; None when it is."""
    expected = _HERE / ENGINE / "__init__.py"
    loaded = sys.modules.get(ENGINE)
    origin = getattr(loaded, "__file__", None) if loaded is not None else None
    if origin is None:
        try:
            spec = importlib.util.find_spec(ENGINE)
        except (ImportError, ValueError):
            spec = None
        origin = spec.origin if spec is not None else None
    if origin is not None and Path(origin).resolve() == expected:
        if (_HERE / ENGINE / "pack" / "__init__.py").is_file():
            return None
        origin = str(expected)  # overwritten in place by another distribution's runner
    return _line(_shown(origin), _shown(str(expected.parent)))


def _shown(path: str | None) -> str:
    if path is None:
        return "nowhere"
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return path if rel.startswith("..") else f"./{rel}"


def _line(found: str, expected: str) -> str:
    lang = next(
        (
            os.environ.get(v, "").lower()[:2]
            for v in ("LEARN_LLM_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")
            if os.environ.get(v, "").lower()[:2] in ("zh", "en")
        ),
        "zh",
    )
    if "--lang" in sys.argv[1:-1]:
        lang = sys.argv[sys.argv.index("--lang") + 1]
    if lang == "en":
        return (
            f"error: {ENGINE} is imported from {found}, not the installed engine ({expected}); "
            f"rename or move the local {ENGINE}"
        )
    return f"错误：{ENGINE} 是从 {found} 导入的，而不是已安装的引擎（{expected}）；请重命名或移走本地的 {ENGINE}"


def main() -> None:
    """The ``learn-llm-claims`` script."""
    problem = shadowing()
    if problem is not None:
        print(problem, file=sys.stderr)
        sys.exit(2)
    from runner.__main__ import run

    run()
