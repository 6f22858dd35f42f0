"""The fast yes/no schema check must agree with jsonschema, the trusted oracle, always."""

from __future__ import annotations

import copy
import json
import math

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner.fastschema import UnsupportedSchema, compile_schema, equal
from runner.record import evidence_schema, inline_refs
from tests.conftest import ROOT

SCHEMA = evidence_schema()
FAST = compile_schema(SCHEMA)
ORACLE = jsonschema.Draft202012Validator(inline_refs(SCHEMA))


def committed_evidence() -> dict:
    manifest = json.loads((ROOT / "evidence" / "module-manifest-v1.json").read_text("utf-8"))
    path = ROOT / manifest["modules"]["23-design-tradeoffs"]["evidence"]
    return json.loads(path.read_text(encoding="utf-8"))


EVIDENCE = committed_evidence()
TEMPLATE = {
    "schema": "learn-llm.evidence.v1",
    "module": "23-design-tradeoffs",
    "commit": "0123abc",
    "verified_at": "2026-11-29",
    "environment": "CPython 3.11",
    "seed": 0,
    "commands": ["python -m runner run claims/"],
    "metrics": [{"name": "gpt2_small_parameter_total", "expected": 1, "actual": 1}],
    "artifacts": ["a.json"],
    "cost": {"gross_usd": 0, "credit_usd": 0},
    "licenses": [
        {"source": "s", "version": "v", "license": "l", "attribution": "a", "redistribution": "r"}
    ],
    "known_failures": ["none"],
}

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(["", "x", "close", "exact", "range", "raises", "passed", "NaN", "0123abc"])
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["kind", "abs", "min", "max", "error", "zh", "en", "name", "raised", "x"]
            ),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


def paths(doc, prefix=()):
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, (*prefix, i))


def mutate(doc, data):
    """Replace, delete or add one thing somewhere in ``doc``."""
    doc = copy.deepcopy(doc)
    all_paths = [p for p in paths(doc) if p]
    path = data.draw(st.sampled_from(all_paths))
    parent = doc
    for part in path[:-1]:
        parent = parent[part]
    action = data.draw(st.sampled_from(["replace", "delete", "add"]))
    if action == "replace":
        parent[path[-1]] = data.draw(values)
    elif action == "delete":
        del parent[path[-1]]
    elif isinstance(parent, dict):
        parent[data.draw(st.sampled_from(["extra", "kind", "error", "min", "zh"]))] = data.draw(
            values
        )
    else:
        parent.append(data.draw(values))
    return doc


def agree(doc) -> None:
    assert FAST(doc) == ORACLE.is_valid(doc), [e.message for e in ORACLE.iter_errors(doc)][:3]


def test_the_committed_evidence_and_the_template_are_valid():
    assert FAST(EVIDENCE) and ORACLE.is_valid(EVIDENCE)
    assert FAST(TEMPLATE) and ORACLE.is_valid(TEMPLATE)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_agrees_on_mutated_evidence(data):
    agree(mutate(EVIDENCE, data))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_agrees_on_mutated_submissions(data):
    doc = mutate(TEMPLATE, data)
    if data.draw(st.booleans()):
        doc = mutate(doc, data)
    agree(doc)


@settings(max_examples=200, deadline=None)
@given(values)
def test_agrees_on_arbitrary_values(value):
    agree(value)


@pytest.mark.parametrize(
    "tolerance",
    [
        {"kind": "exact"},
        {"kind": "exact", "abs": 1},
        {"kind": "close"},
        {"kind": "close", "abs": -1},
        {"kind": "close", "rel": [0.1, 0.2]},
        {"kind": "range", "min": 0},
        {"kind": "range", "error": "E"},
        {"kind": "raises"},
        {"kind": "raises", "error": "ValueError"},
        {"kind": "nope"},
        {"abs": 1},
    ],
)
def test_agrees_on_every_tolerance_shape(tolerance):
    doc = copy.deepcopy(EVIDENCE)
    doc["claims"][0]["measurements"][0]["tolerance"] = tolerance
    agree(doc)


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (1, 1.0, True),
        (True, 1, False),
        (False, 0, False),
        ([1, [2]], [1.0, [2.0]], True),
        ({"a": 1}, {"a": True}, False),
        ("1", 1, False),
        (math.inf, math.inf, True),
    ],
)
def test_equality_is_json_equality(a, b, same):
    assert equal(a, b) is same


def test_an_unknown_keyword_is_refused_not_ignored():
    with pytest.raises(UnsupportedSchema, match="patternProperties"):
        compile_schema({"type": "object", "patternProperties": {"^x": {"type": "string"}}})
    with pytest.raises(UnsupportedSchema, match="format"):
        compile_schema({"type": "string", "format": "date"})
