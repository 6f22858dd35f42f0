"""Bounds on what a claim may ask a check to compute, read when the claims are loaded.

A claim is data a maintainer types; a slip (``length: 100000`` where 1,000 was meant) should
be a problem named at load, not a (T, T) array of 80 GB or an hour of loops. The bounds sit
in the checks' signatures (``Annotated``), where :func:`runner.validate.input_problems`
reads them with the types; each is far above what the chapter's claims need.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

MAX_QUADRATIC = 8_192  # a (T, T) float64 array of this T takes 512 MiB
MAX_PROBED = 512  # checks that run attention once per position (T calls of O(T²) each)
MAX_COUNT = 10_000  # cases, draws, random vectors: each costs one or more calls
MAX_ITEMS = 64  # entries in a list of sizes (each one a measurement of its own)

Quadratic = Annotated[int, Field(ge=1, le=MAX_QUADRATIC)]
Probed = Annotated[int, Field(ge=1, le=MAX_PROBED)]
Count = Annotated[int, Field(ge=1, le=MAX_COUNT)]
QuadraticList = Annotated[list[Quadratic], Field(min_length=1, max_length=MAX_ITEMS)]
ProbedList = Annotated[list[Probed], Field(min_length=1, max_length=MAX_ITEMS)]

# chain_rule_exhaustive enumerates all V^T sequences and stores a (V,) * T joint
MAX_ENUMERATED = 1_000_000
