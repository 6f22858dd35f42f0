"""Every mutant starts from the correct learner implementation in ../correct/_base.py and
breaks one function of it. This loads that file and exports its functions, so a mutant is
``from _base import *`` followed by the one function it gets wrong."""

# ruff: noqa  (a learner's file, kept as a learner writes it)

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "correct_base", Path(__file__).resolve().parents[1] / "correct" / "_base.py"
)
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
globals().update({k: v for k, v in vars(_module).items() if not k.startswith("__")})
__all__ = [k for k in vars(_module) if not k.startswith("_")]
