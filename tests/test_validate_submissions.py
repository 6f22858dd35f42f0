"""``validate``: a table of bad learner submissions, each with the exact problems it must get.

Every case starts from a properly filled copy of the chapter's learner template (``GOOD_YAML``
below, the template with every ``<...>`` filled) and breaks one thing. Each test runs the
command line in ``tmp_path`` (so the file is shown as ``sub.yaml``) against a small learner
repository there (``repo/``: a git repository whose one commit holds the artifact the good
submission names) and compares the whole output: the header line and every
``path: message`` line, in the order of the file. Messages are pinned in English; every case
is also run in Chinese, which must use its own words.
"""

from __future__ import annotations

import atexit
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from runner.i18n import Msg, catalog
from runner.load import load_packs
from runner.submission import MAX_DEPTH, MAX_PROBLEMS, MAX_SUBMISSION_BYTES
from tests.conftest import MODULE, ROOT

CHAPTER = MODULE / "chapter.zh.txt"
MODULE_ID = "23-design-tradeoffs"
ARTIFACT = "results/tradeoffs.json"
PACK = f"{MODULE_ID} v{load_packs([MODULE])[0].meta.version}"
SUPPORT = "support_log10_gpt2_vocab_1000_ctx"
PARAMS = "gpt2_small_parameter_total"

# -- the learner's repository ----------------------------------------------------------------------
# git with nothing of this machine's configuration and fixed dates, so the learner's commit has
# the same sha on every run and the table below can name it.
GIT_ENV = {
    "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    "HOME": tempfile.gettempdir(),
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "Learner",
    "GIT_AUTHOR_EMAIL": "learner@example.invalid",
    "GIT_AUTHOR_DATE": "2025-03-14T10:00:00+00:00",
    "GIT_COMMITTER_NAME": "Learner",
    "GIT_COMMITTER_EMAIL": "learner@example.invalid",
    "GIT_COMMITTER_DATE": "2025-03-14T10:00:00+00:00",
}


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        [
            "git",
            "-C",
            str(repo),
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
            *args,
        ],
        capture_output=True,
        text=True,
        check=True,
        env=GIT_ENV,
    )
    return done.stdout.strip()


def make_learner_repo(repo: Path) -> str:
    """A git repository holding the artifact in one commit; returns that commit."""
    (repo / "results").mkdir(parents=True)
    (repo / ARTIFACT).write_text('{"ok": true}\n', encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", ARTIFACT)
    git(repo, "commit", "-q", "-m", "results")
    return git(repo, "rev-parse", "HEAD")


_TEMPLATE_HOME = Path(tempfile.mkdtemp(prefix="learner-repo-"))
atexit.register(shutil.rmtree, _TEMPLATE_HOME, True)
TEMPLATE_REPO = _TEMPLATE_HOME / "repo"
LEARNER_HEAD = make_learner_repo(TEMPLATE_REPO)
LEARNER_TREE = git(TEMPLATE_REPO, "rev-parse", "HEAD^{tree}")
ARTIFACT_BLOB = git(TEMPLATE_REPO, "rev-parse", f"HEAD:{ARTIFACT}")
# a commit that exists, but in another repository: this project's
PROJECT_HEAD = subprocess.run(
    ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
).stdout.strip()

GOOD_YAML = f"""\
schema: learn-llm.evidence.v1
module: {MODULE_ID}
commit: {LEARNER_HEAD}
verified_at: 2025-03-14
environment: CPython 3.11.7, NumPy 2.4.6, Linux x86_64, CPU only
seed: 0
commands:
  - PYTHONPATH=python python -m pytest python/tests/test_design_tradeoffs.py -q
  - PYTHONPATH=python python scripts/tradeoff_run.py
metrics:
  - name: {SUPPORT}
    expected: 4701.20
    actual: 4701.196560612873
  - name: {PARAMS}
    expected: 123532032
    actual: 123532032
artifacts:
  - {ARTIFACT}
cost:
  gross_usd: 0
  credit_usd: 0
licenses:
  - source: GPT-2 small configuration (openai/gpt-2)
    version: 124M
    license: MIT
    attribution: OpenAI
    redistribution: figures only; no weights are redistributed
known_failures:
  - none
"""


# A verbatim copy of the chapter's template; test_the_copied_template_is_the_chapters proves
# it is still the chapter's text.
TEMPLATE_COPY = ROOT / "tests" / "data" / "chapter-23-template.yaml"


def template_from_chapter() -> str:
    text = CHAPTER.read_text(encoding="utf-8")
    start = text.index("schema: learn-llm.evidence.v1")
    return text[start : text.index("下一步", start)].rstrip() + "\n"


def chapter_template() -> str:
    """The learner template exactly as the chapter prints it."""
    return TEMPLATE_COPY.read_text(encoding="utf-8")


def test_the_copied_template_is_the_chapters():
    assert TEMPLATE_COPY.read_text(encoding="utf-8") == template_from_chapter()


def good_data() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(GOOD_YAML)
    data["verified_at"] = "2025-03-14"  # safe_load makes it a date; the evidence has a string
    return data


# -- building the cases ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    id: str
    file: str  # the submission's name in tmp_path; its suffix picks YAML or JSON
    content: str | bytes
    problems: list[str]


def edit(old: str, new: str) -> str:
    """The good submission with ``old`` (which must occur once) replaced by ``new``."""
    assert GOOD_YAML.count(old) == 1, old
    return GOOD_YAML.replace(old, new)


def as_json(change: Callable[[dict[str, Any]], object] = lambda d: None) -> str:
    data = good_data()
    change(data)
    return json.dumps(data, indent=2, ensure_ascii=False)


def setitem(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """``setitem("metrics.0.actual", x)``: set one value of the good data, by its path."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = (int(p) if p.isdigit() else p for p in path.split("."))
        target: Any = data
        for p in parents:
            target = target[p]
        target[last] = value

    return change


BILLION_LAUGHS = "\n".join(
    ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    + [
        f"{b}: &{b} [{', '.join([f'*{a}'] * 10)}]"
        for a, b in zip("abcdefgh", "bcdefghi", strict=True)
    ]
)
OVERSIZED = GOOD_YAML + "# padding\n" * (MAX_SUBMISSION_BYTES // 10)
SIZE = len(OVERSIZED.encode())
EXPECTS_SUPPORT = f"4701.20 ± 0.005 ({PACK}, claim support.gpt2-vocab-1000-ctx)"
EXPECTS_PARAMS = f"= 123,532,032 ({PACK}, claim operators.parameter-table)"
NO_ALIASES = "plain data only here (no anchors or aliases)"

ENV = "environment: CPython 3.11.7, NumPy 2.4.6, Linux x86_64, CPU only"
COMMANDS = (
    "commands:\n"
    "  - PYTHONPATH=python python -m pytest python/tests/test_design_tradeoffs.py -q\n"
    "  - PYTHONPATH=python python scripts/tradeoff_run.py\n"
)
LICENSES = GOOD_YAML[GOOD_YAML.index("licenses:") : GOOD_YAML.index("known_failures:")]
SANITIZE = "environment must be sanitized"
NOT_A_MAPPING = "$: expected a mapping (the evidence template), got "

CASES = [
    # -- the schema ------------------------------------------------------------------------
    Case(
        "missing-commit",
        "sub.yaml",
        edit(f"commit: {LEARNER_HEAD}\n", ""),
        ["$: 'commit' is a required property"],
    ),
    Case(
        "missing-cost-and-licenses",
        "sub.yaml",
        edit("cost:\n  gross_usd: 0\n  credit_usd: 0\n", "").replace(LICENSES, ""),
        ["$: 'cost' is a required property", "$: 'licenses' is a required property"],
    ),
    Case(
        "schema-another-version",
        "sub.yaml",
        edit("schema: learn-llm.evidence.v1", "schema: learn-llm.evidence.v2"),
        ["$.schema: 'learn-llm.evidence.v1' was expected"],
    ),
    Case(
        "module-a-number",
        "sub.yaml",
        edit(f"module: {MODULE_ID}", "module: 23"),
        ["$.module: 23 is not of type 'string'"],
    ),
    Case(
        "extra-top-level-key",
        "sub.yaml",
        GOOD_YAML + "notes: ran it twice\n",
        ["$: additional properties are not allowed ('notes' was unexpected)"],
    ),
    Case(
        "cost-negative",
        "sub.yaml",
        edit("gross_usd: 0", "gross_usd: -1.5"),
        ["$.cost.gross_usd: -1.5 is less than the minimum of 0"],
    ),
    Case(
        "cost-a-string",
        "sub.yaml",
        edit("credit_usd: 0", "credit_usd: free"),
        ["$.cost.credit_usd: 'free' is not of type 'number'"],
    ),
    Case(
        "cost-nan",
        "sub.yaml",
        edit("gross_usd: 0", "gross_usd: .nan"),
        ["$.cost.gross_usd: NaN is not a finite number"],
    ),
    Case(
        "seed-1.5",
        "sub.yaml",
        edit("seed: 0", "seed: 1.5"),
        ["$.seed: 1.5 is not of type 'integer'"],
    ),
    Case(
        "seed-zero-in-words",
        "sub.yaml",
        edit("seed: 0", "seed: zero"),
        ["$.seed: 'zero' is not of type 'integer'"],
    ),
    Case(
        "license-incomplete",
        "sub.yaml",
        edit("    redistribution: figures only; no weights are redistributed\n", ""),
        ["$.licenses[0]: 'redistribution' is a required property"],
    ),
    Case(
        "license-empty-field",
        "sub.yaml",
        edit("license: MIT", "license: ''"),
        ["$.licenses[0].license: '' should be non-empty"],
    ),
    Case(
        "commands-empty",
        "sub.yaml",
        edit(COMMANDS, "commands: []\n"),
        ["$.commands: [] should be non-empty"],
    ),
    Case(
        "metric-without-actual",
        "sub.yaml",
        edit("    actual: 123532032\n", ""),
        ["$.metrics[1]: 'actual' is a required property"],
    ),
    Case(
        "known-failures-a-string",
        "sub.yaml",
        edit("known_failures:\n  - none", "known_failures: none"),
        ["$.known_failures: 'none' is not of type 'array'"],
    ),
    # -- unfilled placeholders ---------------------------------------------------------------
    Case(
        "chapter-template-verbatim",
        "sub.yaml",
        chapter_template(),
        [
            "$.commit: unfilled placeholder <learner-commit-sha>",
            "$.verified_at: unfilled placeholder <iso-date>",
            "$.environment: unfilled placeholder <sanitized-python-device>",
            "$.commands[1]: unfilled placeholder <learner-controlled-tradeoff-run>",
            "$.metrics[0].expected: unfilled placeholder <versioned-threshold>",
            "$.metrics[0].actual: unfilled placeholder <recorded-value>",
            "$.metrics[1].expected: unfilled placeholder <versioned-threshold>",
            "$.metrics[1].actual: unfilled placeholder <recorded-value>",
            "$.artifacts[0]: unfilled placeholder <learner-repo-relative-artifact-path>",
            "$.licenses[0].source: unfilled placeholder <source>",
            "$.licenses[0].version: unfilled placeholder <version>",
            "$.licenses[0].license: unfilled placeholder <license>",
            "$.licenses[0].attribution: unfilled placeholder <attribution>",
            "$.licenses[0].redistribution: unfilled placeholder <redistribution>",
            "$.known_failures[0]: unfilled placeholder <sanitized-failure-or-none>",
        ],
    ),
    Case(
        "one-placeholder-left",
        "sub.yaml",
        edit(f"  - {ARTIFACT}", "  - <learner-repo-relative-artifact-path>"),
        ["$.artifacts[0]: unfilled placeholder <learner-repo-relative-artifact-path>"],
    ),
    # -- the module and its metrics ------------------------------------------------------------
    Case(
        "unknown-module",
        "sub.yaml",
        edit(f"module: {MODULE_ID}", "module: 24-scaling-laws"),
        [f"$.module: unknown module '24-scaling-laws' (known: {MODULE_ID})"],
    ),
    Case(
        "unknown-metric",
        "sub.yaml",
        edit(f"name: {PARAMS}", "name: gpt2_small_parameters"),
        [
            f"$.metrics: metric '{PARAMS}' is missing; {PACK} requires it",
            f"$.metrics[1].name: unknown metric 'gpt2_small_parameters' for {PACK}",
        ],
    ),
    Case(
        "duplicate-metric",
        "sub.yaml",
        edit(f"name: {PARAMS}", f"name: {SUPPORT}"),
        [
            f"$.metrics: metric '{PARAMS}' is missing; {PACK} requires it",
            f"$.metrics[1].name: duplicate metric '{SUPPORT}' (also $.metrics[0])",
        ],
    ),
    Case(
        "expected-not-the-packs",
        "sub.yaml",
        edit("expected: 4701.20", "expected: 4701.0"),
        [f"$.metrics[0].expected: 4701.00 is not the claim pack's expectation {EXPECTS_SUPPORT}"],
    ),
    Case(
        "expected-reads-alike",  # two numbers that part are never shown as the same number
        "sub.yaml",
        edit("expected: 4701.20", "expected: 4701.2000001"),
        [
            "$.metrics[0].expected: 4701.2000001 is not the claim pack's expectation "
            f"4701.2 ± 0.005 ({PACK}, claim support.gpt2-vocab-1000-ctx)"
        ],
    ),
    Case(
        "expected-exact-off-by-one",
        "sub.yaml",
        edit("expected: 123532032", "expected: 123532033"),
        [
            "$.metrics[1].expected: 123,532,033 is not the claim pack's expectation "
            + EXPECTS_PARAMS
        ],
    ),
    Case(
        "actual-outside-tolerance",
        "sub.yaml",
        edit("actual: 4701.196560612873", "actual: 4701.21"),
        [f"$.metrics[0].actual: {SUPPORT}: 4701.21 is outside 4701.20 ± 0.005"],
    ),
    Case(
        "actual-exact-off-by-one",
        "sub.yaml",
        edit("actual: 123532032", "actual: 123532031"),
        [f"$.metrics[1].actual: {PARAMS}: 123,532,031 is outside = 123,532,032"],
    ),
    Case(
        "actual-yaml-nan",
        "sub.yaml",
        edit("actual: 4701.196560612873", "actual: .nan"),
        ["$.metrics[0].actual: NaN is not a finite number"],
    ),
    Case(
        "actual-yaml-inf",
        "sub.yaml",
        edit("actual: 123532032", "actual: .inf"),
        ["$.metrics[1].actual: inf is not a finite number"],
    ),
    Case(
        "actual-json-nan-token",
        "sub.json",
        as_json(setitem("metrics.0.actual", math.nan)),
        ["$.metrics[0].actual: NaN is not a finite number"],
    ),
    Case(
        "actual-json-nan-string",
        "sub.json",
        as_json(setitem("metrics.0.actual", "NaN")),
        ["$.metrics[0].actual: NaN or infinity never passes a claim"],
    ),
    Case(
        "no-metrics",
        "sub.json",
        as_json(setitem("metrics", [])),
        ["$.metrics: no metrics: evidence needs at least one measured value"],
    ),
    # -- commit, date, environment -------------------------------------------------------------
    Case(
        "commit-not-hex",
        "sub.yaml",
        edit(f"commit: {LEARNER_HEAD}", "commit: main"),
        ["$.commit: 'main' does not match '^[0-9a-f]{7,40}$'"],
    ),
    Case(
        "commit-of-another-repository",
        "sub.yaml",
        edit(f"commit: {LEARNER_HEAD}", f"commit: {PROJECT_HEAD}"),
        [f"$.commit: {PROJECT_HEAD} is not a commit in repo"],
    ),
    Case(
        "commit-a-short-prefix-of-nothing",
        "sub.yaml",
        edit(f"commit: {LEARNER_HEAD}", "commit: '0000000'"),
        ["$.commit: 0000000 is not a commit in repo"],
    ),
    Case(
        "commit-names-a-blob",
        "sub.yaml",
        edit(f"commit: {LEARNER_HEAD}", f"commit: {ARTIFACT_BLOB}"),
        [f"$.commit: {ARTIFACT_BLOB} is a blob in repo, not a commit"],
    ),
    Case(
        "commit-names-a-tree",
        "sub.yaml",
        edit(f"commit: {LEARNER_HEAD}", f"commit: {LEARNER_TREE[:12]}"),
        [f"$.commit: {LEARNER_TREE[:12]} is a tree in repo, not a commit"],
    ),
    Case(
        "verified-at-words",
        "sub.yaml",
        edit("verified_at: 2025-03-14", "verified_at: last tuesday"),
        [
            "$.verified_at: 'last tuesday' does not match '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]"
            "{2}:[0-9]{2}(:[0-9]{2}(\\\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$'",
            "$.verified_at: 'last tuesday' is not an ISO 8601 date or time",
        ],
    ),
    Case(
        "verified-at-month-13",
        "sub.yaml",
        edit("verified_at: 2025-03-14", "verified_at: 2026-13-01"),
        ["$.verified_at: '2026-13-01' is not an ISO 8601 date or time"],
    ),
    Case(
        "verified-at-february-30",
        "sub.yaml",
        edit("verified_at: 2025-03-14", "verified_at: 2025-02-30"),
        ["$.verified_at: '2025-02-30' is not an ISO 8601 date or time"],
    ),
    Case(
        "verified-at-future-date",
        "sub.yaml",
        edit("verified_at: 2025-03-14", "verified_at: 2999-01-01"),
        ["$.verified_at: 2999-01-01 is in the future"],
    ),
    Case(
        "verified-at-future-time",
        "sub.yaml",
        edit("verified_at: 2025-03-14", "verified_at: '2999-01-01T09:30:00Z'"),
        ["$.verified_at: 2999-01-01T09:30:00Z is in the future"],
    ),
    Case(
        "environment-home-path",
        "sub.yaml",
        edit(ENV, "environment: CPython 3.11.7 at /home/alice/venvs/llm/bin/python"),
        [
            "$.environment: 'CPython 3.11.7 at /home/alice/venvs/llm/bin/python' contains a path; "
            + SANITIZE
        ],
    ),
    Case(
        "environment-windows-path",
        "sub.yaml",
        edit(ENV, "environment: 'CPython 3.11.7 C:\\Users\\alice\\llm'"),
        [
            "$.environment: 'CPython 3.11.7 C:\\\\Users\\\\alice\\\\llm' contains a path; "
            + SANITIZE
        ],
    ),
    Case(
        "environment-email",
        "sub.yaml",
        edit(ENV, "environment: CPython 3.11.7 run by alice@example.org"),
        [
            "$.environment: 'CPython 3.11.7 run by alice@example.org' contains an e-mail "
            f"address; {SANITIZE}"
        ],
    ),
    Case(
        "environment-hostname-key",
        "sub.yaml",
        edit(ENV, "environment:\n  python: 3.11.7\n  hostname: gpu-box-07\n  numpy: 2.4.6"),
        ["$.environment.hostname: 'hostname' names a user, host or directory; leave it out"],
    ),
    Case(
        "environment-fqdn-host",
        "sub.yaml",
        edit(ENV, "environment: CPython 3.11.7 on gpu07.cs.example.edu"),
        [
            "$.environment: 'CPython 3.11.7 on gpu07.cs.example.edu' looks like a host name; "
            + SANITIZE
        ],
    ),
    Case(
        "environment-tilde-user",
        "sub.yaml",
        edit(ENV, "environment: CPython 3.11.7 in ~alice/.venv"),
        ["$.environment: 'CPython 3.11.7 in ~alice/.venv' contains a path; " + SANITIZE],
    ),
    Case(
        "environment-full-width-slashes",
        "sub.yaml",
        edit(ENV, "environment: CPython 3.11.7 at ／home／alice"),
        ["$.environment: 'CPython 3.11.7 at ／home／alice' contains a path; " + SANITIZE],
    ),
    Case(
        "environment-percent-encoded",
        "sub.yaml",
        edit(ENV, "environment: CPython 3.11.7 at %2Fhome%2Falice"),
        ["$.environment: 'CPython 3.11.7 at %2Fhome%2Falice' contains a path; " + SANITIZE],
    ),
    Case(
        "environment-ip-address",
        "sub.yaml",
        edit(ENV, "environment: CPython 3.11.7 at 10.0.0.12"),
        ["$.environment: 'CPython 3.11.7 at 10.0.0.12' looks like a host name; " + SANITIZE],
    ),
    Case(
        "environment-unc-path",
        "sub.yaml",
        edit(ENV, r"environment: 'CPython 3.11.7 from \\server\share\venv'"),
        [
            r"$.environment: 'CPython 3.11.7 from \\\\server\\share\\venv' contains a path; "
            + SANITIZE
        ],
    ),
    Case(
        "environment-local-host",
        "sub.yaml",
        edit(ENV, "environment: CPython 3.11.7 on alices-macbook.local"),
        [
            "$.environment: 'CPython 3.11.7 on alices-macbook.local' looks like a host name; "
            + SANITIZE
        ],
    ),
    # -- artifacts ---------------------------------------------------------------------------
    Case(
        "artifact-absolute",
        "sub.yaml",
        edit(f"  - {ARTIFACT}", "  - /etc/passwd"),
        [
            "$.artifacts[0]: '/etc/passwd' is absolute; artifacts are paths relative to the "
            "repository"
        ],
    ),
    Case(
        "artifact-dot-dot",
        "sub.yaml",
        edit(f"  - {ARTIFACT}", "  - results/../../outside.json"),
        ["$.artifacts[0]: 'results/../../outside.json' leaves the repository"],
    ),
    Case(
        "artifact-symlink-out",
        "sub.yaml",
        edit(f"  - {ARTIFACT}", "  - results/escape.json"),
        ["$.artifacts[0]: 'results/escape.json' is a symlink that points outside the repository"],
    ),
    Case(
        "artifact-missing",
        "sub.yaml",
        edit(f"  - {ARTIFACT}", "  - results/never-written.json"),
        ["$.artifacts[0]: 'results/never-written.json' does not exist in the repository"],
    ),
    Case(
        "artifact-dot",
        "sub.yaml",
        edit(f"  - {ARTIFACT}", "  - ."),
        ["$.artifacts[0]: '.' is not a file; artifacts are files the run wrote"],
    ),
    Case(
        "artifact-directory",
        "sub.yaml",
        edit(f"  - {ARTIFACT}", "  - results"),
        ["$.artifacts[0]: 'results' is not a file; artifacts are files the run wrote"],
    ),
    Case(
        "artifact-in-git",
        "sub.yaml",
        edit(f"  - {ARTIFACT}", "  - .git/config"),
        ["$.artifacts[0]: '.git/config' is inside .git, not an artifact"],
    ),
    Case(
        "artifact-empty",
        "sub.yaml",
        edit(f"  - {ARTIFACT}", "  - ''"),
        ["$.artifacts[0]: '' should be non-empty"],
    ),
    # -- parsing: only plain data, bounded -----------------------------------------------------
    Case(
        "yaml-duplicate-key",
        "sub.yaml",
        edit("seed: 0\n", "seed: 0\nseed: 1\n"),
        ["$: line 7: duplicate key 'seed' (first on line 6)"],
    ),
    Case(
        "yaml-python-tag",
        "sub.yaml",
        edit("seed: 0", "seed: !!python/object/apply:os.system ['touch pwned']"),
        ["$.seed: line 6: tag !!python/object/apply:os.system is not allowed (plain data only)"],
    ),
    Case(
        "yaml-alias-bomb",
        "sub.yaml",
        BILLION_LAUGHS,
        [f"$: line 1: anchor &a refused: {NO_ALIASES}"],
    ),
    Case(
        "yaml-syntax-error",
        "sub.yaml",
        edit("seed: 0", "seed: [0"),
        [
            "$: line 7: YAML syntax error (while parsing a flow sequence): "
            "did not find expected ',' or ']'"
        ],
    ),
    Case(
        "over-the-size-limit",
        "sub.yaml",
        OVERSIZED,
        [f"$: file is {SIZE:,} bytes; the limit is {MAX_SUBMISSION_BYTES:,}"],
    ),
    Case(
        "yaml-not-utf8",
        "sub.yaml",
        b"# r\xe9sum\xe9 of my run\n" + GOOD_YAML.encode(),
        ["$: line 1: not UTF-8 text (byte 3 is 0xe9)"],
    ),
    Case(
        "json-not-utf8",
        "sub.json",
        as_json().encode().replace(b"CPU only", b"CPU \xff"),
        [f"$: not UTF-8 text (byte {as_json().index('CPU only') + 4})"],
    ),
    Case(
        "json-duplicate-key",
        "sub.json",
        as_json().replace('"seed": 0,', '"seed": 0,\n  "seed": 7,'),
        ["$: duplicate key 'seed'"],
    ),
    Case(
        "top-level-list",
        "sub.yaml",
        "- schema: learn-llm.evidence.v1\n- module: 23-design-tradeoffs\n",
        [NOT_A_MAPPING + "a list"],
    ),
    Case(
        "json-top-level-string",
        "sub.json",
        '"learn-llm.evidence.v1"',
        [NOT_A_MAPPING + "a string"],
    ),
    Case("empty-yaml", "sub.yaml", "", [NOT_A_MAPPING + "nothing"]),
    Case("empty-json", "sub.json", "", ["$: line 1: not valid JSON: a value was expected"]),
    Case(
        "json-syntax-error",
        "sub.json",
        as_json().replace('"seed": 0,', '"seed": 0,,'),
        ["$: line 7: not valid JSON: a key in double quotes was expected"],
    ),
    # -- known killers: each once a hang or a traceback ---------------------------------------
    Case(
        "sorter-key-with-a-bracket",
        "sub.json",
        as_json(lambda d: d.update({"a]": 1, "[b": 2, "c[0]": 3, 'q"': 4}) or d.update(seed="x")),
        [
            "$: additional properties are not allowed ('a]', '[b', 'c[0]', 'q\"' were unexpected)",
            "$.seed: 'x' is not of type 'integer'",
        ],
    ),
    Case(
        "json-integer-of-5000-digits",
        "sub.json",
        as_json().replace('"seed": 0', '"seed": ' + "7" * 5000),
        ["$.seed: a number of 5,000 digits; the limit is 1,000"],
    ),
    Case(
        "json-integer-of-1001-digits",
        "sub.json",
        as_json().replace('"seed": 0', '"seed": ' + "7" * 1001),
        ["$.seed: a number of 1,001 digits; the limit is 1,000"],
    ),
    Case(
        "yaml-integer-of-5000-digits",
        "sub.yaml",
        edit("seed: 0", "seed: " + "7" * 5000),
        ["$.seed: line 6: an integer of 5,000 digits; the limit is 1,000"],
    ),
    Case(
        "expected-10-to-the-400",
        "sub.yaml",
        edit("expected: 123532032", "expected: 1" + "0" * 400),
        ["$.metrics[1].expected: 10^400.00 is not the claim pack's expectation " + EXPECTS_PARAMS],
    ),
    Case(
        "actual-10-to-the-400",
        "sub.json",
        as_json().replace('"actual": 123532032', '"actual": 1' + "0" * 400),
        [f"$.metrics[1].actual: {PARAMS}: 10^400.00 is outside = 123,532,032"],
    ),
    Case(
        "yaml-int-tag-on-words",
        "sub.yaml",
        edit("seed: 0", "seed: !!int abc"),
        ["$.seed: line 6: 'abc' is not a valid !!int"],
    ),
    Case(
        "yaml-float-tag-on-words",
        "sub.yaml",
        edit("gross_usd: 0", "gross_usd: !!float abc"),
        ["$.cost.gross_usd: line 20: 'abc' is not a valid !!float"],
    ),
    Case(
        "yaml-bool-tag-on-words",
        "sub.yaml",
        edit("seed: 0", "seed: !!bool abc"),
        ["$.seed: line 6: 'abc' is not a valid !!bool"],
    ),
    Case(
        "yaml-three-bad-tags-at-once",
        "sub.yaml",
        edit("seed: 0", "seed: !!int x").replace("gross_usd: 0", "gross_usd: !!float ''"),
        [
            "$.seed: line 6: 'x' is not a valid !!int",
            "$.cost.gross_usd: line 20: '' is not a valid !!float",
        ],
    ),
    Case(
        "json-lone-surrogate-in-a-key",
        "sub.json",
        as_json().replace('"seed": 0,', '"seed": 0,\n  "\\udc80": 1,'),
        ["$[\"\\udc80\"]: '\\udc80' is not Unicode text (a lone surrogate)"],
    ),
    Case(
        "json-lone-surrogate-in-a-value",
        "sub.json",
        as_json().replace('CPU only"', 'CPU \\ud800only"'),
        [
            "$.environment: 'CPython 3.11.7, NumPy 2.4.6, Linux x86_64, CPU \\ud800only' is not "
            "Unicode text (a lone surrogate)"
        ],
    ),
    Case(
        "yaml-merge-key",
        "sub.yaml",
        edit("cost:\n  gross_usd: 0\n", "cost:\n  <<: {gross_usd: 0}\n"),
        ["$.cost: line 20: tag !!merge is not allowed (plain data only)"],
    ),
    Case(
        "yaml-integer-key",
        "sub.yaml",
        GOOD_YAML + "1: one\n",
        [
            "$: line 30: key '1' is not a string (quote it)",
        ],
    ),
    Case(
        "yaml-alias-alone",
        "sub.yaml",
        edit("gross_usd: 0\n  credit_usd: 0", "gross_usd: &zero 0\n  credit_usd: *zero"),
        [f"$: line 20: anchor &zero refused: {NO_ALIASES}"],
    ),
    Case(
        "yaml-timestamp-stays-a-string",
        "sub.yaml",
        edit("verified_at: 2025-03-14", "verified_at: 2999-01-01 10:00:00"),
        ["$.verified_at: 2999-01-01 10:00:00 is in the future"],
    ),
    Case(
        "yaml-tab-indent",
        "sub.yaml",
        edit("  gross_usd: 0", "\tgross_usd: 0"),
        [
            "$: line 20: YAML syntax error: found character "
            "that cannot start any token (a tab? YAML indents with spaces only)"
        ],
    ),
    Case(
        "artifact-dangling-symlink",
        "sub.yaml",
        edit(f"  - {ARTIFACT}", "  - results/dangling.json"),
        ["$.artifacts[0]: 'results/dangling.json' does not exist in the repository"],
    ),
    Case(
        "artifact-symlink-to-itself",
        "sub.yaml",
        edit(f"  - {ARTIFACT}", "  - results/loop.json"),
        ["$.artifacts[0]: 'results/loop.json' does not exist in the repository"],
    ),
    Case(
        "artifact-a-fifo",
        "sub.yaml",
        edit(f"  - {ARTIFACT}", "  - results/pipe.json"),
        ["$.artifacts[0]: 'results/pipe.json' is not a regular file (a pipe, socket or device)"],
    ),
    Case(
        "environment-too-long",
        "sub.yaml",
        edit(ENV, "environment: " + "x" * 600),
        ["$.environment: 600 characters; a sanitized environment is at most 500"],
    ),
]


# -- fixtures -------------------------------------------------------------------------------------
@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path`` as the current directory, with the learner's repository ``repo/`` in it
    (a copy of the template: its commit is ``LEARNER_HEAD``), holding the artifact and some
    hostile neighbours: a symlink that leaves it, a dangling one, one to itself, a FIFO."""
    learner_repo(tmp_path, "repo")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def learner_repo(work: Path, name: str) -> Path:
    repo = work / name
    shutil.copytree(TEMPLATE_REPO, repo, symlinks=True)
    outside = work / "outside.json"
    if not outside.exists():
        outside.write_text("{}\n", encoding="utf-8")
    (repo / "results" / "escape.json").symlink_to(outside)
    (repo / "results" / "dangling.json").symlink_to(repo / "results" / "never-written.json")
    (repo / "results" / "loop.json").symlink_to("loop.json")
    os.mkfifo(repo / "results" / "pipe.json")
    return repo


def write(work: Path, case: Case) -> Path:
    path = work / case.file
    data = case.content.encode("utf-8") if isinstance(case.content, str) else case.content
    path.write_bytes(data)
    return path


def validate(cli: Callable[..., Any], *args: str) -> Any:
    return cli("validate", *args, "--claims", str(MODULE))


# -- the table ------------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_submission_gets_exactly_its_problems(cli, work, case):
    write(work, case)

    result = validate(cli, case.file, "--repo", "repo")

    k = len(case.problems)
    header = f"{case.file}: invalid ({k} problem{'s' if k != 1 else ''})"
    assert result.out.splitlines() == [header] + [f"  {p}" for p in case.problems]
    assert (result.code, result.err) == (1, "")


# Words that may stay as they are in Chinese output: formats, names and symbols, not English.
LATIN_IN_CHINESE = {
    "YAML", "JSON", "UTF", "NaN", "ISO", "NUL", "nonce", "git", "schema", "tag", "inf",
    "true", "false", "null", "commit", "blob", "tree", "repo", "CPU", "CPython", "NumPy",
    "Linux", "Unicode", "integer", "number", "string", "array", "object", "boolean",
}  # fmt: skip


# Parameters that hold a library's own words (libyaml's, json's, the OS's): shown inside a
# frame of either language, they are English in both.
LIBRARY_WORDS = {
    ("yaml.syntax", "what"),
    ("yaml.syntax_tab", "what"),
    ("yaml.syntax_context", "what"),
    ("yaml.syntax_context", "context"),
    ("sub.json_syntax", "message"),
    ("sub.schema.other", "message"),
    ("sub.read", "reason"),
    ("sub.git.os_error", "reason"),
}


def without_library_words(data: dict[str, Any]) -> dict[str, Any]:
    params = {}
    for name, value in data["params"].items():
        if isinstance(value, dict) and "code" in value:
            value = without_library_words(value)
        elif (data["code"], name) in LIBRARY_WORDS:
            value = "…"
        params[name] = value
    return {"code": data["code"], "params": params}


def leftover_english(message: str) -> list[str]:
    """Latin words of a Chinese message outside what every language shows as it is: quoted
    values, the file's own text, ids, numbers."""
    message = re.sub(r"'[^']*'|\"[^\"]*\"", " ", message)  # quoted values
    message = re.sub(r"(?:!!|[&*])\w+", " ", message)  # YAML tags, anchors and aliases
    message = re.sub(r"[\w.-]*[0-9_.\-/][\w.-]*", " ", message)  # ids, metric names, numbers
    words = re.findall(r"[A-Za-z]{2,}", message)
    return [w for w in words if w not in LATIN_IN_CHINESE and w not in GOOD_YAML]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_case_in_chinese_uses_chinese_words(cli, work, case):
    write(work, case)

    zh = validate(cli, case.file, "--repo", "repo", "--lang", "zh")
    en = validate(cli, case.file, "--repo", "repo", "--lang", "en")
    data = validate(cli, case.file, "--repo", "repo", "--lang", "zh", "--format", "json")

    zh_lines, en_lines = zh.out.splitlines(), en.out.splitlines()
    assert len(zh_lines) == len(en_lines) == len(case.problems) + 1
    assert zh_lines[0] == f"{case.file}：无效（{len(case.problems)} 个问题）"
    for zh_line, en_line in zip(zh_lines[1:], en_lines[1:], strict=True):
        assert zh_line.split(": ", 1)[0] == en_line.split(": ", 1)[0]  # the same JSON path
        assert zh_line != en_line
    (submission,) = json.loads(data.out)["submissions"]
    for problem in submission["problems"]:
        message = Msg.from_data(without_library_words(problem))
        assert message is not None
        text = catalog("zh").say(message)
        assert leftover_english(text) == [], text
    assert zh.code == en.code == 1


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_every_message_of_the_table_is_in_both_catalogues(cli, work, case):
    write(work, case)

    result = validate(cli, case.file, "--repo", "repo", "--format", "json")

    codes = set()

    def collect(message: dict[str, Any]) -> None:
        codes.add(message["code"])
        for value in message["params"].values():
            if isinstance(value, dict) and "code" in value:
                collect(value)

    (submission,) = json.loads(result.out)["submissions"]
    for problem in submission["problems"]:
        collect(problem)
    assert codes
    for lang in ("zh", "en"):
        assert codes <= set(catalog(lang).entries), (lang, codes - set(catalog(lang).entries))


def test_the_table_has_at_least_80_distinct_cases():
    assert len(CASES) >= 80
    assert len({c.id for c in CASES}) == len(CASES)
    assert len({(c.file, c.content) for c in CASES}) == len(CASES)


def test_the_submission_catalogue_is_complete_and_chinese():
    """Every key of this side exists in both languages, with the same fields, and the Chinese
    entries are Chinese."""
    zh, en = catalog("zh").entries, catalog("en").entries
    ours = [k for k in {*zh, *en} if k.startswith(("sub.", "yaml.", "validate.", "use."))]
    for key in ours:
        assert key in zh and key in en, key
        forms = [zh[key]] if isinstance(zh[key], str) else list(zh[key].values())
        en_forms = [en[key]] if isinstance(en[key], str) else list(en[key].values())
        fields = {frozenset(re.findall(r"\{(\w+)", f)) for f in forms + en_forms}
        assert len(fields) == 1, key
        for form in forms:
            text = re.sub(r"\{[^}]*\}", "", form)
            if key not in ("use.arguments",) and re.sub(r"[\W\d_]", "", text):
                assert re.search(r"[\u4e00-\u9fff]", text), (key, form)


# -- what passes ----------------------------------------------------------------------------------
@pytest.mark.parametrize("repo", ["repo", None], ids=["with-repo", "without-repo"])
def test_a_properly_filled_submission_is_valid(cli, work, repo):
    (work / "sub.yaml").write_text(GOOD_YAML, encoding="utf-8")

    result = validate(cli, "sub.yaml", *(["--repo", repo] if repo else []))

    assert (result.code, result.out, result.err) == (0, "sub.yaml: valid\n", "")


def test_the_same_submission_as_json_is_valid(cli, work):
    (work / "sub.json").write_text(as_json(), encoding="utf-8")

    result = validate(cli, "sub.json", "--repo", "repo")

    assert (result.code, result.out, result.err) == (0, "sub.json: valid\n", "")


@pytest.mark.parametrize("digits", [7, 12, 40])
def test_a_prefix_of_the_learners_commit_is_accepted(cli, work, digits):
    text = edit(f"commit: {LEARNER_HEAD}", f"commit: {LEARNER_HEAD[:digits]}")
    (work / "sub.yaml").write_text(text, encoding="utf-8")

    result = validate(cli, "sub.yaml", "--repo", "repo")

    assert (result.code, result.out) == (0, "sub.yaml: valid\n")


def test_a_commit_in_a_pack_is_found_and_a_foreign_one_is_not(cli, work):
    git(work / "repo", "gc", "-q", "--aggressive", "--prune=now")
    assert not list((work / "repo" / ".git" / "objects").glob("??/*"))  # all of it packed
    (work / "good.yaml").write_text(GOOD_YAML, encoding="utf-8")
    (work / "foreign.yaml").write_text(
        edit(f"commit: {LEARNER_HEAD}", f"commit: {PROJECT_HEAD}"), encoding="utf-8"
    )

    result = validate(cli, "good.yaml", "foreign.yaml", "--repo", "repo")

    assert result.out.splitlines() == [
        "good.yaml: valid",
        "foreign.yaml: invalid (1 problem)",
        f"  $.commit: {PROJECT_HEAD} is not a commit in repo",
        "2 submissions: 1 valid, 1 invalid",
    ]


def test_the_runners_own_evidence_is_valid(cli, tmp_path):
    """In a clone of this project (its evidence's commit is there, in packs)."""
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--no-local", str(ROOT), str(clone)],
        check=True,
        env=GIT_ENV,
        capture_output=True,
    )
    manifest = json.loads((ROOT / "evidence" / "module-manifest-v1.json").read_text("utf-8"))
    evidence = ROOT / manifest["modules"][MODULE_ID]["evidence"]

    result = validate(cli, str(evidence), "--repo", str(clone), "--course-evidence")

    assert result.code == 0, result.out + result.err
    assert result.out.endswith(": valid\n")
    assert result.err == ""


@pytest.mark.parametrize("kind", ["reference", "fault"])
def test_the_courses_own_evidence_is_not_a_learners_submission(cli, work, kind):
    """A copy of the course's reference evidence (or of a fault's) handed in as a learner's
    own is refused, with or without --repo and --challenge; a grader checking the course's
    evidence says so with --course-evidence."""
    manifest = json.loads((ROOT / "evidence" / "module-manifest-v1.json").read_text("utf-8"))
    evidence = json.loads((ROOT / manifest["modules"][MODULE_ID]["evidence"]).read_text("utf-8"))
    evidence["implementation"]["kind"] = kind
    (work / "ev.json").write_text(json.dumps(evidence), encoding="utf-8")

    refused = validate(cli, "ev.json")
    accepted = validate(cli, "ev.json", "--course-evidence")

    problem = (
        f"  $.implementation.kind: evidence of the course's own {kind} run, not a learner's "
        "work (a grader checking the course's evidence says so with --course-evidence)"
    )
    assert refused.code == 1 and problem in refused.out.splitlines()
    assert problem not in accepted.out.splitlines()


def test_a_version_specifier_is_not_a_home_directory(cli, work):
    path = work / "sub.yaml"
    path.write_text(edit(ENV, "environment: CPython 3.11.7, NumPy ~=2.4, Linux"), encoding="utf-8")

    result = validate(cli, "sub.yaml", "--repo", "repo")

    assert (result.code, result.out) == (0, "sub.yaml: valid\n")


def test_a_claim_the_runner_did_not_pass_is_a_problem(cli, work):
    manifest = json.loads((ROOT / "evidence" / "module-manifest-v1.json").read_text("utf-8"))
    evidence = json.loads((ROOT / manifest["modules"][MODULE_ID]["evidence"]).read_text("utf-8"))
    evidence["implementation"] = {"kind": "learner", "name": "my_impl.py", "sha256": "0" * 64}
    evidence["claims"][2]["status"] = "failed"
    evidence["claims"][3]["status"] = "error"
    evidence["claims"][3]["reason"] = {
        "code": "claim.learner_raised",
        "params": {
            "where": "my_impl.py:42",
            "function": "giant_mlp_parameter_log10",
            "error": "IndexError",
            "message": "out of range",
        },
    }
    (work / "ev.json").write_text(json.dumps(evidence), encoding="utf-8")
    ids = [evidence["claims"][i]["id"] for i in (2, 3)]

    result = validate(cli, "ev.json")

    assert result.out.splitlines()[1:] == [
        f"  $.claims[2].status: claim {ids[0]} FAILED",
        f"  $.claims[3].status: claim {ids[1]} ERROR: my_impl.py:42: "
        "giant_mlp_parameter_log10() raised IndexError: out of range",
    ]
    zh = validate(cli, "ev.json", "--lang", "zh")
    assert zh.out.splitlines()[1] == f"  $.claims[2].status: 断言 {ids[0]}：失败"


def test_a_figure_changed_in_a_passed_claim_is_a_problem_whatever_the_metrics_say(cli, work):
    """The runner's evidence records each figure twice: in its claim and in the metrics. A
    learner who changes a passed claim's figure by hand (the verdicts left as they were) is
    caught by the claim's own tolerance, and by the metric that no longer agrees."""
    manifest = json.loads((ROOT / "evidence" / "module-manifest-v1.json").read_text("utf-8"))
    evidence = json.loads((ROOT / manifest["modules"][MODULE_ID]["evidence"]).read_text("utf-8"))
    evidence["implementation"] = {"kind": "learner", "name": "my_impl.py", "sha256": "0" * 64}
    i, j = next(
        (i, j)
        for i, c in enumerate(evidence["claims"])
        for j, m in enumerate(c["measurements"])
        if c["status"] == "passed" and isinstance(m["actual"], float) and m["actual"] > 1
    )
    figure = evidence["claims"][i]["measurements"][j]
    name = figure["metric"]
    (work / "ev.json").write_text(json.dumps(evidence), encoding="utf-8")
    assert validate(cli, "ev.json").code == 0

    figure["actual"] *= 3
    (work / "ev.json").write_text(json.dumps(evidence), encoding="utf-8")
    differs = validate(cli, "ev.json")
    evidence["metrics"] = [m for m in evidence["metrics"] if m["name"] != name]
    (work / "ev.json").write_text(json.dumps(evidence), encoding="utf-8")
    outside = validate(cli, "ev.json")

    at = f"  $.claims[{i}].measurements[{j}].actual: {name}: "
    assert differs.code == 1
    assert any(line.startswith(at + "not the figure its metric reports") for line in
               differs.out.splitlines())  # fmt: skip
    assert outside.code == 1
    assert any(line.startswith(at) and " is outside " in line for line in outside.out.splitlines())


# -- safety ---------------------------------------------------------------------------------------
def test_a_python_tag_is_refused_and_never_executed(cli, work):
    marker = work / "pwned"
    text = edit("seed: 0", f"seed: !!python/object/apply:os.system ['touch {marker}']")
    (work / "sub.yaml").write_text(text, encoding="utf-8")

    result = validate(cli, "sub.yaml")

    assert result.code == 1
    assert "tag !!python/object/apply:os.system is not allowed" in result.out
    assert not marker.exists()


def test_an_alias_bomb_is_refused_before_it_is_expanded(cli, work):
    (work / "sub.yaml").write_text(BILLION_LAUGHS, encoding="utf-8")

    # CPU time, not wall time: a busy machine must not fail this. Expanding the bomb would
    # build 10**9 strings (minutes of CPU and gigabytes); refusing it costs the parse alone.
    start = time.process_time()
    result = validate(cli, "sub.yaml")
    spent = time.process_time() - start

    assert result.out.splitlines()[1:] == [f"  $: line 1: anchor &a refused: {NO_ALIASES}"]
    assert spent < 2.0, f"{spent:.2f} s of CPU"


def test_an_artifact_symlink_is_judged_without_opening_its_target(cli, work):
    """The symlink points at a FIFO outside the repository: opening it would block forever."""
    fifo = work / "fifo"
    os.mkfifo(fifo)
    (work / "repo" / "results" / "outside-pipe.json").symlink_to(fifo)
    (work / "sub.yaml").write_text(edit(ARTIFACT, "results/outside-pipe.json"), encoding="utf-8")

    result = validate(cli, "sub.yaml", "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        "  $.artifacts[0]: 'results/outside-pipe.json' is a symlink that points outside the "
        "repository"
    ]


def run_isolated(work: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m runner validate ARGS`` in a child process with a time limit, for inputs
    that once blocked or ate memory: a defect fails the test instead of hanging the run."""
    return subprocess.run(
        [sys.executable, "-m", "runner", "validate", *args, "--claims", str(MODULE)],
        cwd=work,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)},
        preexec_fn=_half_a_gigabyte,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _half_a_gigabyte() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (512 * 2**20, 512 * 2**20))


def test_a_submission_symlinked_to_proc_is_refused_and_never_read(work):
    """Its keys (Name:, State:, Pid: ...) would otherwise be echoed as YAML problems."""
    folder = work / "subs"
    folder.mkdir()
    (folder / "status.yaml").symlink_to("/proc/self/status")
    (folder / "good.yaml").write_text(GOOD_YAML, encoding="utf-8")

    done = run_isolated(work, "subs", "--repo", "repo")

    assert done.stdout.splitlines() == [
        "subs/good.yaml: valid",
        "subs/status.yaml: invalid (1 problem)",
        "  $: a symlink that leads outside subs/; not read",
        "2 submissions: 1 valid, 1 invalid",
    ]
    assert "Pid" not in done.stdout and "State" not in done.stdout
    assert (done.returncode, done.stderr) == (1, "")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_file_is_refused_without_reading_it(work):
    (work / "sub.yaml").symlink_to("/dev/zero")

    done = run_isolated(work, "sub.yaml")

    assert done.stdout.splitlines() == [
        "sub.yaml: invalid (1 problem)",
        "  $: a symlink that leads outside ./; not read",
    ]
    assert (done.returncode, done.stderr) == (1, "")


def test_a_fifo_and_a_device_in_the_folder_are_refused_without_blocking(work):
    folder = work / "subs"
    folder.mkdir()
    os.mkfifo(folder / "a-pipe.yaml")  # opened for reading, a FIFO waits for a writer
    (folder / "b-good.yaml").write_text(GOOD_YAML, encoding="utf-8")
    (folder / "c-zero.yaml").symlink_to("/dev/zero")

    done = run_isolated(work, "subs", "--repo", "repo", timeout=30)

    assert done.stdout.splitlines() == [
        "subs/a-pipe.yaml: invalid (1 problem)",
        "  $: not a regular file (a pipe, socket or device); not read",
        "subs/b-good.yaml: valid",
        "subs/c-zero.yaml: invalid (1 problem)",
        "  $: a symlink that leads outside subs/; not read",
        "3 submissions: 1 valid, 2 invalid",
    ]


def test_a_file_name_that_is_not_text_is_shown_escaped(work):
    folder = work / "subs"
    folder.mkdir()
    (folder / os.fsdecode(b"bad\xff\x1b[31m.yaml")).write_text("seed: 1\n", encoding="utf-8")

    done = run_isolated(work, "subs")

    assert done.stdout.splitlines()[0] == "subs/bad\\udcff\\x1b[31m.yaml: invalid (11 problems)"
    assert (done.returncode, done.stderr) == (1, "")


# -- many files, formats, processes ---------------------------------------------------------------
def mixed_folder(work: Path) -> Path:
    folder = work / "submissions"
    folder.mkdir()
    (folder / "alice.yaml").write_text(GOOD_YAML, encoding="utf-8")
    (folder / "bob.json").write_text(as_json(), encoding="utf-8")
    (folder / "carol.yml").write_text(edit("seed: 0", "seed: 1.5"), encoding="utf-8")
    (folder / "dave.yaml").write_text(chapter_template(), encoding="utf-8")
    (folder / "erin.json").write_text("[]", encoding="utf-8")
    (folder / "notes.txt").write_text("not a submission", encoding="utf-8")
    (folder / "module-manifest-v1.json").write_text("{}", encoding="utf-8")
    return folder


def test_a_folder_of_mixed_submissions_ends_with_the_summary(cli, work):
    mixed_folder(work)

    result = validate(cli, "submissions", "--repo", "repo")

    lines = result.out.splitlines()
    heads = [line for line in lines if not line.startswith("  ")]
    assert heads == [
        "submissions/alice.yaml: valid",
        "submissions/bob.json: valid",
        "submissions/carol.yml: invalid (1 problem)",
        "submissions/dave.yaml: invalid (15 problems)",
        "submissions/erin.json: invalid (1 problem)",
        "5 submissions: 2 valid, 3 invalid",
    ]
    assert lines[3] == "  $.seed: 1.5 is not of type 'integer'"
    assert (result.code, result.err) == (1, "")


def test_json_format_is_one_document_and_jsonl_a_line_per_file_then_the_summary(cli, work):
    mixed_folder(work)

    result = validate(cli, "submissions", "--repo", "repo", "--format", "json")
    stream = validate(cli, "submissions", "--repo", "repo", "--format", "jsonl")

    document = json.loads(result.out)  # json.load reads it: one document, not JSON Lines
    rows = document["submissions"]
    assert [(r["file"], r["valid"], len(r["problems"])) for r in rows] == [
        ("submissions/alice.yaml", True, 0),
        ("submissions/bob.json", True, 0),
        ("submissions/carol.yml", False, 1),
        ("submissions/dave.yaml", False, 15),
        ("submissions/erin.json", False, 1),
    ]
    assert rows[2]["problems"] == [
        {
            "path": "$.seed",
            "message": "1.5 is not of type 'integer'",
            "code": "sub.schema.type",
            "params": {"value": "1.5", "types": "'integer'"},
        }
    ]
    assert document["summary"] == {"files": 5, "valid": 2, "invalid": 3}
    assert result.code == stream.code == 1
    lines = [json.loads(line) for line in stream.out.splitlines()]
    assert lines == [*rows, {"summary": document["summary"]}]
    assert result.err == stream.err == ""  # five files: no progress, whatever the stream


def test_two_processes_give_the_same_reports_in_the_same_order(cli, work):
    folder = work / "table"
    folder.mkdir()
    for case in CASES:
        content = case.content.encode() if isinstance(case.content, str) else case.content
        (folder / f"{case.id}{Path(case.file).suffix}").write_bytes(content)
    (folder / "zz-good.yaml").write_text(GOOD_YAML, encoding="utf-8")

    one = validate(cli, "table", "--repo", "repo", "--jobs", "1")
    two = validate(cli, "table", "--repo", "repo", "--jobs", "2")

    total = len(CASES) + 1
    assert one.out.splitlines()[-1] == f"{total} submissions: 1 valid, {total - 1} invalid"
    assert two.out == one.out
    assert (two.code, two.err) == (one.code, one.err) == (1, "")


def test_a_thousand_jobs_for_three_files_start_at_most_three_workers(cli, work, monkeypatch):
    import concurrent.futures

    import runner.validate_many as many

    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor

    def counting(*args: Any, max_workers: int, **kwargs: Any) -> Any:
        started.append(max_workers)
        return real(*args, max_workers=max_workers, **kwargs)

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", counting)
    monkeypatch.setattr(many, "usable_cpus", lambda: 64)
    for name in ("a", "b", "c"):
        (work / f"{name}.yaml").write_text(GOOD_YAML, encoding="utf-8")

    result = validate(cli, "a.yaml", "b.yaml", "c.yaml", "--jobs", "1000")

    assert started == [3]
    assert result.out.splitlines()[-1] == "3 submissions: 3 valid, 0 invalid"


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["nothing.yaml"], "error: nothing.yaml: no such file or directory"),
        (["sub.yaml", "--repo", "nowhere"], "error: --repo nowhere: not a directory"),
        (
            ["sub.yaml", "--repo", "plain"],
            "error: --repo plain: not the root of a git repository (no .git in it)",
        ),
        (
            ["sub.yaml", "--repo", "repo/results"],
            "error: --repo repo/results: not the root of a git repository (no .git in it)",
        ),
        (["sub.yaml", "--jobs", "0"], "error: --jobs '0': give a whole number from 1 to 1,024"),
        (["sub.yaml", "--jobs", "-3"], "error: --jobs '-3': give a whole number from 1 to 1,024"),
        (
            ["sub.yaml", "--jobs", "99999999999999999999"],
            "error: --jobs '99999999999999999999': give a whole number from 1 to 1,024",
        ),
        (["sub.yaml", "--jobs", "two"], "error: --jobs 'two': give a whole number from 1 to 1,024"),
        (["plain"], "error: no *.yaml, *.yml or *.json files to validate"),
    ],
    ids=[
        "missing-path",
        "missing-repo",
        "repo-not-git",
        "repo-a-subfolder-of-a-checkout",
        "zero-jobs",
        "negative-jobs",
        "twenty-digit-jobs",
        "jobs-in-words",
        "no-submissions",
    ],
)
def test_misuse_exits_2_with_one_line(cli, work, args, error):
    (work / "sub.yaml").write_text(GOOD_YAML, encoding="utf-8")
    (work / "plain").mkdir()
    (work / "plain" / "notes.txt").write_text("", encoding="utf-8")

    result = validate(cli, *args)

    assert (result.code, result.out, result.err) == (2, "", error + "\n")


def test_misuse_is_said_in_chinese_too(cli, work):
    (work / "sub.yaml").write_text(GOOD_YAML, encoding="utf-8")

    result = validate(cli, "sub.yaml", "--jobs", "0", "--lang", "zh")

    assert (result.code, result.err) == (2, "错误：--jobs '0'：应为 1 到 1,024 的整数\n")


# -- order ----------------------------------------------------------------------------------------
def test_problems_are_sorted_by_their_place_in_the_file(cli, work):
    """Keys in an unusual order: problems follow the file, not the schema; the document's own
    problems (a missing or an unexpected key) come first."""
    text = f"""\
known_failures: [none]
artifacts: [/etc/passwd]
metrics:
  - name: {PARAMS}
    expected: 123532032
    actual: 1
  - name: {SUPPORT}
    expected: 4701.20
    actual: .nan
seed: zero
environment: CPython 3.11.7 at /home/alice/llm
verified_at: 2999-01-01
commands: [python run.py]
module: {MODULE_ID}
schema: learn-llm.evidence.v1
cost: {{gross_usd: -1, credit_usd: 0}}
licenses: []
tip: thanks
"""
    (work / "sub.yaml").write_text(text, encoding="utf-8")

    result = validate(cli, "sub.yaml", "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        "  $: 'commit' is a required property",
        "  $: additional properties are not allowed ('tip' was unexpected)",
        "  $.artifacts[0]: '/etc/passwd' is absolute; artifacts are paths relative to the "
        "repository",
        f"  $.metrics[0].actual: {PARAMS}: 1 is outside = 123,532,032",
        "  $.metrics[1].actual: NaN is not a finite number",
        "  $.seed: 'zero' is not of type 'integer'",
        f"  $.environment: 'CPython 3.11.7 at /home/alice/llm' contains a path; {SANITIZE}",
        "  $.verified_at: 2999-01-01 is in the future",
        "  $.cost.gross_usd: -1 is less than the minimum of 0",
        "  $.licenses: licenses lists nothing: the template's item is to be replaced by what "
        'this run has (an artifact it wrote, a licence it used, a known failure or "none")',
    ]


@pytest.mark.parametrize("key", ["a]", "[", "]", "a[0", 'x"]', "[0]", "\\", "a.b", "$"])
def test_keys_that_look_like_paths_are_sorted_quickly_in_both_syntaxes(cli, work, key):
    """The old sorter took written paths apart with a regex and looped for ever on these."""
    data = good_data()
    data["environment"] = {key: "/home/alice/x", "python": "3.11"}
    data["cost"] = {key: 1, "gross_usd": -1, "credit_usd": 0}
    (work / "sub.json").write_text(json.dumps(data), encoding="utf-8")
    (work / "sub.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")

    start = time.process_time()
    results = [validate(cli, f"sub.{suffix}", "--repo", "repo") for suffix in ("json", "yaml")]
    elapsed = time.process_time() - start

    quoted = json.dumps(key)
    for result in results:
        assert result.out.splitlines()[1:] == [
            f"  $.environment[{quoted}]: '/home/alice/x' contains a path; {SANITIZE}",
            f"  $.cost: additional properties are not allowed ({key!r} was unexpected)",
            "  $.cost.gross_usd: -1 is less than the minimum of 0",
        ]
    assert elapsed < 5, f"{elapsed:.1f} s"


# -- limits are problems --------------------------------------------------------------------------
def test_deep_nesting_is_a_problem_not_a_crash(cli, work):
    nested: Any = 4701.2
    for _ in range(400):
        nested = [nested]
    (work / "sub.json").write_text(as_json(setitem("metrics.0.actual", nested)), encoding="utf-8")

    result = validate(cli, "sub.json", "--repo", "repo")

    assert result.out.splitlines() == [
        "sub.json: invalid (1 problem)",
        "  $: nesting is too deep (more than 64 levels)",
    ]
    assert result.code == 1


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
def test_nesting_deeper_than_json_can_parse_is_a_problem(cli, work, suffix):
    (work / f"sub{suffix}").write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")

    result = validate(cli, f"sub{suffix}")

    assert result.code == 1
    assert len(result.out.splitlines()) == 2
    assert result.out.splitlines()[1].startswith("  $: ")


@pytest.mark.parametrize("suffix", [".yaml", ".json"])
@pytest.mark.parametrize(
    ("extra", "too_deep"), [(MAX_DEPTH - 3, False), (MAX_DEPTH - 2, True)], ids=["64", "65"]
)
def test_nesting_is_refused_beyond_the_limit_exactly(cli, work, suffix, extra, too_deep):
    # the document (1) holds metrics (2), whose entry (3) holds the nested lists (extra)
    nested: Any = 4701.2
    for _ in range(extra):
        nested = [nested]
    text = as_json(setitem("metrics.0.actual", nested))
    (work / f"sub{suffix}").write_text(text, encoding="utf-8")

    result = validate(cli, f"sub{suffix}", "--repo", "repo")

    said = "  $: nesting is too deep (more than 64 levels)" in result.out.splitlines()
    assert said is too_deep, result.out


@pytest.mark.parametrize(
    ("text", "anchor"),
    [("a: &a [*a]\n", "a"), ("schema: &s {inner: *s}\n", "s")],
    ids=["list-in-itself", "mapping-in-itself"],
)
def test_a_cyclic_alias_is_refused_as_an_anchor(cli, work, text, anchor):
    (work / "sub.yaml").write_text(text, encoding="utf-8")

    result = validate(cli, "sub.yaml")

    assert result.out.splitlines()[1:] == [f"  $: line 1: anchor &{anchor} refused: {NO_ALIASES}"]
    assert result.code == 1


def test_a_file_with_more_problems_than_the_limit_says_so(cli, work):
    data = good_data()
    data["known_failures"] = [f"<left-{i}>" for i in range(500)]
    (work / "sub.json").write_text(json.dumps(data), encoding="utf-8")

    result = validate(cli, "sub.json")

    lines = result.out.splitlines()
    assert lines[0] == f"sub.json: invalid ({MAX_PROBLEMS + 1} problems)"
    assert lines[1] == "  $.known_failures[0]: unfilled placeholder <left-0>"
    assert (
        lines[MAX_PROBLEMS]
        == f"  $.known_failures[{MAX_PROBLEMS - 1}]: unfilled placeholder <left-{MAX_PROBLEMS - 1}>"
    )
    assert lines[-1] == f"  $: … only the first {MAX_PROBLEMS} problems are shown"


def test_one_broken_file_in_a_batch_of_101_does_not_stop_the_others(cli, work):
    """Every file of the batch gets its verdict, and the batch its summary."""
    folder = work / "batch"
    folder.mkdir()
    killers = [
        ("a-bracket.json", as_json(lambda d: d.update({"a]": 1, "[": 2}))),
        ("b-digits.json", as_json().replace('"seed": 0', '"seed": ' + "9" * 5000)),
        ("c-digits.yaml", edit("seed: 0", "seed: " + "9" * 5000)),
        ("d-huge.yaml", edit("expected: 123532032", "expected: 1" + "0" * 400)),
        ("e-tags.yaml", edit("seed: 0", "seed: !!int abc")),
        ("f-surrogate.json", as_json().replace('"seed": 0,', '"seed": 0, "\\udc80": 1,')),
        ("g-deep.json", "[" * 50_000 + "]" * 50_000),
    ]
    for name, text in killers:
        (folder / name).write_text(text, encoding="utf-8")
    for i in range(101 - len(killers)):
        (folder / f"ok-{i:03d}.yaml").write_text(GOOD_YAML, encoding="utf-8")

    result = validate(cli, "batch", "--repo", "repo")

    heads = [line for line in result.out.splitlines() if not line.startswith("  ")]
    assert len(heads) == 102
    assert heads[-1] == "101 submissions: 94 valid, 7 invalid"
    assert (result.code, result.err) == (1, "")


# -- the learner's repository is read, never run or configured -------------------------------------
def submit(work: Path, commit: str, name: str = "sub.yaml") -> str:
    (work / name).write_text(edit(f"commit: {LEARNER_HEAD}", f"commit: {commit}"), "utf-8")
    return name


def project_objects() -> Path:
    common = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--git-common-dir"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    return (ROOT / common).resolve() / "objects"


@pytest.fixture
def no_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail a test that starts any process (git included) while it validates."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"a process was started: {args[:1]}")

    monkeypatch.setattr(subprocess, "Popen", refuse)


def test_the_repositorys_config_is_never_read(cli, work):
    """An include.path at a FIFO blocks git for ever; here it is never looked at."""
    fifo = work / "config-fifo"
    os.mkfifo(fifo)
    git(work / "repo", "config", "include.path", str(fifo))
    good, foreign = submit(work, LEARNER_HEAD, "good.yaml"), submit(work, PROJECT_HEAD, "f.yaml")

    done = run_isolated(work, good, foreign, "--repo", "repo", timeout=30)

    assert done.stdout.splitlines() == [
        "good.yaml: valid",
        "f.yaml: invalid (1 problem)",
        f"  $.commit: {PROJECT_HEAD} is not a commit in repo",
        "2 submissions: 1 valid, 1 invalid",
    ]


def test_no_process_is_started_to_check_a_commit(cli, work, no_processes):
    result = validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo")

    assert (result.code, result.out) == (0, "sub.yaml: valid\n")


def test_alternates_are_not_followed(cli, work):
    """git would find the foreign commit through objects/info/alternates; the learner's
    repository does not hold it."""
    info = work / "repo" / ".git" / "objects" / "info"
    info.mkdir(exist_ok=True)
    (info / "alternates").write_text(f"{project_objects()}\n", encoding="utf-8")
    assert git(work / "repo", "cat-file", "-t", PROJECT_HEAD) == "commit"  # git follows it

    result = validate(cli, submit(work, PROJECT_HEAD), "--repo", "repo")

    assert result.out.splitlines()[1:] == [f"  $.commit: {PROJECT_HEAD} is not a commit in repo"]


def test_a_git_file_that_leads_outside_is_not_followed(cli, work):
    elsewhere = work / "elsewhere"
    shutil.copytree(work / "repo" / ".git", elsewhere)
    shutil.rmtree(work / "repo" / ".git")
    (work / "repo" / ".git").write_text(f"gitdir: {elsewhere}\n", encoding="utf-8")

    result = validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        f"  $.commit: could not check {LEARNER_HEAD} in repo: .git leads outside the repository"
    ]


def test_a_git_file_inside_the_repository_is_followed(cli, work):
    shutil.move(work / "repo" / ".git", work / "repo" / "real-git")
    (work / "repo" / ".git").write_text("gitdir: real-git\n", encoding="utf-8")

    result = validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo")

    assert (result.code, result.out) == (0, "sub.yaml: valid\n")


def test_an_objects_folder_that_is_a_symlink_outside_is_not_followed(cli, work):
    objects = work / "repo" / ".git" / "objects"
    shutil.rmtree(objects)
    objects.symlink_to(project_objects())

    result = validate(cli, submit(work, PROJECT_HEAD), "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        f"  $.commit: could not check {PROJECT_HEAD} in repo: objects leads outside the repository"
    ]


def loose(repo: Path, sha: str) -> Path:
    return repo / ".git" / "objects" / sha[:2] / sha[2:]


def test_a_corrupt_loose_commit_could_not_be_checked(cli, work):
    path = loose(work / "repo", LEARNER_HEAD)
    path.chmod(0o644)
    path.write_bytes(b"x\x9c this is not zlib")

    result = validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        f"  $.commit: could not check {LEARNER_HEAD} in repo: its object database cannot be "
        "read (zlib.error)"
    ]


def test_a_forged_object_under_a_foreign_name_is_not_a_commit(cli, work):
    """The learner's own commit copied to where the foreign sha's object would be."""
    forged = loose(work / "repo", PROJECT_HEAD)
    forged.parent.mkdir(exist_ok=True)
    shutil.copy(loose(work / "repo", LEARNER_HEAD), forged)

    result = validate(cli, submit(work, PROJECT_HEAD), "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        f"  $.commit: could not check {PROJECT_HEAD} in repo: an object's contents do not "
        "match its name (corrupt or forged)"
    ]


def test_a_fifo_in_place_of_an_object_is_refused_without_blocking(work):
    path = loose(work / "repo", LEARNER_HEAD)
    path.unlink()
    os.mkfifo(path)

    done = run_isolated(work, submit(work, LEARNER_HEAD), "--repo", "repo", timeout=30)

    assert done.stdout.splitlines()[1:] == [
        f"  $.commit: could not check {LEARNER_HEAD} in repo: {LEARNER_HEAD[2:]} in .git is "
        "not a regular file"
    ]


def test_a_truncated_pack_could_not_be_checked(cli, work):
    git(work / "repo", "gc", "-q", "--prune=now")
    (pack,) = (work / "repo" / ".git" / "objects" / "pack").glob("*.pack")
    pack.chmod(0o644)
    pack.write_bytes(pack.read_bytes()[:40])

    result = validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        f"  $.commit: could not check {LEARNER_HEAD} in repo: its object database cannot be "
        "read (dulwich.errors.ChecksumMismatch)"
    ]


def test_an_ambiguous_prefix_is_a_problem(cli, work):
    """Blobs are written until two share their first four digits (seven would take millions),
    then those four digits are asked for."""
    from runner.submission.gitobjects import GitObjects

    repo = work / "repo"
    seen: dict[str, str] = {}
    i = 0
    while True:
        i += 1
        sha = subprocess.run(
            ["git", "-C", str(repo), "hash-object", "-w", "--stdin"],
            input=f"blob {i}\n",
            capture_output=True,
            text=True,
            check=True,
            env=GIT_ENV,
        ).stdout.strip()
        if sha[:4] in seen:
            break
        seen[sha[:4]] = sha
    objects = GitObjects(repo.resolve())

    found = objects.lookup(sha[:4])

    assert (found.kind, found.count) == ("ambiguous", 2)
    assert objects.lookup(sha).kind == "other"


# -- other outputs and options --------------------------------------------------------------------
def test_junit_xml_has_a_case_per_submission_with_its_problems(cli, work):
    import xml.etree.ElementTree as ET

    mixed_folder(work)

    result = validate(cli, "submissions", "--repo", "repo", "--junit-xml", "out/junit.xml")

    root = ET.parse(work / "out" / "junit.xml").getroot()
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert len(cases) == 5 and root.get("failures") == "3"
    failure = cases["submissions/carol.yml"].find("failure")
    assert failure is not None
    assert failure.get("message") == "submissions/carol.yml: invalid (1 problem)"
    assert failure.text == "$.seed: 1.5 is not of type 'integer'"
    assert cases["submissions/alice.yaml"].find("failure") is None
    assert result.code == 1


def test_an_unwritable_junit_path_is_one_line_not_a_traceback(cli, work):
    (work / "sub.yaml").write_text(GOOD_YAML, encoding="utf-8")
    (work / "a-file").write_text("", encoding="utf-8")

    result = validate(cli, "sub.yaml", "--junit-xml", "a-file/junit.xml")

    assert result.code == 2
    assert (
        result.err == "error: a-file/junit.xml: cannot write: a file is in the way (it exists)\n"
    )  # mkdir a-file


def test_a_challenge_wants_its_nonce_and_its_metrics(cli, work):
    (work / "sub.yaml").write_text(GOOD_YAML, encoding="utf-8")

    result = validate(cli, "sub.yaml", "--challenge", "class-2026")

    lines = result.out.splitlines()
    assert lines[1] == "  $.challenge: missing: this validation's nonce is 'class-2026'"
    assert lines[2].startswith("  $.metrics: challenge metric 'challenge.")
    assert result.code == 1


def test_a_bad_nonce_is_misuse(cli, work):
    (work / "sub.yaml").write_text(GOOD_YAML, encoding="utf-8")

    result = validate(cli, "sub.yaml", "--challenge", "x" * 201)

    assert (result.code, result.err) == (
        2,
        "error: a challenge nonce is 1 to 200 printable characters\n",
    )


def test_a_pack_whose_delta_names_itself_could_not_be_checked(work):
    """A delta based on its own offset would resolve for ever if the reader let it."""
    import hashlib
    import struct
    import zlib

    from dulwich.pack import write_pack_index_v2

    delta = b"\x05\x05\x05hello"  # base of 5 bytes, result of 5: insert "hello"
    entry = bytes([(6 << 4) | len(delta)]) + b"\x00" + zlib.compress(delta)  # OFS_DELTA, 0 back
    body = b"PACK" + struct.pack(">LL", 2, 1) + entry
    checksum = hashlib.sha1(body).digest()
    pack = work / "repo" / ".git" / "objects" / "pack"
    pack.mkdir(exist_ok=True)
    (pack / "pack-hostile.pack").write_bytes(body + checksum)
    forged = "abcdef0123456789abcdef0123456789abcdef01"
    with (pack / "pack-hostile.idx").open("wb") as fh:
        write_pack_index_v2(fh, [(bytes.fromhex(forged), 12, zlib.crc32(entry))], checksum)

    done = run_isolated(work, submit(work, forged), "--repo", "repo", timeout=30)

    assert done.stdout.splitlines()[1:] == [
        f"  $.commit: could not check {forged} in repo: an object in its database is malformed "
        "(delta-base-invalid)"
    ]
    assert (done.returncode, done.stderr) == (1, "")


def test_two_workers_read_packs_quietly(work):
    git(work / "repo", "gc", "-q", "--prune=now")
    folder = work / "subs"
    folder.mkdir()
    for i in range(6):
        (folder / f"s{i}.yaml").write_text(GOOD_YAML, encoding="utf-8")

    done = run_isolated(work, "subs", "--repo", "repo", "--jobs", "2")

    assert done.stdout.splitlines()[-1] == "6 submissions: 6 valid, 0 invalid"
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="chown needs root")
def test_a_repository_owned_by_another_user_is_read_all_the_same(cli, work):
    """git refuses such a repository ('dubious ownership') and the commit looked missing."""
    for path in [work / "repo", *(work / "repo").rglob("*")]:
        os.lchown(path, 12345, 12345)

    result = validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo")

    assert (result.code, result.out) == (0, "sub.yaml: valid\n")


# -- progress ---------------------------------------------------------------------------------
def large_batch(work: Path, n: int = 60) -> Path:
    folder = work / "batch"
    folder.mkdir()
    for i in range(n):
        (folder / f"s{i:02d}.yaml").write_text(GOOD_YAML, encoding="utf-8")
    return folder


def test_a_large_batch_as_one_json_document_shows_a_line_per_file_on_stderr(cli, work):
    """Not on a terminal and with nothing on stdout until the end: progress is a line per
    file on stderr as each is judged; --quiet silences it, and the output stays the same."""
    large_batch(work)

    loud = validate(cli, "batch", "--repo", "repo", "--format", "json", "--lang", "en")
    quiet = validate(cli, "batch", "--repo", "repo", "--format", "json", "--quiet")

    assert loud.code == quiet.code == 0
    assert loud.out == quiet.out and quiet.err == ""
    assert json.loads(loud.out)["summary"] == {"files": 60, "valid": 60, "invalid": 0}
    lines = loud.err.splitlines()
    assert lines == [f"[{i}/60] batch/s{i - 1:02d}.yaml: valid" for i in range(1, 61)]


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_a_large_batch_whose_output_streams_adds_no_progress_lines(cli, work, fmt):
    large_batch(work)

    result = validate(cli, "batch", "--repo", "repo", "--format", fmt)

    assert (result.code, result.err) == (0, "")
    assert len(result.out.splitlines()) == 61  # a line a file as judged, and the summary


@pytest.mark.parametrize(
    ("text", "a_path"),
    [
        ("CPython 3.11.7 at \\home\\alice\\.venv", True),  # Windows' path on the current drive
        ("CPython 3.11.7 at %5Chome%5Calice", True),
        ("CPython 3.11.7 at ＼ｈｏｍｅ＼ａｌｉｃｅ", True),  # full-width: NFKC makes it \home\alice
        ("venv home/alice/.venv", True),  # relative, named from where a home hangs
        ("CPython 3.11.7 in Users\\alice\\llm", True),
        ("CPython 3.11.7, NumPy 2.4.6, Linux x86_64, CPU only", False),  # the chapter's template
        ("docker linux/amd64, homebrew/python, OpenBLAS / MKL", False),
        ("CPython 3.11.7, user=alice", "sub.env_key"),  # the keys a mapping may not hold
        ("CPython 3.11.7; Host: lab-7; NumPy 2.4.6", "sub.env_key"),
        ("CPython 3.11.7 (login:bob)", "sub.env_key"),
        ("CPython 3.11.7, hostname = gpu01", "sub.env_key"),
        ("CPython 3.11.7, users: 1, superuser=no, localhost:8888", False),  # other words
        ("CPython 3.11.7, user-agent: curl", False),
        ("CPython 3.11.7, hostname=<redacted>", False),  # a placeholder names nobody
        # an attack round (2026-12-07): decoded four times, or written as HTML references
        ("CPython 3.11.7 at %2525252Fhome%2525252Falice", True),
        ("CPython 3.11.7 at &#47;home&#47;alice", True),
        ("CPython 3.11.7 at &sol;home&sol;alice", True),
        ("CPython 3.11.7 &amp; NumPy 2.4.6", False),  # an ampersand is no path
    ],
)
def test_a_home_folder_is_a_path_however_it_is_written(text, a_path):
    from runner.submission.context import Submission
    from runner.submission.provenance import environment

    found = list(environment(Submission({"environment": text}, {}, {}), None))  # type: ignore[arg-type]
    expected = [a_path] if isinstance(a_path, str) else ["sub.env_path"] if a_path else []
    assert [m.code for _, m in found] == expected, found


def test_the_template_write_a_pack_hands_out_is_yaml_whose_placeholders_are_each_named(
    cli, tmp_path
):
    """Handed out as write-a-pack.md printed it, a template stopped validate at "line 5:
    YAML syntax error" (an unquoted ``device: no path``), and, mended, split its artifacts
    at their commas so that the pieces were no longer seen as placeholders (a pack author,
    2026-12-07)."""
    doc = (ROOT / "docs" / "write-a-pack.md").read_text(encoding="utf-8")
    start = doc.index("```yaml\nschema: learn-llm.evidence.v1") + len("```yaml\n")
    template = doc[start : doc.index("```", start)]
    data = yaml.safe_load(template)
    placeholders = [v for v in _leaves(data) if isinstance(v, str) and v.startswith("<")]
    assert len(placeholders) == 14, placeholders  # each one whole, none cut at a comma
    (tmp_path / "template.yaml").write_text(template.replace("24-layernorm", MODULE_ID), "utf-8")
    result = cli("validate", str(tmp_path / "template.yaml"), "--claims", str(MODULE))
    assert result.code == 1 and "YAML" not in result.out, result.out
    named = [line for line in result.out.splitlines() if "placeholder" in line]
    assert len(named) >= 10, result.out


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in _leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in _leaves(v)]
    return [value]


def test_a_list_expectation_read_alike_keeps_its_brackets_on_both_sides(cli, work):
    """A list expectation that differs past the digits shown was written with every digit,
    and the learner's list read as one number beside the pack's list (a pack author,
    2026-12-07): both are lists in brackets."""
    expected = [0.0577080000001, 0.009618, 0.001342]
    metric = {"name": "sampling.ranking-ties.tie_below", "expected": expected}
    data = good_data()
    data["metrics"].append({**metric, "actual": [0.057708, 0.009618, 0.001342]})
    (work / "sub.json").write_text(json.dumps(data), encoding="utf-8")
    result = validate(cli, "sub.json", "--repo", "repo")
    (line,) = [x for x in result.out.splitlines() if ".expected:" in x]
    assert "expected: [0.0577080000001, 0.009618, 0.001342] is not the claim pack's" in line, line
