"""safeyaml resolves tags and builds values in code of its own: the data must be exactly
what PyYAML's stock SafeLoader (libyaml's parser, with timestamps left as strings) builds."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from runner import safeyaml
from tests.conftest import CLAIMS, ROOT


class Reference(yaml.CSafeLoader):
    """PyYAML's own resolver and constructor; only the timestamp resolver is left out."""


Reference.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if not tag.endswith(":timestamp")]
    for first, resolvers in yaml.CSafeLoader.yaml_implicit_resolvers.items()
}


def safe_loader_data(text: str) -> Any:
    """What the stock SafeLoader (without timestamps, as safeyaml) constructs from ``text``."""
    loader = Reference(text)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def same(a: Any, b: Any) -> bool:
    """Equal, with NaN equal to NaN and types compared (1 == 1.0 == True in Python)."""
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


SCALARS = [
    "1_000", "0x1f", "0o17", "017", "+12", "-0", "1e3", "1.5e-3", ".inf", "-.Inf", ".nan",
    "~", "null", "Null", "", "true", "False", "yes", "on", "2026-11-30", "12:30:00", "1:20",
    "'quoted 1'", '"tab\\t"', "0b101", "190:20:30", "=", "a: b", "中文", "1.0", "-.5",
]  # fmt: skip


@pytest.mark.parametrize("scalar", SCALARS)
def test_scalars_as_safe_loader_builds_them(scalar: str) -> None:
    text = f"v: {scalar}\nl: [{scalar}]\n" if scalar not in ("=", "a: b") else f"v: '{scalar}'\n"
    try:
        expected = safe_loader_data(text)
    except yaml.YAMLError:
        with pytest.raises(safeyaml.YamlError):
            safeyaml.parse(text)
        return
    assert same(safeyaml.parse(text).data, expected)


def test_claim_files_and_committed_data_as_safe_loader_builds_them() -> None:
    files = sorted(CLAIMS.rglob("*.yaml")) + sorted((ROOT / "tests" / "data").rglob("*.yaml"))
    files += sorted((ROOT / "evidence").glob("*.json"))
    assert len(files) > 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert same(safeyaml.parse(text).data, safe_loader_data(text)), path


def test_an_alias_is_the_same_object_twice() -> None:
    data = safeyaml.parse("a: &x [1, {b: 2}]\nc: *x\n").data
    assert data == {"a": [1, {"b": 2}], "c": [1, {"b": 2}]}
    assert data["a"] is data["c"]


def test_an_unhashable_key_is_a_yaml_error_with_its_line() -> None:
    with pytest.raises(safeyaml.YamlError) as info:
        safeyaml.parse("ok: 1\n? [a, b]\n: 2\n")
    (problem,) = info.value.problems
    assert problem.line == 2
    assert "found unhashable key" in problem.message


# documents as YAML text: dumped plain data, block or flow style, some of it with anchors
plain = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(SCALARS),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(max_size=6) | st.integers(-5, 5) | st.booleans(), inner, max_size=4
        )
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(data=plain, flow=st.booleans(), share=st.booleans())
def test_any_dumped_document_is_built_as_safe_loader_builds_it(
    data: Any, flow: bool, share: bool
) -> None:
    # a value used twice makes the dumper write an anchor and an alias
    document = {"first": data, "again": data} if share else data
    text = yaml.safe_dump(document, default_flow_style=flow, allow_unicode=True)
    assert same(safeyaml.parse(text).data, safe_loader_data(text))


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("&*!|>:-?,[]{}#'\"\n .ab01~")), max_size=50))
def test_any_text_is_refused_or_built_as_safe_loader_builds_it(text: str) -> None:
    try:
        ours = safeyaml.parse(text)
    except safeyaml.YamlError:
        return  # refusing more than SafeLoader (tags, duplicate keys, …) is safeyaml's job
    assert same(ours.data, safe_loader_data(text))


@pytest.mark.parametrize(
    ("text", "duplicate"),
    [
        ("a: 1\na: 2\n", True),
        ("1: a\n1.0: b\n", True),  # one key once built: SafeLoader would keep only "b"
        ("1: a\ntrue: b\n", True),  # True == 1 in Python
        ("'false': a\nfalse: b\n", False),  # a string and a boolean: two keys
        ("'1': a\n1: b\n", False),
    ],
)
def test_a_duplicate_is_a_key_safe_loader_would_merge(text: str, duplicate: bool) -> None:
    if duplicate:
        with pytest.raises(safeyaml.YamlError, match="duplicate key"):
            safeyaml.parse(text)
    else:
        assert same(safeyaml.parse(text).data, safe_loader_data(text))
