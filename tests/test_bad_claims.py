"""Bad claim files: each is refused with exit code 2, exact one-line problems, and no evidence.

Every case builds a module in ``tmp_path``: a copy of the real ``module.yaml`` and a small valid
claim file (``VALID`` below), then breaks one thing. The runner is invoked from ``tmp_path`` so
the paths it prints are short and relative (``mod/c.yaml:7: ...``).
"""

from __future__ import annotations

import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import numpy as np
import pytest
from pydantic import Field

from runner import safeyaml
from runner.i18n import catalog
from runner.pack import Implementation, Measurements
from runner.pack.registry import UnknownName
from tests.conftest import MODULE, REGISTRY, partial_module_yaml

# A minimal valid claim. Line numbers matter to the expectations below:
VALID = """\
proposition: 7
stage: {zh: 阶段六, en: stage 6}
title: {zh: top-k 小例子, en: a small top-k example}
claims:
  - id: topk.small
    statement: {zh: 保留两个, en: keeps two}
    check: top_k_support
    inputs:
      probs: [0.5, 0.3, 0.2]
      k: 2
    expect:
      - measure: kept
        value: 2
        tolerance: {kind: exact}
        unit: count
        source: "test: k = 2 keeps two"
"""
#  1 proposition   5 - id           9 probs       13 value
#  2 stage         6 statement     10 k           14 tolerance
#  3 title         7 check         11 expect:     15 unit
#  4 claims:       8 inputs:       12 - measure   16 source

MODULE_YAML = partial_module_yaml()
# the real module's version line, whatever the current version is
VERSION_LINE = next(line for line in MODULE_YAML.splitlines() if line.startswith("version: "))
TEMPERATURE_YAML = (MODULE / "6-temperature.yaml").read_text(encoding="utf-8")


def variant(*edits: tuple[str, str], base: str = VALID) -> str:
    """``base`` with each (old, new) replaced; ``old`` must occur exactly once."""
    text = base
    for old, new in edits:
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
        text = text.replace(old, new)
    return text


def closest_checks(name: str) -> str:
    """The names the registry suggests for a misspelt check (they change as checks are added)."""
    return ", ".join(UnknownName("check", name, list(REGISTRY.checks)).close)


def without(*lines: str) -> str:
    return variant(*((line + "\n", "") for line in lines))


# "Billion laughs": 9 levels of 9 aliases, 9**9 (387 million) strings once expanded.
ALIAS_BOMB = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{n}: &{n} [{', '.join([f'*{p}'] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi", strict=True)
)
TOO_BIG = VALID + "# " + "x" * safeyaml.MAX_BYTES + "\n"
TOO_BIG_SIZE = len(TOO_BIG.encode("utf-8"))
NOT_UTF8 = VALID.encode("utf-8") + b"# caf\xe9\n"  # Latin-1, as an editor might save it
UNSAFE = 'check: !!python/object/apply:os.system ["echo hi > marker"]'

UNKNOWN_KEY = "unknown key (not part of the format; check the spelling)"
TOPK_MEASURES = ", ".join(REGISTRY.checks["top_k_support"].measures)


@dataclass
class Case:
    id: str
    files: dict[str, str | bytes]  # file name in the module dir -> content ("module.yaml" too)
    stderr: list[str]  # the exact problem lines, before the summary line


CASES = [
    # -- YAML itself ---------------------------------------------------------------------
    Case(
        "yaml-syntax-error",
        {"c.yaml": variant(("check: top_k_support", "check: [top_k_support"))},
        # the unclosed '[' on line 7 is noticed where the next key starts
        [
            "mod/c.yaml:8: YAML syntax error (while parsing a flow sequence): "
            "did not find expected ',' or ']'"
        ],
    ),
    Case(
        "tab-indentation",
        {"c.yaml": variant(("    check:", "\tcheck:"))},
        [
            "mod/c.yaml:7: YAML syntax error: "
            "found character that cannot start any token (a tab? YAML indents with spaces only)"
        ],
    ),
    Case(
        "unsafe-python-tag",
        {"c.yaml": variant(("check: top_k_support", UNSAFE))},
        ["mod/c.yaml:7: tag !!python/object/apply:os.system is not allowed (plain data only)"],
    ),
    Case(
        "binary-tag",
        {"c.yaml": variant(('source: "test: k = 2 keeps two"', "source: !!binary aGVsbG8="))},
        ["mod/c.yaml:16: tag !!binary is not allowed (plain data only)"],
    ),
    Case(
        "duplicate-key",
        {"c.yaml": variant(("    check: top_k_support\n", "    check: top_k_support\n" * 2))},
        ["mod/c.yaml:8: duplicate key 'check' (first on line 7)"],
    ),
    Case(
        "top-level-list",
        {"c.yaml": "- proposition: 7\n- claims: []\n"},
        ["mod/c.yaml:1: expected a mapping at the top"],
    ),
    Case(
        "empty-file",
        {"c.yaml": ""},
        ["mod/c.yaml:1: the file is empty; expected a mapping at the top"],
    ),
    Case(
        "not-utf8",
        {"c.yaml": NOT_UTF8},
        [f"mod/c.yaml:17: not UTF-8 text (byte {len(VALID.encode()) + 5} is 0xe9)"],
    ),
    Case(
        "two-yaml-documents",
        {"c.yaml": VALID + "---\nproposition: 8\n"},
        [
            "mod/c.yaml:17: YAML syntax error (expected a single document in the stream): "
            "but found another document"
        ],
    ),
    Case(
        "nesting-too-deep",
        {"c.yaml": "claims: " + "[" * 5000 + "]" * 5000 + "\n"},
        [
            "mod/c.yaml:1: YAML syntax error (while increasing flow level): "
            "exceeded maximum nesting depth"
        ],
    ),
    Case(
        "over-size-limit",
        {"c.yaml": TOO_BIG},
        [f"mod/c.yaml: the file is over {safeyaml.MAX_BYTES:,} bytes; not read"],
    ),
    Case(
        "alias-bomb",
        {"c.yaml": ALIAS_BOMB},
        ["mod/c.yaml: the document expands to more than 100,000 values (aliases?)"],
    ),
    # -- the format (pydantic models) ----------------------------------------------------
    Case(
        "unknown-top-level-key",
        {"c.yaml": VALID + "chapter: 23\n"},
        [f"mod/c.yaml:17: chapter: {UNKNOWN_KEY}"],
    ),
    Case(
        "unknown-key-in-claim",
        {"c.yaml": variant(("    check:", "    checks: 1\n    check:"))},
        [f"mod/c.yaml:7: claim topk.small: checks: {UNKNOWN_KEY}"],
    ),
    Case(
        "unknown-key-in-expectation",
        {"c.yaml": variant(("tolerance: {kind", "tolerence: {kind"))},
        [
            "mod/c.yaml:14: claim topk.small: expect[0].tolerence: "
            "unknown key; did you mean 'tolerance'?"
        ],
    ),
    Case(
        "missing-source",
        {"c.yaml": without('        source: "test: k = 2 keeps two"')},
        ["mod/c.yaml:12: claim topk.small: expect[0].source: missing (required)"],
    ),
    Case(
        "missing-expect",
        {"c.yaml": VALID.split("    expect:")[0]},
        ["mod/c.yaml:5: claim topk.small: expect: missing (required)"],
    ),
    Case(
        "empty-expect",
        {"c.yaml": VALID.split("    expect:")[0] + "    expect: []\n"},
        ["mod/c.yaml:11: claim topk.small: expect: needs at least 1 entry, got []"],
    ),
    Case(
        "invalid-claim-id",
        {"c.yaml": variant(("id: topk.small", "id: TopK_Small"))},
        [
            "mod/c.yaml:5: claim TopK_Small: id: "
            "'TopK_Small' does not match ^[a-z0-9]+(?:[.-][a-z0-9]+)*$"
        ],
    ),
    Case(
        "tolerance-unknown-kind",
        {"c.yaml": variant(("kind: exact", "kind: approx"))},
        [
            "mod/c.yaml:14: claim topk.small: expect[0].tolerance: "
            "kind 'approx' is not one of 'exact', 'close', 'range', 'raises'"
        ],
    ),
    Case(
        "tolerance-without-kind",
        {"c.yaml": variant(("{kind: exact}", "{abs: 1}"))},
        [
            "mod/c.yaml:14: claim topk.small: expect[0].tolerance: "
            "needs a kind: one of 'exact', 'close', 'range', 'raises'"
        ],
    ),
    Case(
        "close-without-abs-or-rel",
        {"c.yaml": variant(("kind: exact", "kind: close"))},
        [
            "mod/c.yaml:14: claim topk.small: expect[0].tolerance: "
            "a close tolerance needs abs, rel or both"
        ],
    ),
    Case(
        "close-negative-abs",
        {"c.yaml": variant(("kind: exact", "kind: close, abs: -0.5"))},
        ["mod/c.yaml:14: claim topk.small: expect[0].tolerance: abs must be finite and >= 0"],
    ),
    Case(
        "close-non-numeric-value",
        {"c.yaml": variant(("value: 2", 'value: "two"'), ("kind: exact", "kind: close, abs: 1"))},
        [
            "mod/c.yaml:12: claim topk.small: expect[0]: "
            "a close tolerance needs a finite number or a list of them, got 'two'"
        ],
    ),
    Case(
        "close-abs-list-wrong-length",
        {
            "c.yaml": variant(
                ("measure: kept", "measure: probs"),
                ("value: 2", "value: [0.625, 0.375, 0.0]"),
                ("kind: exact", "kind: close, abs: [1.0e-9, 1.0e-9]"),
            )
        },
        [
            "mod/c.yaml:12: claim topk.small: expect[0]: "
            "tolerance.abs has one entry per element of value"
        ],
    ),
    Case(
        "range-min-above-max",
        {
            "c.yaml": variant(
                ("        value: 2\n", ""), ("kind: exact", "kind: range, min: 3, max: 1")
            )
        },
        ["mod/c.yaml:13: claim topk.small: expect[0].tolerance: min 3 is greater than max 1"],
    ),
    Case(  # YAML 1.1 reads 1e-12 as text: inputs refused it, a tolerance took it as a number
        "tolerance-bound-as-text",
        {"c.yaml": variant(("kind: exact", "kind: close, abs: 1e-12"))},
        [
            "mod/c.yaml:14: claim topk.small: expect[0].tolerance.abs: YAML reads 1e-12 as "
            "text, not a number: write 1.0e-12 (a point and a signed exponent)",
        ],
    ),
    Case(
        "range-bound-as-text",
        {"c.yaml": variant(("        value: 2\n", ""), ("kind: exact", "kind: range, max: 1e3"))},
        [
            "mod/c.yaml:13: claim topk.small: expect[0].tolerance.max: YAML reads 1e3 as text, "
            "not a number: write 1.0e+3 (a point and a signed exponent)"
        ],
    ),
    Case(
        "raises-with-value",
        {"c.yaml": variant(("kind: exact", "kind: raises, error: ValueError"))},
        ["mod/c.yaml:12: claim topk.small: expect[0]: a raises tolerance takes no value"],
    ),
    Case(
        "raises-dotted-name",
        {
            "c.yaml": variant(
                ("        value: 2\n", ""), ("kind: exact", "kind: raises, error: os.error")
            )
        },
        [
            "mod/c.yaml:13: claim topk.small: expect[0].tolerance.error: "
            "'os.error' does not match ^[A-Za-z_][A-Za-z0-9_]*$"
        ],
    ),
    Case(
        "claim-without-id",
        {"c.yaml": variant(("  - id: topk.small\n    statement", "  - statement"))},
        ["mod/c.yaml:5: claim #1: id: missing (required)"],
    ),
    Case(
        "claim-not-a-mapping",
        {"c.yaml": VALID.split("claims:")[0] + "claims: [topk.small]\n"},
        ["mod/c.yaml:4: claim #1: expected a mapping, got 'topk.small'"],
    ),
    Case(
        "unknown-unit",
        {"c.yaml": variant(("unit: count", "unit: tokens"))},
        [
            "mod/c.yaml:15: claim topk.small: expect[0].unit: expected one of 'count', 'log10', "
            "'orders', 'MiB', 'bytes', 'ratio', 'probability', 'number', got 'tokens'"
        ],
    ),
    Case(
        "close-nan-value",
        {"c.yaml": variant(("value: 2", "value: .nan"), ("kind: exact", "kind: close, abs: 1"))},
        [
            "mod/c.yaml:12: claim topk.small: expect[0]: "
            "an expected value must be a finite number (no NaN, infinity, or integer beyond 1e308)"
        ],
    ),
    Case(
        "exact-astronomic-value",
        {"c.yaml": variant(("value: 2", "value: " + "9" * 400))},
        [
            "mod/c.yaml:12: claim topk.small: expect[0]: "
            "an expected value must be a finite number (no NaN, infinity, or integer beyond 1e308)"
        ],
    ),
    Case(
        "module-version-0",
        {"module.yaml": MODULE_YAML.replace(VERSION_LINE, "version: 0"), "c.yaml": VALID},
        ["mod/module.yaml:7: version: must be >= 1, got 0"],
    ),
    Case(  # was taken as version 1, silently
        "module-version-1.0",
        {"module.yaml": MODULE_YAML.replace(VERSION_LINE, "version: 1.0"), "c.yaml": VALID},
        ["mod/module.yaml:7: version: expected an integer, got 1.0"],
    ),
    # -- against the registry (runner.validate) -----------------------------------------
    Case(
        "unknown-check-closest",
        {"c.yaml": variant(("check: top_k_support", "check: top_k_suport"))},
        [
            "mod/c.yaml:7: claim topk.small: check: "
            f"unknown check 'top_k_suport'; closest: {closest_checks('top_k_suport')}"
        ],
    ),
    Case(
        "unknown-check-readme-example",
        {
            "6-temperature.yaml": TEMPERATURE_YAML.replace(
                "check: temperature_table", "check: temperature_tabel"
            )
        },
        # docs/claims.md shows this very line, with one name after 'closest:'
        [
            "mod/6-temperature.yaml:13: claim temperature.table: check: "
            f"unknown check 'temperature_tabel'; closest: {closest_checks('temperature_tabel')}"
        ],
    ),
    Case(
        "input-the-check-does-not-take",
        {"c.yaml": variant(("      k: 2\n", "      k: 2\n      top_p: 0.9\n"))},
        [
            "mod/c.yaml:11: claim topk.small: inputs.top_p: "
            "check top_k_support takes no input 'top_p' (it takes probs, k)"
        ],
    ),
    Case(
        "input-injected-by-runner",
        {"c.yaml": variant(("      k: 2\n", "      k: 2\n      rng: 0\n"))},
        [
            "mod/c.yaml:11: claim topk.small: inputs.rng: "
            "'rng' is supplied by the runner, not the claim"
        ],
    ),
    Case(
        "missing-required-input",
        {"c.yaml": without("      k: 2")},
        ["mod/c.yaml:8: claim topk.small: inputs.k: missing; check top_k_support requires it"],
    ),
    Case(
        "input-wrong-type",
        {"c.yaml": variant(("k: 2", 'k: "two"'))},
        ["mod/c.yaml:10: claim topk.small: inputs.k: expected int, got 'two'"],
    ),
    Case(
        "input-wrong-element-type",
        {"c.yaml": variant(("probs: [0.5, 0.3, 0.2]", "probs: [0.5, yes, 0.2]"))},
        [
            "mod/c.yaml:9: claim topk.small: inputs.probs[1]: "
            "expected list[float], got [0.5, True, 0.2]"
        ],
    ),
    Case(
        "measure-the-check-does-not-return",
        {"c.yaml": variant(("measure: kept", "measure: keep"))},
        [
            "mod/c.yaml:12: claim topk.small: expect[0].measure: "
            f"check top_k_support returns no measurement 'keep'; it returns {TOPK_MEASURES}"
        ],
    ),
    Case(
        "raises-not-a-builtin-exception",
        {
            "c.yaml": variant(
                ("        value: 2\n", ""), ("kind: exact", "kind: raises, error: ValueErr")
            )
        },
        [
            "mod/c.yaml:13: claim topk.small: expect[0].tolerance.error: "
            "'ValueErr' is not a built-in exception type; closest: ValueError"
        ],
    ),
    Case(
        "input-bool-for-int",
        {"c.yaml": variant(("k: 2", "k: yes"))},
        ["mod/c.yaml:10: claim topk.small: inputs.k: expected int, got True"],
    ),
    Case(
        "duplicate-claim-id-in-one-file",
        {"c.yaml": VALID + VALID.split("claims:\n")[1]},
        ["mod/c.yaml:17: claim topk.small: id: duplicate claim id (first in mod/c.yaml:5)"],
    ),
    Case(
        "duplicate-claim-id-across-files",
        {"c.yaml": VALID, "d.yaml": VALID},
        ["mod/d.yaml:5: claim topk.small: id: duplicate claim id (first in mod/c.yaml:5)"],
    ),
    Case(
        "duplicate-metric-name",
        {
            "c.yaml": VALID,
            "d.yaml": variant(("id: topk.small", "id: topk.other")).replace(
                "      - measure: kept\n",
                "      - measure: kept\n        metric: topk.small.kept\n",
            ),
        },
        [
            "mod/d.yaml:13: claim topk.other: expect[0].metric: "
            "metric 'topk.small.kept' is also named by claim topk.small"
        ],
    ),
    # -- several problems: every one is reported, a line each -----------------------------
    Case(
        "several-format-problems-in-one-file",
        {
            "c.yaml": variant(
                ("id: topk.small", "id: Top K"),
                ("tolerance: {kind", "tolerence: {kind"),
                ('source: "test: k = 2 keeps two"', "source: ''"),
            )
        },
        [
            "mod/c.yaml:5: claim Top K: id: 'Top K' does not match ^[a-z0-9]+(?:[.-][a-z0-9]+)*$",
            "mod/c.yaml:14: claim Top K: expect[0].tolerence: "
            "unknown key; did you mean 'tolerance'?",
            "mod/c.yaml:16: claim Top K: expect[0].source: must not be empty, got ''",
        ],
    ),
    Case(
        "several-registry-problems-in-one-file",
        {
            "c.yaml": variant(
                ("measure: kept", "measure: keep"),
                ("      k: 2\n", '      k: "two"\n      top_p: 0.9\n'),
            )
        },
        [
            "mod/c.yaml:10: claim topk.small: inputs.k: expected int, got 'two'",
            "mod/c.yaml:11: claim topk.small: inputs.top_p: "
            "check top_k_support takes no input 'top_p' (it takes probs, k)",
            "mod/c.yaml:13: claim topk.small: expect[0].measure: "
            f"check top_k_support returns no measurement 'keep'; it returns {TOPK_MEASURES}",
        ],
    ),
    # YAML 1.1 reads 1e-9 as text: two messages of a union ("a number", "a list") and no
    # word of why (a pack author, 2026-12-07); one message saying how to write it now
    Case(
        "exponent-without-point-in-a-tolerance",
        {
            "c.yaml": variant(
                ("tolerance: {kind: exact}", "tolerance: {kind: close, rel: 1e-9}"),
            )
        },
        [
            "mod/c.yaml:14: claim topk.small: expect[0].tolerance.rel: "
            "YAML reads 1e-9 as text, not a number: write 1.0e-9 (a point and a signed exponent)"
        ],
    ),
    Case(
        "exponent-without-sign-in-a-value",
        {"c.yaml": variant(("        value: 2\n", "        value: 2.0e3\n"))},
        [
            "mod/c.yaml:12: claim topk.small: expect[0]: "
            "YAML reads 2.0e3 as text, not a number: write 2.0e+3 (a point and a signed exponent)"
        ],
    ),
    # points: true or "2" were taken as 1.0 and 2.0 (a pack author, 2026-12-07), where the
    # schema says a number and a claim's inputs refuse the same values
    Case(
        "points-that-are-no-number",
        {
            "c.yaml": variant(
                ("    check: top_k_support\n", "    check: top_k_support\n    points: true\n")
            )
        },
        ["mod/c.yaml:8: claim topk.small: points: expected a number, got True"],
    ),
    Case(
        "problems-in-several-files",
        {
            "module.yaml": MODULE_YAML.replace(VERSION_LINE, "version: 0"),
            "c.yaml": variant(("tolerance: {kind: exact}", "tolerance: {kind: exact, abs: 1}")),
            "d.yaml": "- not a mapping\n",
        },
        [
            "mod/c.yaml:14: claim topk.small: expect[0].tolerance.abs: " + UNKNOWN_KEY,
            "mod/d.yaml:1: expected a mapping at the top",
            "mod/module.yaml:7: version: must be >= 1, got 0",
        ],
    ),
]


def summary(n: int) -> str:
    return f"{n} problem{'s' if n != 1 else ''} in the modules (claim files or pack code); nothing was run or written"


def write_module(root, files):
    module = root / "mod"
    module.mkdir()
    (module / "module.yaml").write_text(MODULE_YAML, encoding="utf-8")
    (module / "chapter.zh.txt").write_text("第23章\n", encoding="utf-8")
    for name, content in files.items():
        data = content if isinstance(content, bytes) else content.encode("utf-8")
        (module / name).write_bytes(data)
    return module


def assert_refused(case: Case, cli, tmp_path, monkeypatch) -> None:
    write_module(tmp_path, case.files)
    monkeypatch.chdir(tmp_path)

    result = cli("run", "mod", "--out", "ev")

    assert result.code == 2
    assert result.err.splitlines() == [*case.stderr, summary(len(case.stderr))]
    assert result.out == ""
    assert not (tmp_path / "ev").exists(), "nothing may be written for invalid claims"
    assert not (tmp_path / "marker").exists(), "a YAML tag was executed"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_claim_file_is_refused_with_exact_problems(case, cli, tmp_path, monkeypatch):
    assert_refused(case, cli, tmp_path, monkeypatch)


# -- what some of the cases above should print instead ----------------------------------------
# Each is a known defect, reported with a patch; strict, so a fix turns them into failures
# that say: drop the mark here and update the matching row of CASES.
ALL_AT_ONCE = "problems against the registry are not looked for while the format has any"


def desired(case: Case, reason: str):
    # was a strict xfail until format and registry problems were reported together
    return pytest.param(case, id=case.id)


DESIRED = [
    desired(
        Case(
            "format-and-registry-problems-together",
            {
                "c.yaml": variant(
                    ("check: top_k_support", "check: top_k_suport"), ("unit: count", "unit: tokens")
                )
            },
            [
                "mod/c.yaml:7: claim topk.small: check: "
                f"unknown check 'top_k_suport'; closest: {closest_checks('top_k_suport')}",
                "mod/c.yaml:15: claim topk.small: expect[0].unit: expected one of 'count', "
                "'log10', 'orders', 'MiB', 'bytes', 'ratio', 'probability', 'number', "
                "got 'tokens'",
            ],
        ),
        ALL_AT_ONCE,
    ),
]


@pytest.mark.parametrize("case", DESIRED)
def test_bad_claim_file_should_be_reported_so(case, cli, tmp_path, monkeypatch):
    assert_refused(case, cli, tmp_path, monkeypatch)


def test_closest_check_comes_first():
    assert closest_checks("temperature_tabel").startswith("temperature_table")
    assert closest_checks("top_k_suport").startswith("top_k_support")


def test_case_ids_are_unique_and_the_table_is_large():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    assert len(ids) >= 20


def test_valid_base_claim_passes(cli, tmp_path, monkeypatch):
    """The cases above break ``VALID``; unbroken, it runs and passes."""
    write_module(tmp_path, {"c.yaml": VALID})
    monkeypatch.chdir(tmp_path)
    result = cli("run", "mod", "--out", "ev")
    assert result.code == 0, result.err
    assert "1 passed, 0 failed" in result.out.splitlines()


def test_unsafe_tag_is_never_executed(cli, tmp_path, monkeypatch):
    marker = tmp_path / "marker"
    text = variant(
        ("check: top_k_support", f'check: !!python/object/apply:os.system ["echo hi > {marker}"]')
    )
    write_module(tmp_path, {"c.yaml": text})
    monkeypatch.chdir(tmp_path)
    result = cli("run", "mod", "--out", "ev")
    assert result.code == 2
    assert "tag !!python/object/apply:os.system is not allowed" in result.err
    assert not marker.exists()


def test_alias_bomb_is_refused_quickly(cli, tmp_path, monkeypatch):
    write_module(tmp_path, {"c.yaml": ALIAS_BOMB})
    monkeypatch.chdir(tmp_path)
    start = time.process_time()
    result = cli("run", "mod", "--out", "ev")
    elapsed = time.process_time() - start
    assert result.code == 2
    assert "expands to more than" in result.err
    assert elapsed < 0.5, f"an alias bomb took {elapsed:.3f} s to refuse"


def test_alias_bomb_parse_is_bounded_directly():
    start = time.process_time()
    with pytest.raises(safeyaml.YamlError) as info:
        safeyaml.parse(ALIAS_BOMB)
    assert [p.message.code for p in info.value.problems] == ["yaml.expands"]
    assert time.process_time() - start < 0.25


def test_size_limit_is_checked_before_parsing():
    # invalid YAML beyond the limit: the size is the only problem reported
    with pytest.raises(safeyaml.YamlError) as info:
        safeyaml.parse(b"[" * (safeyaml.MAX_BYTES + 1))
    [problem] = info.value.problems
    assert catalog("en").say(problem.message) == (
        f"file is {safeyaml.MAX_BYTES + 1:,} bytes; the limit is {safeyaml.MAX_BYTES:,}"
    )


# -- the same problems in Chinese ---------------------------------------------------------------
ENGLISH_ONLY = re.compile(
    r"input should|string should|should have|needs at least|tolerance needs|must be finite|"
    r"takes no value|greater than|one entry per|\bclaim\b|\bgot\b|\bexpected\b|\bno claim\b|"
    r"\bcannot\b|\bis not\b|names no|returns no|\bduplicate\b|\bunknown\b|\bmissing\b|"
    r"\bclosest\b|\bempty\b|\bneeds?\b|\bmust\b|\bshould\b"
)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_claim_file_problems_read_in_chinese(case, cli, tmp_path, monkeypatch):
    """Under --lang zh every problem keeps its place (file, line, JSON path, values) and none
    falls back to pydantic's or the runner's English words."""
    write_module(tmp_path, case.files)
    monkeypatch.chdir(tmp_path)

    result = cli("run", "mod", "--out", "ev", "--lang", "zh")

    assert result.code == 2
    lines = result.err.splitlines()
    assert len(lines) == len(case.stderr) + 1
    for zh, en in zip(lines, case.stderr, strict=False):
        assert zh.split(": ")[0] == en.split(": ")[0]  # file and line unchanged
        words = zh.split(": ", 1)[1]
        if "YAML" not in words:  # libyaml's own parser messages stay as libyaml wrote them
            assert not ENGLISH_ONLY.search(words), zh


def test_claim_file_problems_pinned_in_chinese(cli, tmp_path, monkeypatch):
    files = {
        "c.yaml": variant(
            ("    tolerance: {kind: exact}", "    tolerance: {kind: close}"),
            ("    unit: count", "    unit: meters"),
        )
    }
    write_module(tmp_path, files)
    (tmp_path / "mod" / "module.yaml").write_text(
        MODULE_YAML.replace(VERSION_LINE, "version: 0"), encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)

    result = cli("run", "mod", "--lang", "zh")

    assert result.err.splitlines() == [
        "mod/c.yaml:14: 断言 topk.small: expect[0].tolerance: close 容差需要 abs、rel 或两者",
        "mod/c.yaml:15: 断言 topk.small: expect[0].unit: 应为 'count', 'log10', 'orders', "
        "'MiB', 'bytes', 'ratio', 'probability', 'number' 之一，实际是 'meters'",
        "mod/module.yaml:7: version: 应 >= 1，实际是 0",
        "模块（断言文件或 pack 代码）中有 3 个问题；没有运行，也没有写入任何文件",
    ]


def test_control_characters_in_a_claim_file_are_shown_not_acted_on(cli, tmp_path, monkeypatch):
    """A claim id, a key and a file name holding an escape sequence, a bell, a carriage
    return and a newline: the terminal is sent no control character, and each problem
    stays on one line."""
    escaped = "x\\e]0;owned\\a\\r\\n\\e[2J"  # YAML double-quoted escapes
    write_module(
        tmp_path,
        {
            "c\x1b[31m.yaml": f'claims:\n  - id: "{escaped}"\n    "{escaped}": 1\n',
            "d.yaml": f'claims:\n  - id: ok\n    "{escaped}": 1\n',
        },
    )
    monkeypatch.chdir(tmp_path)

    result = cli("run", "mod", "--out", "ev")

    assert result.code == 2
    assert {c for c in result.err if ord(c) < 0x20 and c != "\n"} == set()
    lines = result.err.splitlines()
    assert all(line.startswith("mod/") for line in lines[:-1])
    assert any("\\x1b[31m" in line for line in lines)  # shown as its escape, never obeyed
    assert any("\\x1b]0;owned\\x07\\r\\n\\x1b[2J" in line for line in lines)


def test_an_expected_value_nested_900_deep_is_validated_without_recursion():
    """The expectation's checks walk nested lists with a loop: deep values are judged (here:
    accepted as numbers), never a RecursionError."""
    from runner.models.claims import Expectation

    value: object = 1.0
    for _ in range(900):
        value = [value]
    expectation = Expectation.model_validate(
        {"measure": "m", "value": value, "tolerance": {"kind": "close", "abs": 1e-9}, "source": "s"}
    )
    assert expectation.value == value
    with pytest.raises(ValueError, match="finite"):
        Expectation.model_validate(
            {
                "measure": "m",
                "value": [value, float("nan")],
                "tolerance": {"kind": "close", "abs": 1e-9},
                "source": "s",
            }
        )


@pytest.mark.parametrize(
    ("inputs", "problem"),
    [
        ("{lengths: [512, 100000], d_model: 128}", "inputs.lengths[1]: ≤ 8192 expected, got 100,000"),
        ("{lengths: [512, 0], d_model: 128}", "inputs.lengths[1]: ≥ 1 expected, got 0"),
        (f"{{lengths: {list(range(1, 66))}, d_model: 128}}",
         "inputs.lengths: a list of ≤ 64 entries expected, got 65"),
        ("{lengths: [], d_model: 128}", "inputs.lengths: a list of ≥ 1 entries expected, got 0"),
    ],
    ids=["too-long-for-a-(T,T)-array", "zero", "too-many-sizes", "no-size"],
)  # fmt: skip
def test_a_claim_asking_a_check_for_too_much_work_is_refused_at_load(
    cli, tmp_path, monkeypatch, inputs, problem
):
    """A slip in a size (T = 100,000 where a (T, T) array is built: 80 GB) is a problem
    named at load, from the bounds in the check's signature (checks/inputs.py)."""
    module = tmp_path / "mod"
    shutil.copytree(MODULE, module)
    audit = module / "11-audit.yaml"
    text = audit.read_text(encoding="utf-8")
    old = "inputs: {lengths: [512, 1024, 2048], d_model: 128}"
    assert old in text
    audit.write_text(text.replace(old, f"inputs: {inputs}"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)

    result = cli("run", "mod", "--out", "ev")

    assert result.code == 2
    assert result.err.splitlines()[0].endswith(f"claim structure.averaging-cost: {problem}")
    assert not (tmp_path / "ev").exists()


def test_chain_rule_enumeration_past_its_bound_is_the_claims_error_not_a_hang():
    """V^T sequences are enumerated one by one: past a million the check refuses, at once."""
    from tests.conftest import REGISTRY

    spec = REGISTRY.checks["chain_rule_exhaustive"]
    with pytest.raises(ValueError, match="at most 1,000,000"):
        spec.fn(REGISTRY.reference(), vocab=50257, length=1000, rng=np.random.default_rng(0))


@pytest.mark.parametrize("link", ["itself", "outside", "dangling"])
def test_a_chapter_file_that_is_a_link_is_a_problem_of_module_yaml(
    cli, tmp_path, monkeypatch, link
):
    """The chapter's text belongs in the module: a link to itself (a loop), out of the
    module, or to nothing is one problem of module.yaml, never an internal error."""
    module = write_module(tmp_path, {"c.yaml": VALID})
    chapter = module / "chapter.zh.txt"
    chapter.unlink()
    (tmp_path / "elsewhere.txt").write_text("第23章\n", encoding="utf-8")
    target = {"itself": chapter, "outside": tmp_path / "elsewhere.txt", "dangling": tmp_path / "no"}
    chapter.symlink_to(target[link])
    monkeypatch.chdir(tmp_path)

    result = cli("run", "mod", "--out", "ev")

    assert result.code == 2
    (line, summary_line) = result.err.splitlines()
    assert line.startswith("mod/module.yaml:") and "chapter.zh.txt" in line
    assert summary_line == summary(1)


def test_a_claim_file_changed_between_two_loads_in_one_process_is_read_anew(tmp_path):
    """Loads of the same bytes share one parse; a file whose bytes changed, even to the
    same size, is parsed again, and one that stopped parsing is refused again each time."""
    from runner.errors import InvalidClaims
    from runner.load import load_packs

    module = tmp_path / MODULE.name
    shutil.copytree(MODULE, module)
    card = module / "7-top-k.yaml"
    text = card.read_text(encoding="utf-8")
    (first,) = load_packs([module])
    assert "value: 2\n" in text
    card.write_text(text.replace("value: 2\n", "value: 3\n"), encoding="utf-8")  # same size
    (second,) = load_packs([module])
    expects = [
        [e.value for e in c.claim.expect if e.measure == "kept"]
        for pack in (first, second)
        for c in pack.claims
        if c.claim.id == "topk.renormalize"
    ]
    assert expects == [[2], [3]]
    card.write_text(text + "  - [unclosed\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(InvalidClaims):
            load_packs([module])


def test_two_folders_with_one_module_id_are_a_problem_not_one_evidence_file_over_another(
    cli, tmp_path, monkeypatch
):
    """Evidence is named by the module's id: two folders under one id would write one file,
    the second run's over the first's. The second folder is one problem of its module.yaml
    and is left out; the first runs."""
    first = write_module(tmp_path, {"c.yaml": VALID})
    shutil.copytree(first, tmp_path / "zcopy")
    monkeypatch.chdir(tmp_path)

    result = cli("run", "mod", "zcopy", "--out", "ev")

    assert result.code == 2
    (line, summary_line) = result.err.splitlines()
    assert line.startswith("zcopy/module.yaml: ") and "mod/module.yaml" in line
    assert "each module needs an id of its own" in line
    assert summary_line == (
        "1 problem in a module (its claim files or pack code): the module it belongs to was left out; the others ran"
    )


@pytest.mark.parametrize(
    ("break_it", "expected"),
    [
        (lambda text: text.replace("expect:", "expect: [", 1), r"1-softmax\.yaml:\d+"),
        (lambda text: text.replace("check: softmax_properties", "check: softmax_propertis", 1),
         r"unknown check .softmax_propertis."),
    ],
    ids=["yaml-syntax", "unknown-check"],
)  # fmt: skip
def test_one_broken_claim_file_is_one_problem_not_those_of_the_faults_naming_its_claims(
    cli, tmp_path, monkeypatch, break_it, expected
):
    """faults.yaml names softmax.distribution as a catcher and in an observed fact: a claim
    file that cannot be read, or a claim whose check is unknown, was one problem and three
    more in faults.yaml ("no claim ...", "... names no measurement"), all of one mistake."""
    example = MODULE.parents[1] / "examples" / "course" / "claims" / "05-softmax"
    module = tmp_path / "claims" / "05-softmax"
    shutil.copytree(example, module, ignore=shutil.ignore_patterns("__pycache__"))
    claim_file = module / "1-softmax.yaml"
    claim_file.write_text(break_it(claim_file.read_text(encoding="utf-8")), encoding="utf-8")
    monkeypatch.chdir(tmp_path)

    result = cli("run", "claims/")

    assert result.code == 2
    problems = [line for line in result.err.splitlines() if line.startswith("claims/")]
    assert len(problems) == 1 and re.search(expected, problems[0]), result.err
    assert "faults.yaml" not in result.err


def test_a_misspelt_catcher_is_said_with_the_closest_claim_ids(cli, tmp_path, monkeypatch):
    """An outside pack author's misspelt catcher got no suggestion, where an unknown check
    or fault gets the closest names."""
    module = tmp_path / "claims" / MODULE.name
    shutil.copytree(MODULE, module, ignore=shutil.ignore_patterns("__pycache__"))
    faults = module / "faults.yaml"
    text = faults.read_text(encoding="utf-8")
    old = "catchers: [support.gpt2-vocab-1000-ctx,"
    assert text.count(old) == 1
    faults.write_text(text.replace(old, "catchers: [support.gpt2-vocab-100-ctx,"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)

    result = cli("run", "claims/", "--lang", "en")

    assert result.code == 2
    assert (
        "catchers[0]: no claim 'support.gpt2-vocab-100-ctx' in module 23-design-tradeoffs; "
        "closest: support.gpt2-vocab-1000-ctx, support.gpt2-vocab-32-ctx"
    ) in result.err, result.err


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (0.0, "> 0 expected, got 0"),
        (-1.5, "> 0 expected, got -1.5"),
        (2.0, "< 1 expected, got 2"),
    ],
)
def test_a_float_input_outside_a_strict_bound_is_said_with_its_bound(value, said):
    """A check's ``Field(gt=0.0)`` said "expected float, got 0.0" of 0.0: the bound it
    broke, as ``ge`` and ``le`` are said (found by a pack author, 2026-12-07)."""
    from runner.i18n import say
    from runner.pack import Pack
    from runner.validate import input_problems

    pack = Pack("bounded", code=())

    @pack.check("scaled", needs=(), measures=("v",))
    def scaled(
        impl: Implementation,
        eps: Annotated[float, Field(gt=0.0)],
        p: Annotated[float, Field(lt=1.0)],
    ) -> Measurements:
        return {"v": eps}

    spec = pack.registry.resolve_check("scaled")
    inputs = {"eps": value, "p": 0.5} if value <= 1 else {"eps": 1.0, "p": value}
    ((field, message, _),) = input_problems(spec, inputs)
    assert say("en", message.code, **message.params) == said, field


def test_learner_evidence_kept_beside_the_claims_is_one_problem_saying_what_it_is(
    cli, tmp_path, monkeypatch
):
    """A pack author's evidence template saved in the module's folder was read as a claim
    file: eight "unknown key" problems and no word of why (2026-12-07)."""
    module = tmp_path / "mod"
    shutil.copytree(MODULE, module)
    template = MODULE.parents[1] / "tests" / "data" / "chapter-23-template.yaml"
    (module / "evidence-template.yaml").write_bytes(template.read_bytes())
    monkeypatch.chdir(tmp_path)
    result = cli("run", "mod", "--out", "ev")
    assert result.code == 2
    problems = [line for line in result.err.splitlines() if line.startswith("mod/")]
    assert len(problems) == 1, result.err
    assert problems[0].startswith("mod/evidence-template.yaml:")
    assert "this is learner evidence (learn-llm.evidence), not a claim file" in problems[0]


def test_a_dtype_the_contract_check_cannot_meet_is_refused_in_dtype_rtol():
    """``dtype_rtol: {float33: 1e-6}`` loaded, and the typo was never flagged: no result has
    that dtype, so its tolerance is never used (found by a pack author, 2026-12-07)."""
    from runner.validate import input_problems

    spec = REGISTRY.resolve_check("matches_reference")
    inputs = {
        "subject": "softmax_temperature",
        "generator": "softmax_temperature",
        "cases": 3,
        "rtol": 1e-12,
    }
    assert input_problems(spec, {**inputs, "dtype_rtol": {"float32": 2e-6}}) == []
    ((field, _, _),) = input_problems(spec, {**inputs, "dtype_rtol": {"float33": 2e-6}})
    assert "dtype_rtol" in field and "float33" in field, field


def test_a_bilingual_text_split_by_its_commas_is_one_problem_saying_to_quote_it():
    """``{zh: 得到 36,864，而不是 38,400, en: ...}``: YAML reads the commas as separators, and
    the author was told of an unknown key ``864，而不是 38`` and "keys should be strings, got
    400" (a pack author, 2026-12-07)."""
    from runner.load import to_model
    from runner.models.claims import FaultsFile
    from runner.safeyaml import parse

    text = (
        "faults:\n  - id: x\n    title: {zh: a, en: b}\n    replaces: f\n"
        '    expected_signal: {zh: GPT-2 small 得到 36,864，而不是 38,400, en: "x"}\n'
        "    catchers: [a]\n    observed: []\n"
    )
    problems: list[Any] = []
    to_model(FaultsFile, parse(text.encode()), Path("faults.yaml"), problems)
    said = [(p.line, p.field, p.message.code) for p in problems]
    assert said[0] == (5, "expected_signal", "claim.text_unquoted"), said
    assert [s for s in said if s[1] and s[1].startswith("expected_signal")] == [said[0]]
    problems = []
    misspelt = text.replace("title: {zh: a, en: b}", "title: {zh: a, eng: b}")
    to_model(FaultsFile, parse(misspelt.encode()), Path("faults.yaml"), problems)
    assert ("title.eng", "claim.did_you_mean") in [(p.field, p.message.code) for p in problems]
