"""``validate``: a table of bad learner submissions, each with the exact problems it must get.

Every case starts from a properly filled copy of the chapter's learner template (``GOOD_YAML``
below, the template with every ``<...>`` filled) and breaks one thing. Each test runs the
command line in ``tmp_path`` (so the file is shown as ``sub.yaml``) against a small learner
repository there (``repo/``, holding the artifact the good submission names) and compares the
whole output: the header line and every ``path: message`` line, in the order of the file.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from runner.load import load_packs
from runner.submission import MAX_DEPTH, MAX_SUBMISSION_BYTES
from tests.conftest import MODULE, ROOT, SHARED

CHAPTER = SHARED / "spec" / "chapter-23-design-tradeoffs.zh.txt"
MODULE_ID = "23-design-tradeoffs"
HEAD = subprocess.run(
    ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
).stdout.strip()
ARTIFACT = "results/tradeoffs.json"
PACK = f"{MODULE_ID} v{load_packs([MODULE])[0].meta.version}"
SUPPORT = "support_log10_gpt2_vocab_1000_ctx"
PARAMS = "gpt2_small_parameter_total"

GOOD_YAML = f"""\
schema: learn-llm.evidence.v1
module: {MODULE_ID}
commit: {HEAD}
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


# A verbatim copy of the chapter's template, for checkouts without ../shared beside them;
# test_the_copied_template_is_the_chapters proves it is still the chapter's text.
TEMPLATE_COPY = ROOT / "tests" / "data" / "chapter-23-template.yaml"


def template_from_chapter() -> str:
    text = CHAPTER.read_text(encoding="utf-8")
    start = text.index("schema: learn-llm.evidence.v1")
    return text[start : text.index("下一步", start)].rstrip() + "\n"


def chapter_template() -> str:
    """The learner template exactly as the chapter prints it."""
    if CHAPTER.is_file():
        return template_from_chapter()
    return TEMPLATE_COPY.read_text(encoding="utf-8")


@pytest.mark.skipif(
    not CHAPTER.is_file(), reason="../shared (the chapter) is not beside this checkout"
)
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
    repo: str = "repo"  # the --repo passed ("git-repo": a `git init` repo with one commit)


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
        edit(f"commit: {HEAD}\n", ""),
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
        ["$: Additional properties are not allowed ('notes' was unexpected)"],
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
        [f"$.metrics[1].name: unknown metric 'gpt2_small_parameters' for {PACK}"],
    ),
    Case(
        "duplicate-metric",
        "sub.yaml",
        edit(f"name: {PARAMS}", f"name: {SUPPORT}"),
        [f"$.metrics[1].name: duplicate metric '{SUPPORT}' (also $.metrics[0])"],
    ),
    Case(
        "expected-not-the-packs",
        "sub.yaml",
        edit("expected: 4701.20", "expected: 4701.0"),
        [f"$.metrics[0].expected: 4701.00 is not the claim pack's expectation {EXPECTS_SUPPORT}"],
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
        ["$.metrics[0].actual: 4701.21 is outside 4701.20 ± 0.005"],
    ),
    Case(
        "actual-exact-off-by-one",
        "sub.yaml",
        edit("actual: 123532032", "actual: 123532031"),
        ["$.metrics[1].actual: 123,532,031 is outside = 123,532,032"],
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
        edit(f"commit: {HEAD}", "commit: main"),
        ["$.commit: 'main' does not match '^[0-9a-f]{7,40}$'"],
    ),
    Case(
        "commit-not-in-the-repo",
        "sub.yaml",
        GOOD_YAML,  # the project's HEAD, judged in a learner repository that lacks it
        [f"$.commit: {HEAD} is not a commit in git-repo"],
        repo="git-repo",
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
        ["$: the document expands to more than 100,000 values (aliases?)"],
    ),
    Case(
        "yaml-syntax-error",
        "sub.yaml",
        edit("seed: 0", "seed: [0"),
        [
            "$: line 7: YAML syntax error: while parsing a flow sequence "
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
    Case("empty-json", "sub.json", "", ["$: line 1: not valid JSON: Expecting value"]),
    Case(
        "json-syntax-error",
        "sub.json",
        as_json().replace('"seed": 0,', '"seed": 0,,'),
        ["$: line 7: not valid JSON: Expecting property name enclosed in double quotes"],
    ),
]


# -- fixtures -------------------------------------------------------------------------------------
def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        [
            "git",
            "-C",
            str(repo),
            "-c",
            "user.name=Learner",
            "-c",
            "user.email=learner@example.invalid",
            "-c",
            "commit.gpgsign=false",
            *args,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tmp_path`` as the current directory, with a learner repository ``repo/`` in it: a
    plain folder holding the artifact and a symlink that leaves it."""
    learner_repo(tmp_path, "repo")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def learner_repo(work: Path, name: str) -> Path:
    repo = work / name
    (repo / "results").mkdir(parents=True)
    (repo / ARTIFACT).write_text('{"ok": true}\n', encoding="utf-8")
    outside = work / "outside.json"
    if not outside.exists():
        outside.write_text("{}\n", encoding="utf-8")
    (repo / "results" / "escape.json").symlink_to(outside)
    return repo


def git_repo(work: Path) -> Path:
    """``git-repo/``: the same files in a `git init` repository with one commit (not the
    project's)."""
    repo = learner_repo(work, "git-repo")
    git(repo, "init", "-q")
    git(repo, "add", ARTIFACT)
    git(repo, "commit", "-q", "-m", "results")
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
    if case.repo == "git-repo":
        git_repo(work)

    result = validate(cli, case.file, "--repo", case.repo)

    k = len(case.problems)
    header = f"{case.file}: invalid ({k} problem{'s' if k != 1 else ''})"
    assert result.out.splitlines() == [header] + [f"  {p}" for p in case.problems]
    assert (result.code, result.err) == (1, "")


def test_the_table_has_at_least_40_distinct_cases():
    assert len(CASES) >= 40
    assert len({c.id for c in CASES}) == len(CASES)
    assert len({(c.file, c.content, c.repo) for c in CASES}) == len(CASES)


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


def test_a_commit_of_the_learners_own_repository_is_accepted(cli, work):
    own = git(git_repo(work), "rev-parse", "HEAD")
    (work / "sub.yaml").write_text(edit(f"commit: {HEAD}", f"commit: {own}"), encoding="utf-8")

    result = validate(cli, "sub.yaml", "--repo", "git-repo")

    assert (result.code, result.out) == (0, "sub.yaml: valid\n")


def test_the_runners_own_evidence_is_valid(cli):
    manifest = json.loads((ROOT / "evidence" / "module-manifest-v1.json").read_text("utf-8"))
    evidence = ROOT / manifest["modules"][MODULE_ID]["evidence"]

    result = validate(cli, str(evidence), "--repo", str(ROOT))

    assert result.code == 0, result.out + result.err
    assert result.out.endswith(": valid\n")
    assert result.err == ""


# -- safety ---------------------------------------------------------------------------------------
def test_a_python_tag_is_refused_and_never_executed(cli, work):
    marker = work / "pwned"
    text = edit("seed: 0", f"seed: !!python/object/apply:os.system ['touch {marker}']")
    (work / "sub.yaml").write_text(text, encoding="utf-8")

    result = validate(cli, "sub.yaml")

    assert result.code == 1
    assert "tag !!python/object/apply:os.system is not allowed" in result.out
    assert not marker.exists()


def test_an_alias_bomb_is_refused_in_well_under_a_second(cli, work):
    (work / "sub.yaml").write_text(BILLION_LAUGHS, encoding="utf-8")

    start = time.perf_counter()
    result = validate(cli, "sub.yaml")
    elapsed = time.perf_counter() - start

    assert result.code == 1
    assert "expands to more than 100,000 values" in result.out
    assert elapsed < 1.0, f"{elapsed:.2f} s"


def test_an_artifact_symlink_is_judged_without_opening_its_target(cli, work):
    """The symlink points at a FIFO outside the repository: opening it would block forever."""
    fifo = work / "fifo"
    os.mkfifo(fifo)
    (work / "repo" / "results" / "pipe.json").symlink_to(fifo)
    (work / "sub.yaml").write_text(edit(ARTIFACT, "results/pipe.json"), encoding="utf-8")

    result = validate(cli, "sub.yaml", "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        "  $.artifacts[0]: 'results/pipe.json' is a symlink that points outside the repository"
    ]


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


def test_json_format_is_one_object_per_file_then_the_summary(cli, work):
    mixed_folder(work)

    result = validate(cli, "submissions", "--repo", "repo", "--format", "json")

    rows = [json.loads(line) for line in result.out.splitlines()]
    assert [(r["file"], r["valid"], len(r["problems"])) for r in rows[:-1]] == [
        ("submissions/alice.yaml", True, 0),
        ("submissions/bob.json", True, 0),
        ("submissions/carol.yml", False, 1),
        ("submissions/dave.yaml", False, 15),
        ("submissions/erin.json", False, 1),
    ]
    assert rows[2]["problems"] == [{"path": "$.seed", "message": "1.5 is not of type 'integer'"}]
    assert rows[-1] == {"summary": {"files": 5, "valid": 2, "invalid": 3}}
    assert result.code == 1


def test_two_processes_give_the_same_reports_in_the_same_order(cli, work):
    folder = work / "table"
    folder.mkdir()
    for case in CASES:
        content = case.content.encode() if isinstance(case.content, str) else case.content
        (folder / f"{case.id}{Path(case.file).suffix}").write_bytes(content)
    (folder / "zz-good.yaml").write_text(GOOD_YAML, encoding="utf-8")

    one = validate(cli, "table", "--repo", "repo", "--jobs", "1")
    two = validate(cli, "table", "--repo", "repo", "--jobs", "2")

    valid = 1 + sum(c.repo != "repo" for c in CASES)  # the commit is not checked in repo/
    total = len(CASES) + 1
    summary = f"{total} submissions: {valid} valid, {total - valid} invalid"
    assert one.out.splitlines()[-1] == summary
    assert two.out == one.out
    assert (two.code, two.err) == (one.code, one.err) == (1, "")


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (["nothing.yaml"], "error: nothing.yaml: no such file or directory"),
        (["sub.yaml", "--repo", "nowhere"], "error: --repo nowhere: not a directory"),
        (["sub.yaml", "--jobs", "0"], "error: --jobs needs a number >= 1"),
        (["repo"], "error: no *.yaml, *.yml or *.json files to validate"),
    ],
    ids=["missing-path", "missing-repo", "zero-jobs", "no-submissions"],
)
def test_misuse_exits_2(cli, work, args, error):
    (work / "sub.yaml").write_text(GOOD_YAML, encoding="utf-8")

    result = validate(cli, *args)

    assert (result.code, result.out, result.err) == (2, "", error + "\n")


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
        "  $: Additional properties are not allowed ('tip' was unexpected)",
        "  $.artifacts[0]: '/etc/passwd' is absolute; artifacts are paths relative to the "
        "repository",
        "  $.metrics[0].actual: 1 is outside = 123,532,032",
        "  $.metrics[1].actual: NaN is not a finite number",
        "  $.seed: 'zero' is not of type 'integer'",
        f"  $.environment: 'CPython 3.11.7 at /home/alice/llm' contains a path; {SANITIZE}",
        "  $.verified_at: 2999-01-01 is in the future",
        "  $.cost.gross_usd: -1 is less than the minimum of 0",
    ]


# -- known defects --------------------------------------------------------------------------------
class Crashed(Exception):
    """``validate`` raised instead of reporting a problem."""


def validate_or_crash(cli: Callable[..., Any], *args: str) -> Any:
    """``validate``, with a RecursionError turned into a short ``Crashed`` (pytest would spend
    many seconds rendering the thousand frames of the original)."""
    try:
        return validate(cli, *args)
    except RecursionError as exc:
        raise Crashed(f"RecursionError: {exc}") from None


def test_a_number_written_as_a_string_is_shown_as_a_string(cli, work):
    text = edit("expected: 4701.20", "expected: '4701.20'")
    text = text.replace("actual: 123532032", "actual: '123532032'")
    (work / "sub.yaml").write_text(text, encoding="utf-8")

    result = validate(cli, "sub.yaml", "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        "  $.metrics[0].expected: '4701.20' is not the claim pack's expectation " + EXPECTS_SUPPORT,
        "  $.metrics[1].actual: '123532032' is outside = 123,532,032",
    ]


def test_deep_nesting_is_a_problem_not_a_crash(cli, work):
    nested: Any = 4701.2
    for _ in range(400):
        nested = [nested]
    (work / "sub.json").write_text(as_json(setitem("metrics.0.actual", nested)), encoding="utf-8")

    result = validate_or_crash(cli, "sub.json", "--repo", "repo")

    assert result.out.splitlines() == ["sub.json: invalid (1 problem)", "  $: nesting is too deep"]
    assert result.code == 1


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

    result = validate_or_crash(cli, f"sub{suffix}", "--repo", "repo")

    assert ("  $: nesting is too deep" in result.out.splitlines()) is too_deep, result.out


@pytest.mark.parametrize(("inner", "too_deep"), [(20, False), (40, True)])
def test_nesting_through_an_alias_counts_as_it_expands(cli, work, inner, too_deep):
    # 30 levels of lists under "a", used again `inner` levels down under "b": the text nests
    # 1 + inner levels there, the data 1 + inner + 30 (the limit is 64)
    text = GOOD_YAML + f"a: &x {'[' * 30}1{']' * 30}\nb: {'[' * inner}*x{']' * inner}\n"
    (work / "sub.yaml").write_text(text, encoding="utf-8")

    result = validate_or_crash(cli, "sub.yaml", "--repo", "repo")

    assert ("  $: nesting is too deep" in result.out.splitlines()) is too_deep, result.out


@pytest.mark.parametrize(
    "text",
    ["a: &a [*a]\n", "schema: &s {inner: *s}\n"],
    ids=["list-in-itself", "mapping-in-itself"],
)
def test_a_cyclic_alias_is_a_problem_not_a_crash(cli, work, text):
    (work / "sub.yaml").write_text(text, encoding="utf-8")

    result = validate_or_crash(cli, "sub.yaml")

    lines = result.out.splitlines()
    assert lines[0] == "sub.yaml: invalid (1 problem)"
    assert lines[1].startswith("  $: ")
    assert result.code == 1


def _half_a_gigabyte() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (512 * 2**20, 512 * 2**20))


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_file_is_refused_without_reading_it_all(work):
    """Run in a child process limited to 512 MiB, so the defect fails fast instead of eating
    the machine's memory."""
    (work / "sub.yaml").symlink_to("/dev/zero")

    done = subprocess.run(
        [sys.executable, "-m", "runner", "validate", "sub.yaml", "--claims", str(MODULE)],
        cwd=work,
        env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT)},
        preexec_fn=_half_a_gigabyte,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert "Traceback" not in done.stderr
    assert done.stdout.splitlines()[0] == "sub.yaml: invalid (1 problem)"
    assert done.returncode == 1
