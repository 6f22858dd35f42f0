"""safeyaml is libyaml's SafeLoader with a policy: whatever it accepts must be exactly what the
stock SafeLoader (timestamps left as strings) builds, and whatever the policy refuses is a
problem with its line and path, as a message both catalogues can say, never an exception."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from runner import safeyaml
from runner.i18n import LANGS, catalog
from tests.conftest import CLAIMS, EVIDENCE_NAME, ROOT


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
    # evidence: the module's current version and the manifest (the older versions are the
    # same writer's output, 500 kB each, and two YAML parsers in pure Python took seconds
    # over them)
    files += [ROOT / "evidence" / EVIDENCE_NAME, *(ROOT / "evidence").glob("module-manifest-*")]
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
    assert problem.message.code == "yaml.syntax_context"
    assert "found unhashable key" in problem.message.params["what"]


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
        assert [(p.line, p.message.code) for p in problems_of(text)] == [(2, "yaml.duplicate_key")]
    else:
        assert same(safeyaml.parse(text).data, safe_loader_data(text))


def test_a_duplicate_met_through_aliases_is_said_at_its_mapping():
    """Two keys that are one alias: the duplicate is the inner mapping's, not the anchor's
    (a key's node is where its anchor was first met)."""
    (problem,) = problems_of("{&k a : 1, z: {*k : 2, *k : 3}}")
    assert (problem.message.code, problem.path) == ("yaml.duplicate_key", ("z",))


@pytest.mark.parametrize(
    "text",
    ["a: &x !!int abc\nb: *x\nc: *x\n", "a: &x !!int abc\n*x : 1\nb: *x\n"],
)
def test_a_refused_scalar_met_through_aliases_is_said_once(text):
    """A node is built once however many aliases name it, as a value or as a key, and its
    problem said once, as SafeLoader builds it once."""
    codes = [p.message.code for p in problems_of(text)]
    assert codes.count("yaml.bad_value") == 1, codes


# -- the policy ---------------------------------------------------------------------------------
def problems_of(text: str | bytes, **options: Any) -> list[safeyaml.Problem]:
    with pytest.raises(safeyaml.YamlError) as info:
        safeyaml.parse(text, **options)
    for problem in info.value.problems:
        for lang in LANGS:
            catalog(lang).say(problem.message)  # every language can say it
    return info.value.problems


def shape(problems: list[safeyaml.Problem]) -> list[tuple[Any, ...]]:
    return [(p.line, p.path, p.message.code, dict(p.message.params)) for p in problems]


@pytest.mark.parametrize(
    ("value", "tag"),
    [("!!int abc", "!!int"), ("!!float abc", "!!float"), ("!!bool maybe", "!!bool"),
     ("!!float ''", "!!float"), ("!!int ''", "!!int"), ("!!str [1]", "!!str"),
     ("!!seq abc", "!!seq"), ("!!map abc", "!!map")],
)  # fmt: skip
def test_an_explicit_tag_with_a_bad_value_is_a_problem_not_an_exception(value, tag):
    (problem,) = problems_of(f"a: 1\nb:\n  c: {value}\n")
    assert (problem.line, problem.path, problem.message.code) == (3, ("b", "c"), "yaml.bad_value")
    assert problem.message.params["tag"] == tag


@pytest.mark.parametrize(
    "value", ["!!binary aGk=", "!!timestamp 2025-01-01", "!!set {a}", "!!python/none ''", "!x 1"]
)
def test_a_tag_that_is_not_plain_data_is_refused(value):
    (problem,) = problems_of(f"k: {value}\n")
    assert (problem.line, problem.path, problem.message.code) == (1, ("k",), "yaml.tag")


def test_a_merge_key_is_refused_not_merged():
    (problem,) = problems_of("base: {a: 1}\nx:\n  <<: {a: 1}\n  b: 2\n")
    assert shape([problem]) == [(3, ("x",), "yaml.tag", {"tag": "!!merge"})]


def test_dates_and_times_stay_the_strings_they_were():
    data = safeyaml.parse("d: 2025-03-14\nt: 2025-03-14 10:00:00Z\n").data
    assert data == {"d": "2025-03-14", "t": "2025-03-14 10:00:00Z"}


@pytest.mark.parametrize("digits", [1000, 1001, 4301, 100_000])
@pytest.mark.parametrize("prefix", ["", "-", "0x", "+"])
def test_an_integer_has_at_most_max_digits(digits, prefix):
    """A sign is not a digit; a base's prefix is counted (the bound guards the parser, and
    a hexadecimal digit is worth more than a decimal one)."""
    text = f"n: {prefix}{'1' * digits}\n"
    counted = digits + (0 if prefix in ("-", "+") else len(prefix))
    if counted <= safeyaml.MAX_DIGITS:
        assert safeyaml.parse(text).data["n"] == int(f"{prefix}{'1' * digits}", 0)
    else:
        assert shape(problems_of(text)) == [
            (1, ("n",), "yaml.digits", {"n": counted, "limit": 1000, "unit": "count"})
        ]


def test_a_float_of_any_length_is_a_float():
    assert safeyaml.parse(f"x: 1{'0' * 5000}.5\n").data["x"] == float("inf")
    assert isinstance(safeyaml.parse(f"x: 1.{'0' * 5000}5\n").data["x"], float)


def test_every_problem_is_reported_at_once_in_line_order():
    text = "a: !!int x\nb: 1\nb: 2\nc: !!python/none ''\nd: !!bool y\n"
    assert [(p.line, p.message.code) for p in problems_of(text)] == [
        (1, "yaml.bad_value"),
        (3, "yaml.duplicate_key"),
        (4, "yaml.tag"),
        (5, "yaml.bad_value"),
    ]


@pytest.mark.parametrize(
    ("text", "line", "code", "name"),
    [
        ("a: &x 1\n", 1, "yaml.anchor", "x"),  # an anchor alone, never used
        ("a: 1\nb: &y [1]\nc: *y\n", 2, "yaml.anchor", "y"),
        ("a: &a [*a]\n", 1, "yaml.anchor", "a"),
        ("- *nothing\n", 1, "yaml.alias", "nothing"),
    ],
)
def test_without_aliases_the_first_anchor_or_alias_is_refused(text, line, code, name):
    (problem,) = problems_of(text, aliases=False)
    assert (problem.line, problem.message.code, problem.message.params["name"]) == (
        line,
        code,
        name,
    )


def test_an_ampersand_or_star_that_is_text_is_no_anchor():
    text = "cmd: 'a && b *'\nx: a&b\ny: '*'\n"
    assert safeyaml.parse(text, aliases=False).data == {"cmd": "a && b *", "x": "a&b", "y": "*"}


def test_with_aliases_an_alias_bomb_is_refused_in_time_linear_in_the_text():
    bomb = "\n".join(
        ["a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"]
        + [
            f"{b}: &{b} [{', '.join([f'*{a}'] * 10)}]"
            for a, b in zip("abcdefgh", "bcdefghi", strict=True)
        ]
    )
    assert shape(problems_of(bomb)) == [(None, (), "yaml.expands", {"n": 100_000, "unit": "count"})]


@pytest.mark.parametrize("lines", [True, False])
def test_with_aliases_allowed_a_document_without_any_is_bounded_by_its_nodes(lines):
    """Without an alias the walk that records lines has counted the nodes: the same limit,
    whether or not the expansion is bounded apart."""
    flat = "[" + ", ".join(["1"] * 9) + "]"  # 10 nodes
    assert safeyaml.parse(flat, max_nodes=10, lines=lines).data == [1] * 9
    with pytest.raises(safeyaml.YamlError) as info:
        safeyaml.parse(flat, max_nodes=9, lines=lines)
    assert [p.message.code for p in info.value.problems] == ["yaml.expands"]
    aliased = "a: &x [1, 2]\nb: *x\n"  # 7 nodes written, 9 once expanded
    assert safeyaml.parse(aliased, max_nodes=9, lines=lines).data == {"a": [1, 2], "b": [1, 2]}
    with pytest.raises(safeyaml.YamlError):
        safeyaml.parse(aliased, max_nodes=8, lines=lines)


def test_with_aliases_a_cycle_is_refused():
    assert [p.message.code for p in problems_of("a: &a [1, *a]\n")] == ["yaml.cycle"]


def test_with_aliases_depth_counts_what_the_aliases_expand_to():
    text = "a: &x [[[1]]]\nb: [[*x]]\n"  # b nests 1 (doc) + 2 + 3 (x) levels
    assert safeyaml.parse(text).depth == 6
    assert safeyaml.parse("a: [[[1]]]\n").depth == 4


@pytest.mark.parametrize(
    ("text", "key"),
    [("1: a\n", "1"), ("true: a\n", "true"), ("null: a\n", "null"), ("1.5: a\n", "1.5"),
     ("[a, b]: c\n", "[…]"), ("? {a: 1}\n: c\n", "{…}")],
)  # fmt: skip
def test_with_string_keys_a_key_that_is_not_a_string_is_a_problem(text, key):
    assert shape(problems_of(text, string_keys=True)) == [
        (1, (), "yaml.key_not_string", {"key": key})
    ]


def test_lines_are_recorded_for_every_path():
    doc = safeyaml.parse("a: 1\nb:\n  - x\n  - c: 2\n    d: [3,\n      4]\n")
    assert doc.lines[("a",)] == 1
    assert doc.lines[("b", 1, "c")] == 4
    assert doc.lines[("b", 1, "d", 1)] == 6
    assert doc.line_of(("b", 1, "nope")) == 4  # its closest ancestor, the item
    assert doc.depth == 4
    assert safeyaml.parse("a: 1\n", lines=False).lines == {}


def test_size_encoding_and_syntax_are_problems_with_their_line():
    assert shape(problems_of("a: 1\n", max_bytes=3)) == [
        (None, (), "yaml.size", {"size": 5, "limit": 3, "unit": "bytes"})
    ]
    assert shape(problems_of(b"a: 1\nb: \xff\n")) == [
        (2, (), "yaml.not_utf8", {"byte": 8, "value": "0xff"})
    ]
    assert [(p.line, p.message.code) for p in problems_of("a: [1\n")] == [
        (2, "yaml.syntax_context")
    ]
    assert [(p.line, p.message.code) for p in problems_of("a:\n\t- 1\n")] == [
        (2, "yaml.syntax_tab")
    ]
    assert [p.message.code for p in problems_of("a: \x00\n")] == ["yaml.syntax"]


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("&*!|>:-?,[]{}#'\"\n .ab01~<")), max_size=60))
def test_without_aliases_any_text_is_refused_or_built_as_safe_loader_builds_it(text: str) -> None:
    try:
        ours = safeyaml.parse(text, aliases=False, string_keys=True, lines=False)
    except safeyaml.YamlError as exc:
        for problem in exc.problems:
            for lang in LANGS:
                catalog(lang).say(problem.message)
        return
    assert same(ours.data, safe_loader_data(text))


@pytest.mark.parametrize(
    ("text", "zh"),
    [
        ("a: b: c\n", "YAML 语法错误：此处不允许映射值（多了一个冒号？值里的冒号要加引号）"),
        ("a: [1, 2\n", "YAML 语法错误（解析流式序列时）：没有找到预期的 ',' 或 ']'"),
        ("a:\n  b: 1\n c: 2\n", "YAML 语法错误（解析块映射时）：没有找到预期的键（缩进不一致？）"),
        ("a: 'x\n", "YAML 语法错误（扫描带引号的标量时）：文件意外结束（引号或括号没有闭合？）"),
    ],
)
def test_libyamls_common_phrases_read_in_chinese(text, zh):
    """libyaml speaks English only: its common phrases are our catalogue's; an unknown one
    is shown as libyaml wrote it."""
    from runner.i18n import catalog

    with pytest.raises(safeyaml.YamlError) as info:
        safeyaml.parse(text)
    (problem,) = info.value.problems
    assert catalog("zh").say(problem.message) == zh


@pytest.mark.parametrize("core", [False, True])
def test_a_remembered_tag_is_the_tag_and_what_is_remembered_stays_small(core: bool) -> None:
    """A short plain scalar's tag is remembered from one parse to the next: the same data
    the first time and after, as SafeLoader (or the core schema) gives it; a long scalar is
    never remembered, and at most 4,096 are, however many a process meets."""
    remembered = safeyaml._core_tag_remembered if core else safeyaml._yaml11_tag_remembered
    remembered.cache_clear()
    scalars = ["1", "-12", "1e3", "null", "true", "0x1F", "017", "name", "1_000", ".inf", ""]
    text = "\n".join(f"k{i}: {s}" for i, s in enumerate(scalars))
    first, again = (safeyaml.parse(text, core_schema=core).data for _ in range(2))
    assert same(first, again)
    if not core:
        assert same(first, safe_loader_data(text))
    else:
        assert first["k2"] == 1000.0 and first["k6"] == 17 and first["k8"] == "1_000"

    remembered.cache_clear()
    long = "1.5" + "0" * 60
    assert safeyaml.parse(f"v: {long}", core_schema=core).data == {"v": 1.5}
    assert remembered.cache_info().currsize == 1  # "v" only

    many = "\n".join(f"- k{i}" for i in range(5000))
    assert len(safeyaml.parse(many, core_schema=core).data) == 5000
    assert remembered.cache_info().currsize == 4096
