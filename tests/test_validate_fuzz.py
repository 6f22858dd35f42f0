"""``validate`` never crashes or hangs: whatever a file holds, it gets a report of problems.

Hypothesis writes arbitrary JSON-like values, mutations of the good submission (keys deleted
or replaced, metrics with every known name and random values), keys that look like paths,
huge numbers, explicit YAML tags with random values, and raw text and bytes to ``.yaml`` and
``.json`` files. Every example must be judged within ``TIME_BOUND`` seconds of CPU, and its report
must render in both languages and as JSON. Most examples go through one ``Validator`` (built
once, as the command line builds it) for speed; some go through the in-process command
line. python-jsonschema serves as an oracle for the schema verdicts of jsonschema-rs.
"""

from __future__ import annotations

import io
import json
import math
import shutil
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runner.cli import main
from runner.i18n import catalog
from runner.submission import Problem, Report, Validator
from runner.submission.metrics import shown_expected
from runner.submission.schema import evidence_schema
from runner.submission.schema import schema as schema_rule
from runner.validate_many import make_validator
from tests.conftest import MODULE
from tests.test_validate_submissions import (
    ARTIFACT,
    GOOD_YAML,
    MODULE_ID,
    TEMPLATE_REPO,
    good_data,
    setitem,
)

FUZZ = settings(
    max_examples=100,
    deadline=None,  # the bound below is checked by hand: a shared machine is noisy
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
TIME_BOUND = (
    3.0  # CPU seconds per example (load-independent); a well-formed one takes about a millisecond
)
WORDS = [catalog("zh"), catalog("en")]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A learner repository holding the good submission's commit and artifact, and a place
    for files."""
    root = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(TEMPLATE_REPO, root / "repo", symlinks=True)
    assert (root / "repo" / ARTIFACT).is_file()
    (root / "files").mkdir()
    return root


@pytest.fixture(scope="module")
def validator(folder: Path) -> Validator:
    return make_validator(MODULE, folder / "repo", None)


@pytest.fixture(scope="module")
def challenged(folder: Path) -> Validator:
    return make_validator(MODULE, folder / "repo", "fuzz-nonce")


# -- strategies -----------------------------------------------------------------------------------
TELLING_STRINGS = [
    "",
    "<unfilled>",
    "NaN",
    "Infinity",
    "-Infinity",
    "none",
    "../outside",
    "/etc/passwd",
    "~/x",
    "C:\\x",
    "results",
    ".",
    "a\0b",
    ARTIFACT,
    "alice@example.org",
    "box.local",
    "2025-03-14",
    "2026-13-01",
    "2999-01-01T00:00:00Z",
    "2025-03-14T10:00:00+0100",
    "deadbeef",
    MODULE_ID,
    "learn-llm.evidence.v1",
    "ValueError",
]
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.integers(min_value=10**300, max_value=10**420)  # beyond a float, within a report
    | st.floats()  # NaN and the infinities included
    | st.text(max_size=20)
    | st.sampled_from(TELLING_STRINGS)
)
# keys that look like the paths they are written into
PATH_LIKE_KEYS = ["a]", "[", "]", "a[0", 'x"]', "[0]", "\\", "$", "a.b", "", " ", "\n"]
keys = (
    st.text(max_size=10)
    | st.sampled_from(
        ["name", "expected", "actual", "raised", "message", "min", "max", "nonce", "hostname"]
    )
    | st.sampled_from(PATH_LIKE_KEYS)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=16,
)


def paths_of(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths_of(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += paths_of(item, (*path, i))
    return out


GOOD_PATHS = paths_of(good_data())


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    """The good submission with a few keys deleted or replaced by arbitrary values."""
    data = good_data()
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(GOOD_PATHS))
        parent: Any = data
        try:
            for part in path[:-1]:
                parent = parent[part]
            if draw(st.booleans()):
                del parent[path[-1]]
            else:
                parent[path[-1]] = draw(values)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed or replaced this path
    if draw(st.booleans()):
        data[draw(keys)] = draw(values)
    return data


@st.composite
def with_metrics(draw: st.DrawFn, validator: Validator, challenge: bool) -> dict[str, Any]:
    """The good submission whose metrics use the pack's names (every kind of expectation)
    with arbitrary values, so the judge meets lists, strings, raised errors and ranges."""
    known = validator.metrics[MODULE_ID]
    if challenge:
        known = {**known, **validator.challenge_metrics[MODULE_ID]}
    names = sorted(known)
    data = good_data()
    metrics = []
    for _ in range(draw(st.integers(0, 5))):
        name = draw(st.sampled_from(names))
        _, exp = known[name]
        metric: dict[str, Any] = {"name": name}
        metric["expected"] = draw(st.just(shown_expected(exp)) | values)
        metric["actual"] = draw(
            st.just(shown_expected(exp))
            | values
            | st.fixed_dictionaries({"raised": st.text(max_size=12), "message": st.text()})
            | st.lists(st.floats(), max_size=8)
        )
        metrics.append(metric)
    data["metrics"] = metrics
    if challenge and draw(st.booleans()):
        data["challenge"] = {"nonce": draw(st.just("fuzz-nonce") | st.text()), "inputs": {}}
    return data


def encode(data: Any, suffix: str) -> bytes:
    if suffix == ".json":  # ASCII: a lone surrogate is written as JSON writes it, \\udXXX
        return json.dumps(data).encode("utf-8")
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8")


YAML_ISH = st.text(
    alphabet=st.sampled_from(list("&*!|>:-?,[]{}#%@`'\"\n \t.ab01<>~\\")), max_size=60
)
JSON_ISH = st.text(alphabet=st.sampled_from(list('{}[]:,"\\ \n-+.eE0123456789NaIfinitytrulsnx')))


# -- checks ---------------------------------------------------------------------------------------
def check(validator: Validator, folder: Path, raw: bytes, suffix: str) -> Report:
    path = folder / "files" / f"sub{suffix}"
    path.write_bytes(raw)
    start = time.process_time()
    report = validator.validate_file(path)
    elapsed = time.process_time() - start
    assert elapsed < TIME_BOUND, f"{elapsed:.2f} s for {raw[:200]!r}"
    assert isinstance(report, Report)
    assert all(p.message.code != "sub.internal" for p in report.problems), report.problems
    for words in WORDS:
        report.headline(words).encode("utf-8")  # printable: no lone surrogate, no crash
        for problem in report.problems:
            assert isinstance(problem, Problem)
            assert problem.path.startswith("$")
            line = problem.render(words)
            line.encode("utf-8")
            assert "\n" not in line  # one line per problem
            assert not line.startswith(f"{problem.path}: {problem.message.code}")  # a known code
        json.dumps(report.as_json(words), ensure_ascii=False, allow_nan=False).encode("utf-8")
    assert len(report.problems) == len({(p.path, repr(p.message)) for p in report.problems})
    return report


suffixes = st.sampled_from([".yaml", ".json"])


@FUZZ
@given(data=values, suffix=suffixes)
def test_arbitrary_values_are_reported_not_raised(validator, folder, data, suffix):
    report = check(validator, folder, encode(data, suffix), suffix)
    assert not report.valid  # nothing arbitrary is a whole submission


@FUZZ
@given(data=mutated(), suffix=suffixes)
def test_a_mutated_good_submission_is_reported_not_raised(validator, folder, data, suffix):
    check(validator, folder, encode(data, suffix), suffix)


@FUZZ
@given(st.data(), suffixes, st.booleans())
def test_arbitrary_metrics_are_judged_not_raised(validator, challenged, folder, data, suffix, ch):
    which = challenged if ch else validator
    submission = data.draw(with_metrics(which, ch))
    check(which, folder, encode(submission, suffix), suffix)


@FUZZ
@given(text=st.text() | YAML_ISH, suffix=suffixes)
def test_raw_text_is_reported_not_raised(validator, folder, text, suffix):
    check(validator, folder, text.encode("utf-8"), suffix)


@FUZZ
@given(text=JSON_ISH)
def test_json_like_text_is_reported_not_raised(validator, folder, text):
    check(validator, folder, text.encode("utf-8"), ".json")


@FUZZ
@given(raw=st.binary(max_size=200), suffix=suffixes)
def test_raw_bytes_are_reported_not_raised(validator, folder, raw, suffix):
    check(validator, folder, raw, suffix)


@FUZZ
@given(cut=st.integers(0, len(GOOD_YAML)), junk=YAML_ISH)
def test_a_good_submission_with_junk_spliced_in_is_reported_not_raised(
    validator, folder, cut, junk
):
    check(validator, folder, (GOOD_YAML[:cut] + junk + GOOD_YAML[cut:]).encode("utf-8"), ".yaml")


@st.composite
def shared(draw: st.DrawFn) -> dict[str, Any]:
    """A value used in several places: yaml.safe_dump writes it once with an anchor and
    refers to it with aliases, so the parser's alias handling is exercised too."""
    data = draw(mutated())
    part = draw(values)
    for key in draw(st.lists(st.sampled_from(sorted(data)), min_size=2, max_size=4)):
        data[key] = part
    return data


@FUZZ
@given(data=shared())
def test_anchors_and_aliases_are_refused_not_raised(validator, folder, data):
    text = encode(data, ".yaml")
    report = check(validator, folder, text, ".yaml")
    if b"&id" in text:  # yaml.safe_dump names its anchors id001, ...
        (problem,) = report.problems
        assert problem.message.params["message"].code == "yaml.anchor"


TAGS = ["int", "float", "bool", "null", "str", "seq", "map", "binary", "timestamp", "set"]
TAGS += ["omap", "pairs", "merge", "python/none", "python/object/apply:os.system"]


@FUZZ
@given(
    tag=st.sampled_from(TAGS) | st.text(alphabet="abcxyz/:", min_size=1, max_size=8),
    value=YAML_ISH | st.sampled_from(["", "abc", "1_0", "0x", ".", "~", "[1]", "{a: 1}", "'1'"]),
    where=st.sampled_from(
        [
            ("seed: 0", "seed: "),
            ("gross_usd: 0", "gross_usd: "),
            ("  - none", "  - "),
            ("actual: 123532032", "actual: "),
            ("commit: ", "commit: "),
        ]
    ),
    bang=st.sampled_from(["!!", "!"]),
)
def test_explicit_tags_with_any_value_are_reported_not_raised(
    validator, folder, tag, value, where, bang
):
    old, prefix = where
    text = GOOD_YAML.replace(old, f"{prefix}{bang}{tag} {value}", 1)
    check(validator, folder, text.encode("utf-8"), ".yaml")


@FUZZ
@given(
    digits=st.integers(990, 6000),
    sign=st.sampled_from(["", "-"]),
    where=st.sampled_from(["seed", "cost.gross_usd", "metrics.1.actual", "metrics.0.expected"]),
    suffix=suffixes,
)
def test_integers_of_any_length_are_reported_not_raised(
    validator, folder, digits, sign, where, suffix
):
    data = good_data()
    setitem(where, 424242424242)(data)  # a stand-in, replaced in the text
    raw = encode(data, suffix).replace(b"424242424242", (sign + "9" * digits).encode())
    report = check(validator, folder, raw, suffix)
    assert report.valid is False if digits > 1000 else True


unicode_text = st.text(alphabet=st.characters(codec=None), max_size=8)  # surrogates included


@FUZZ
@given(
    key=unicode_text,
    value=unicode_text,
    where=st.sampled_from([(), ("environment",), ("cost",), ("metrics", 0)]),
)
def test_any_unicode_in_json_keys_and_values_is_reported_not_raised(
    validator, folder, key, value, where
):
    data = good_data()
    target: Any = data
    for part in where:
        target = target[part]
    if isinstance(target, dict):
        target[key] = value
    else:
        data["environment"] = value
    check(validator, folder, encode(data, ".json"), ".json")


finite_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10)
    | st.sampled_from(TELLING_STRINGS)
)
finite_values = st.recursive(
    finite_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3),
    max_leaves=12,
)


@st.composite
def finite_mutated(draw: st.DrawFn) -> dict[str, Any]:
    data = good_data()
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(GOOD_PATHS))
        parent: Any = data
        try:
            for part in path[:-1]:
                parent = parent[part]
            if isinstance(parent, dict) != isinstance(path[-1], str):
                continue  # an earlier change made a list a mapping: JSON keys are strings
            parent[path[-1]] = draw(finite_values)
        except (KeyError, IndexError, TypeError):
            continue
    return data


@FUZZ
@given(data=finite_values | finite_mutated())
def test_jsonschema_rs_agrees_with_python_jsonschema(validator, data):
    """The oracle: python-jsonschema's verdict on the same schema and data (NaN aside, which
    JSON cannot hold and jsonschema-rs reads as null)."""
    from runner.submission.context import Submission

    oracle = jsonschema.Draft202012Validator(evidence_schema())
    expected_valid = oracle.is_valid(data)
    if isinstance(data, dict):
        found = list(schema_rule(Submission(data), validator.context))
        assert (not found) == expected_valid, found
    else:
        assert not expected_valid  # a submission is a mapping; the validator says so itself


# -- the command line -----------------------------------------------------------------------------
def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@settings(FUZZ, max_examples=20)
@given(
    files=st.lists(
        st.tuples(mutated() | values, suffixes) | st.tuples(st.binary(max_size=100), suffixes),
        min_size=1,
        max_size=4,
    ),
    fmt=st.sampled_from(["text", "json", "jsonl"]),
)
def test_the_command_line_exits_0_or_1_without_a_traceback(folder, files, fmt):
    batch = folder / "batch"
    batch.mkdir(exist_ok=True)
    for old in batch.iterdir():
        old.unlink()
    for i, (content, suffix) in enumerate(files):
        raw = content if isinstance(content, bytes) else encode(content, suffix)
        (batch / f"{i}{suffix}").write_bytes(raw)

    code, out, err = run_cli(
        "validate", str(batch), "--repo", str(folder / "repo"), "--claims", str(MODULE),
        "--format", fmt,
    )  # fmt: skip

    assert code in (0, 1)
    assert "Traceback" not in err
    if fmt == "jsonl":
        rows = [json.loads(line) for line in out.splitlines()]
        assert rows[-1]["summary"]["files"] == len(files) == len(rows) - 1
        assert code == (0 if rows[-1]["summary"]["invalid"] == 0 else 1)
    if fmt == "json":
        document = json.loads(out)
        assert document["summary"]["files"] == len(files) == len(document["submissions"])
        assert code == (0 if document["summary"]["invalid"] == 0 else 1)


def test_the_good_submission_stays_valid_under_the_fuzzing_validator(validator, folder):
    """The fuzz tests above would pass vacuously if the validator rejected everything."""
    report = check(validator, folder, GOOD_YAML.encode("utf-8"), ".yaml")
    assert report.problems == []
    report = check(validator, folder, encode(good_data(), ".json"), ".json")
    assert report.problems == []
    assert math.isfinite(good_data()["metrics"][0]["actual"])
