"""The plain-data codec: what crosses the worker boundary, and what the judge makes of bytes.

Two properties carry the boundary: plain values survive the round trip exactly (types
included: a tuple stays a tuple, an int64 scalar an int64 scalar), and decoding *any* bytes
yields plain data or :class:`CodecError`, never another exception, never an object the
sender chose. The rest pins the messages a learner reads when a value does not cross.
"""

from __future__ import annotations

import json
import math
import struct
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from runner.learner import codec
from runner.learner.codec import DTYPES, CodecError, Limits, decode, encode, kind_of

# -- round trip --------------------------------------------------------------------------------
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**300), max_value=10**300)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=30)
)
arrays = st.sampled_from(sorted(DTYPES)).flatmap(
    lambda name: hnp.arrays(np.dtype(name), hnp.array_shapes(min_dims=0, max_dims=3, max_side=4))
)
numpy_scalars = arrays.filter(lambda a: a.ndim == 0).map(lambda a: a[()])
plain = st.recursive(
    scalars | arrays | numpy_scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


def same(a: Any, b: Any) -> bool:
    """Equal, and of the same type all the way down (NaN equals NaN, arrays by dtype, shape
    and bits)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, np.generic):  # a scalar crosses as its value: NaN as NaN, any payload
        both_nan = a.dtype.kind == "f" and bool(np.isnan(a)) and bool(np.isnan(b))
        return a.dtype == b.dtype and (both_nan or a.tobytes() == b.tobytes())
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


@given(plain)
@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
def test_plain_values_cross_unchanged(value):
    assert same(decode(encode(value)), value)


numbers = st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.floats()


@given(st.lists(numbers, max_size=40) | st.lists(numbers, max_size=40).map(tuple))
@settings(max_examples=300)
def test_a_list_of_numbers_crosses_unchanged_whatever_it_mixes(value):
    """Lists of numbers cross whole (not number by number): those that do not cross as
    themselves (an int of 2**53 or more, NaN, inf) among them too."""
    assert same(decode(encode(value)), value)
    assert same(decode(encode([value, {"v": value}])), [value, {"v": value}])


def test_a_header_list_holding_a_non_finite_number_is_refused():
    for inner in ([1.0, float("nan")], [[2, float("inf")]]):
        header = json.dumps(inner).encode()  # NaN and Infinity, as json writes them
        message = codec._HEADER.pack(codec.MAGIC, len(header)) + header
        with pytest.raises(CodecError, match="non-finite"):
            decode(message)


def test_a_long_double_array_crosses_whole_and_a_scalar_as_its_float():
    """A contract may promise that long double logits stay long double: its arrays cross
    with every bit (judge and worker are one machine); a scalar of it crosses as a Python
    float would (its digits beyond float64 are lost), still a long double."""
    tiny = np.longdouble(2) ** -60  # 0 beside 1 in float64; not in an 80-bit long double
    values = np.array([1, 1], dtype=np.longdouble) + np.array([0, tiny], dtype=np.longdouble)

    out = decode(encode({"a": values, "s": values[1]}))

    assert out["a"].dtype == np.longdouble and np.array_equal(out["a"], values)
    assert type(out["s"]) is np.longdouble and out["s"] == np.longdouble(float(values[1]))


def test_decoded_arrays_are_owned_writable_and_native():
    big_endian = np.arange(6, dtype=">i4").reshape(2, 3)

    out = decode(encode({"a": big_endian, "b": np.arange(4.0)[::2]}))

    assert out["a"].dtype == np.dtype("int32") and out["a"].dtype.isnative
    assert out["a"].flags.writeable and out["a"].flags.owndata
    assert np.array_equal(out["a"], big_endian)
    assert np.array_equal(out["b"], [0.0, 2.0])


# -- what does not cross, and what the learner is told --------------------------------------------
class Liar(float):
    """A float whose arithmetic lies, as a learner's file would define it."""

    __module__ = "learner_impl"  # the module the worker loads a learner's file as

    def __sub__(self, other: Any) -> float:
        return 0.0


class Trap:
    __module__ = "learner_impl"

    def __repr__(self) -> str:
        raise RuntimeError("repr")


class Elsewhere:
    """A class from some other module is named with its module."""


UNPLAIN = [
    (Liar(1.0), "a Liar (a subclass of float)"),
    (complex(1, 2), "a complex"),
    (Decimal(1), "a decimal.Decimal"),
    (Fraction(1, 3), "a fractions.Fraction"),
    ({1, 2}, "a set"),
    (frozenset(), "a frozenset"),
    (b"x", "a bytes"),
    (bytearray(b"x"), "a bytearray"),
    ((i for i in ()), "a generator"),
    (Trap(), "a Trap"),
    (np.array([1, "a"], dtype=object), "an array of dtype object"),
    (np.array([1j]), "an array of dtype complex128"),
    (np.array(["2020-01-01"], dtype="datetime64[D]"), "an array of dtype datetime64[D]"),
    (np.array(["ab"]), "an array of dtype <U2"),
    (np.zeros(2, dtype=[("a", "f8")]), "an array of dtype [('a', '<f8')]"),
    (np.complex128(1), "a NumPy complex128 scalar"),
    (np.clongdouble(1), f"a NumPy {np.dtype(np.clongdouble).name} scalar"),
    (np.ma.array([1.0]), "a numpy.ma.MaskedArray (a subclass of numpy.ndarray)"),
    (10**5000, "an integer with over 4,000 digits"),
    ("x" * 100_001, "a string of 100,001 characters"),
    ({1: 2}, "a dict key that is an int"),
    (print, "a builtin_function_or_method"),
]


@pytest.mark.parametrize(("value", "message"), UNPLAIN, ids=[m for _, m in UNPLAIN])
def test_what_does_not_cross_is_named(value, message):
    with pytest.raises(CodecError) as caught:
        encode(value)
    assert caught.value.what == message


def test_subclasses_of_list_tuple_and_dict_cross_as_the_plain_ones_whatever_they_override():
    """What the contract calls a dict or a (left, right) pair may be an OrderedDict, a
    defaultdict or a namedtuple; their contents cross, read as the plain type reads them."""
    import collections

    class Lying(dict):  # type: ignore[type-arg]
        def items(self):  # type: ignore[override]
            return [("total", 0)]

    class Shorter(list):  # type: ignore[type-arg]
        def __iter__(self):  # type: ignore[override]
            return iter([])

    pair = collections.namedtuple("pair", "left right")
    counts = collections.defaultdict(int, {"total": 7})
    value = {
        "ordered": collections.OrderedDict([("a", 1), ("b", 2)]),
        "default": counts,
        "merges": [pair(101, 32), pair(256, 116)],
        "lying": Lying(total=124_439_808),
        "shorter": Shorter([1, 2]),
    }
    assert decode(encode(value)) == {
        "ordered": {"a": 1, "b": 2},
        "default": {"total": 7},
        "merges": [(101, 32), (256, 116)],
        "lying": {"total": 124_439_808},
        "shorter": [1, 2],
    }
    assert type(decode(encode(pair(1, 2)))) is tuple


class Tensor(np.ndarray):
    """A learner's array type, as a torch-like module would make one: its own views and
    methods never decide what crosses (each call of them is counted)."""

    calls = 0

    def __array_finalize__(self, obj: Any) -> None:
        Tensor.calls += 1

    def tobytes(self, *args: Any, **kwargs: Any) -> bytes:
        Tensor.calls += 1
        return b""


def test_a_subclass_of_ndarray_crosses_as_the_plain_array_of_its_data():
    """A correct learner's np.matrix results and a torch-like Tensor(np.ndarray) were
    refused ("only ... real numeric arrays cross": a correct-learner round, 2026-12-07):
    they cross as the plain array of their data now; a masked array still does not (what
    its mask hides is not its value)."""
    data = np.arange(6.0).reshape(2, 3)
    tensor = data.copy().view(Tensor)
    Tensor.calls = 0
    for value in (np.asmatrix(data), tensor):
        out = decode(encode({"v": value}))["v"]
        assert type(out) is np.ndarray and out.shape == (2, 3) and np.array_equal(out, data)
    assert Tensor.calls == 0
    with pytest.raises(CodecError):
        encode(np.ma.array(data, mask=data > 2))


def test_the_place_inside_a_value_is_named():
    with pytest.raises(CodecError) as caught:
        encode({"probs": [1.0, 2.0, {3}]})
    assert (caught.value.what, caught.value.where) == ("a set", "['probs'][2]")


def test_an_answer_holds_no_text_though_its_keys_and_the_message_may():
    """What a learner's function returned is numbers: "201028000" would pass a check that
    calls int() on it."""
    reply = {"status": "returned", "value": {"bytes": [1, 2], "unit": "B"}}
    with pytest.raises(CodecError) as caught:
        encode(reply, answer="value")
    assert (caught.value.what, caught.value.where) == ("a str", "['value']['unit']")
    assert decode(encode({"status": "returned", "value": {"bytes": 3}}, answer="value")) == {
        "status": "returned",
        "value": {"bytes": 3},
    }
    assert decode(encode(reply)) == reply  # the judge's inputs may hold text


def test_nesting_and_numbers_are_bounded_while_encoding():
    deep: Any = 1
    for _ in range(40):
        deep = [deep]
    with pytest.raises(CodecError, match="nested more than 32 levels"):
        encode(deep)
    with pytest.raises(CodecError, match="more than 1,000 numbers") as caught:
        encode([0.5] * 1001, Limits(max_elements=1000))
    assert caught.value.where == "[999]"  # the number that crossed the limit (and the list)
    with pytest.raises(CodecError, match="more than 1,000 numbers"):
        encode([np.zeros(600), np.zeros(600)], Limits(max_elements=1000))
    # the list counts too: 999 numbers and the list that holds them are 1,000 values
    assert len(decode(encode([0.5] * 999, Limits(max_elements=1000)))) == 999


def test_kind_of_names_classes_as_a_learner_writes_them():
    assert kind_of(1.5) == "a float"
    assert kind_of(Decimal(1)) == "a decimal.Decimal"
    assert kind_of(Trap()) == "a Trap"  # defined in the learner's file: its own name
    assert kind_of(Elsewhere()) == "a tests.test_codec.Elsewhere"
    assert kind_of(1) == "an int"


# -- decoding trusts nothing ----------------------------------------------------------------------
def message(tree: Any, tail: bytes = b"") -> bytes:
    header = json.dumps(tree).encode()
    return struct.pack("<4sI", codec.MAGIC, len(header)) + header + tail


@pytest.mark.parametrize(
    ("data", "what"),
    [
        (b"", "a truncated message"),
        (b"PLN1", "a truncated message"),
        (b"XXXX\x02\x00\x00\x00{}", "not a message of this format"),
        (struct.pack("<4sI", codec.MAGIC, 99) + b"{}", "not a message of this format"),
        (message({"$i": "--5"}), "a malformed integer"),
        (message({"$i": "\u0663"}), "a malformed integer"),  # an Arabic-Indic digit
        (message({"$i": "1" * 5000}), "a malformed integer"),
        (message({"$f": "1e999"}), "a malformed value"),
        (message(float("nan")), "a non-finite number outside its marker"),
        (struct.pack("<4sI", codec.MAGIC, 6) + b"1e9999", "a non-finite number outside its marker"),
        (message({"$s": "object", "v": 1}), "a malformed value"),
        (message({"$s": "uint8", "v": 300}), "a scalar that does not fit its dtype"),
        (message({"$s": "int8", "v": [1]}), "a malformed scalar"),
        (message({"$a": "object", "shape": [1], "nbytes": 8}, b"\0" * 8), "a malformed array"),
        (message({"$a": "float64", "shape": [2], "nbytes": 8}, b"\0" * 8), "bytes do not match"),
        (message({"$a": "float64", "shape": [1], "nbytes": 8}), "bytes do not match"),
        (message({"$a": "float64", "shape": [True], "nbytes": 8}, b"\0" * 8), "malformed array"),
        (message({"$a": "float64", "shape": [-1], "nbytes": 8}, b"\0" * 8), "malformed array"),
        # no value, yet 10**30 rows to whoever lists it: each axis counts at least once
        (message({"$a": "int8", "shape": [0, 10**30], "nbytes": 0}), "more than"),
        (message({"$a": "float64", "shape": [2**40, 0], "nbytes": 0}), "more than"),
        # a scalar its dtype cannot hold, or one made of a tuple
        (message({"$s": "float16", "v": 1e300}), "a scalar that does not fit its dtype"),
        (message({"$s": "float64", "v": {"$t": [1.0, 2.0]}}), "a malformed scalar"),
        (message({"$a": "int8", "shape": [10**30], "nbytes": 0}), "more than"),
        (message([1], b"extra"), "bytes left over after the last array"),
        (message({"$d": {"a": 1}, "x": 2}), "a malformed value"),
        (message({"__class__": "os.system"}), "a malformed value"),
        (struct.pack("<4sI", codec.MAGIC, 400_000) + b"[" * 400_000, "an unreadable header"),
        (struct.pack("<4sI", codec.MAGIC, 2) + b"\xff\xfe", "an unreadable header"),
    ],
)
def test_malformed_messages_are_codec_errors(data, what):
    with pytest.raises(CodecError) as caught:
        decode(data)
    assert what in str(caught.value)


def test_decoding_limits_bytes_and_numbers():
    with pytest.raises(CodecError, match="over the limit of 100"):
        decode(encode(list(range(100))), Limits(max_bytes=100))
    with pytest.raises(CodecError, match="more than 50 values"):
        decode(encode(np.zeros(51)), Limits(max_elements=50))
    with pytest.raises(CodecError, match="more than 50 values"):  # 50 numbers and their list
        decode(encode([0.5] * 50), Limits(max_elements=50))
    assert decode(encode([0.5] * 49), Limits(max_elements=50)) == [0.5] * 49


@given(st.binary(max_size=300))
@settings(max_examples=500)
def test_any_bytes_decode_to_plain_data_or_a_codec_error(data):
    try:
        value = decode(data)
    except CodecError:
        return
    assert_plain(value)


json_trees = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["$t", "$d", "$f", "$i", "$s", "$a", "v", "shape", "nbytes", "x"])
            | st.text(max_size=4),
            inner,
            max_size=3,
        )
    ),
    max_leaves=15,
)


@given(json_trees, st.binary(max_size=64))
@settings(max_examples=500, suppress_health_check=[HealthCheck.too_slow])
def test_any_header_decodes_to_plain_data_or_a_codec_error(tree, tail):
    try:
        data = message(tree, tail)
    except ValueError:  # a float json will not write
        return
    try:
        value = decode(data)
    except CodecError:
        return
    assert_plain(value)


@given(plain, st.data())
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_damaged_messages_decode_to_plain_data_or_a_codec_error(value, data):
    raw = bytearray(encode(value))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(raw)))
    try:
        decoded = decode(bytes(raw[:cut]))
    except CodecError:
        return
    assert_plain(decoded)


def assert_plain(value: Any) -> None:
    """Only the types the codec builds."""
    if value is None or type(value) in (bool, int, float, str):
        return
    if type(value) in (list, tuple):
        for v in value:
            assert_plain(v)
        return
    if type(value) is dict:
        for k, v in value.items():
            assert type(k) is str
            assert_plain(v)
        return
    if type(value) is np.ndarray:
        assert value.dtype.name in DTYPES and value.dtype.isnative
        return
    assert isinstance(value, np.generic) and value.dtype.name in DTYPES, type(value)


# -- arrays placed in shared memory ------------------------------------------------------------
def _shared_message(**entry: Any) -> bytes:
    tree = {"$m": "float64", "shape": [2], "offset": 0, "nbytes": 16, **entry}
    header = json.dumps(tree).encode()
    return struct.pack("<4sI", codec.MAGIC, len(header)) + header


def test_a_placed_array_is_a_writable_view_of_the_shared_memory():
    shared = bytearray(256)
    shared[64:80] = np.array([1.5, -2.0]).tobytes()
    placed = codec.Placed("float64", (2,), 64, bytes(shared[64:80]))
    view = decode(encode([placed]), shared=shared)[0]
    assert view.tolist() == [1.5, -2.0] and view.flags.writeable
    view[0] = 7.0  # what the learner's function does to it, the judge reads back
    assert np.frombuffer(bytes(shared[64:72]))[0] == 7.0
    empty = codec.Placed("int64", (0, 3), 0, b"")
    assert decode(encode(empty), shared=shared).shape == (0, 3)


@pytest.mark.parametrize(
    "entry",
    [
        {},  # valid, but no shared memory to be in: the judge never accepts one from a worker
        {"offset": 250},  # past the end
        {"offset": -16},
        {"offset": 3},  # not on the dtype's alignment
        {"offset": "0"},
        {"nbytes": 8},  # not what the shape says
        {"shape": [2**62, 2**62]},
        {"shape": [-1]},
        {"$m": "object"},
        {"extra": 1},
    ],
)
def test_a_placed_array_outside_what_is_shared_is_refused(entry):
    shared = None if not entry else bytearray(256)
    with pytest.raises(CodecError):
        decode(_shared_message(**entry), shared=shared)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"k" * 1_001: 1}, "a dict key of 1,001 characters"),
        ([{f"{i:0999d}": i} for i in range(1_100)], "of text"),  # 1,100 keys of 999 characters
        (["x" * 100_000] * 11, "of text"),
    ],
)
def test_text_is_bounded_in_keys_and_in_all(value, message):
    """A reply of 16 MiB of dict keys cost the judge seconds of CPU to escape and a 0.5 GB
    evidence file (an outside attack): keys are a line at most, and a message holds at most
    a million characters of text, however they are split. The decoder, which reads what a
    learner's worker sent, holds to the same."""
    with pytest.raises(CodecError) as caught:
        encode(value)
    assert message in caught.value.what

    # what a worker that wrote its own bytes would send
    def plain(v: Any) -> Any:
        if isinstance(v, dict):
            return {"$d": {k: plain(x) for k, x in v.items()}}
        return [plain(x) for x in v] if isinstance(v, list) else v

    header = json.dumps(plain(value)).encode()
    with pytest.raises(CodecError):
        decode(struct.pack("<4sI", codec.MAGIC, len(header)) + header, Limits(max_bytes=2**26))


def test_every_text_of_a_reply_is_made_printable_numbers_kept_as_they_are():
    from runner.text import printable_data

    reply = {"a\x1b[2J": [1.5, None, True, 3], "b": [[0.5, "x\u202ey"], ("\x07",)]}
    shown = printable_data(reply)
    assert list(shown) == ["a\\x1b[2J", "b"]
    assert shown["a\\x1b[2J"] == [1.5, None, True, 3]
    assert shown["b"] == [[0.5, "x\\u202ey"], ("\\x07",)]
    numbers = [0.25, 2]
    assert printable_data(numbers) == numbers and printable_data(numbers) is not numbers


def test_text_in_an_answer_is_refused_on_the_judges_side_too():
    """A learner's code that replaced the worker's encoder sent every number as text ("1.5"),
    and 22 claims read it as the number (attack round 26): the judge decodes an answer with
    no text in it, as the worker's own encoder sends it; text elsewhere in a reply stays."""
    from runner.learner.codec import CodecError, decode, encode

    forged = encode({"status": "returned", "value": [1.0, "1.5"]})  # no answer= : a forgery
    with pytest.raises(CodecError):
        decode(forged, answer="value")
    nested = encode({"status": "returned", "value": {"probs": ["0.5"]}})
    with pytest.raises(CodecError):
        decode(nested, answer="value")
    honest = encode({"status": "returned", "value": {"probs": [0.5]}}, answer="value")
    assert decode(honest, answer="value") == {"status": "returned", "value": {"probs": [0.5]}}
    said = encode({"status": "raised", "type": "ValueError", "message": "k must be >= 1"})
    assert decode(said, answer="value")["message"] == "k must be >= 1"
