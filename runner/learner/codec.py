"""Plain data across the worker boundary: a format that cannot carry code.

A message is a JSON header describing a tree of plain values, followed by the raw bytes of
the NumPy arrays it names. JSON builds only dicts, lists, strings, numbers, booleans and
null; arrays are rebuilt with ``numpy.frombuffer`` from a dtype taken from a fixed list of
real numeric types. Nothing is unpickled, no class is looked up by name, so whatever the
other side sends, decoding yields plain data or :class:`CodecError`.

Both sides use it: the judge to send a learner's function its inputs, the worker to send
back what the function returned. The worker's encoder is strict about types so a learner
gets a clear message ("returned a set"); the judge's decoder trusts nothing it receives.
"""

from __future__ import annotations

import json
import math
import re
import struct
import sys
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from runner.kinds import PLAIN_NUMBERS, SEQUENCES, python_scalar

# tuples built once, not unions built at every isinstance() (see runner.kinds)
_PLAIN_NUMBERS_OR_DICT = (bool, int, float, dict)

MAGIC = b"PLN1"
# the message's byte order, as NumPy says it
_LITTLE: Literal["=", "<"] = "=" if sys.byteorder == "little" else "<"
_HEADER = struct.Struct("<4sI")
# Real numeric types only: no objects, strings, datetimes or complex numbers.
# The platform's long double too (float128 on x86-64 Linux, float64 where it is a double): the
# judge and its worker are one machine, so its bytes mean the same on both sides. A scalar of
# it crosses as a Python float (its digits beyond float64 are lost); an array crosses whole.
DTYPES = frozenset(
    {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
    | {"float16", "float32", "float64", np.dtype(np.longdouble).name}
)
MAX_DEPTH = 32
MAX_STRING = 100_000
MAX_KEY = 1_000  # a dict key names something (a parameter table's rows): a line at most
# every string and key of a message together: the judge escapes each character it shows and
# records, so a reply of 16 MiB of keys cost it seconds of CPU and a 0.5 GB evidence file
MAX_TEXT = 1_000_000
MAX_INT_DIGITS = 4_000  # below Python's 4,300-digit limit on int <-> str conversion
INTEGER = re.compile(r"-?[0-9]+")
SAFE_INT = 2**53  # an int crosses as itself below this, as a marked string from it


class CodecError(ValueError):
    """A value that is not plain data (``what`` it is, and ``where`` inside the value, as
    an index path like ``[0]['probs']``), or bytes that are not a well-formed message."""

    def __init__(self, what: str, where: str = "") -> None:
        super().__init__(f"{what} at {where}" if where else what)
        self.what = what
        self.where = where


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 16 * 2**20
    max_elements: int = 2**21  # scalars in all arrays and lists together


# What the judge may send a worker and the worker accepts: one object for both sides, so
# inputs too large for the worker are refused as the judge's own error before they leave
# (a worker that dropped them would look like a learner's crash).
REQUEST = Limits()

PLAIN = (bool, int, float, str, list, tuple, dict)


@dataclass(frozen=True)
class Placed:
    """An array the judge placed in the memory it shares with a worker (see
    :mod:`runner.learner.arena`): a message names it by its place, and the bytes it put
    there are kept to compare with after the call."""

    dtype: str
    shape: tuple[int, ...]
    offset: int
    data: bytes

    @property
    def nbytes(self) -> int:
        return len(self.data)


def kind_of(value: Any) -> str:
    """What a value is, as a learner would say it, for messages: ``a set``, ``a
    decimal.Decimal``, ``a F (a subclass of float)``."""
    cls = type(value)
    name = _class_name(cls)
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name + _subclass_note(cls)


def _class_name(cls: type) -> str:
    module = getattr(cls, "__module__", "")
    name = str(getattr(cls, "__name__", "?"))
    if (
        module in ("builtins", "__main__")
        or not isinstance(module, str)
        or module.startswith("learner_impl")
    ):
        return name  # a class the learner defined is known by its name
    return f"{module}.{getattr(cls, '__qualname__', name)}"


def _subclass_note(cls: type) -> str:
    for base in (*PLAIN, np.ndarray):
        if cls is not base and issubclass(cls, base):
            return f" (a subclass of {_class_name(base)})"
    return ""


# -- encoding -------------------------------------------------------------------------------
def encode(value: Any, limits: Limits | None = None, *, answer: str | None = None) -> bytes:
    """``value`` as a message; CodecError names the first part that is not plain data, or
    says the value holds more than ``limits.max_elements`` numbers. With ``answer``, the
    entry of that name in a top-level dict (what a learner's function returned) holds no
    text: the chapter's functions return numbers, and a check that turns ``"201028000"``
    into a number with ``int()`` must not be handed one."""
    encoder = _Encoder(limits.max_elements if limits is not None else None, answer)
    tree = encoder.tree(value, 0, "")
    header = json.dumps(tree, separators=(",", ":"), allow_nan=False).encode()
    return b"".join([_HEADER.pack(MAGIC, len(header)), header, *encoder.buffers])


class _Encoder:
    def __init__(self, max_elements: int | None, answer: str | None = None) -> None:
        self.buffers: list[memoryview] = []
        self.answer = answer
        self.texts = True  # strings allowed (not inside the answer)
        self.max = max_elements
        self.used = 0
        self.characters = 0

    def count(self, n: int, where: str) -> None:
        self.used += n
        if self.max is not None and self.used > self.max:
            raise CodecError(f"a value of more than {self.max:,} numbers", where)

    def text(self, n: int, where: str) -> None:
        self.characters += n
        if self.characters > MAX_TEXT:
            raise CodecError(f"a value of more than {MAX_TEXT:,} characters of text", where)

    def tree(self, value: Any, depth: int, where: str) -> Any:
        if depth > MAX_DEPTH:
            raise CodecError(f"a value nested more than {MAX_DEPTH} levels deep", where)
        self.count(1, where)
        cls = type(value)
        # exact types: a subclass of float could lie in its arithmetic, so it does not cross
        if value is None or cls is bool or cls is str:
            if cls is str and not self.texts:
                raise CodecError(kind_of(value), where)
            if cls is str and len(value) > MAX_STRING:
                raise CodecError(f"a string of {len(value):,} characters", where)
            if cls is str:
                self.text(len(value), where)
            return value
        if cls is int:
            if value.bit_length() > MAX_INT_DIGITS * 3:
                raise CodecError(f"an integer with over {MAX_INT_DIGITS:,} digits", where)
            return value if abs(value) < SAFE_INT else {"$i": str(value)}
        if cls is float:
            return value if math.isfinite(value) else {"$f": repr(value)}
        # a container crosses as the plain one it is a subclass of (an OrderedDict, a
        # defaultdict, a namedtuple: what the contract calls a dict or a pair), read with the
        # plain type's own methods, so no override of the subclass decides what is sent
        if isinstance(value, SEQUENCES):
            is_list = isinstance(value, list)
            elements = list(list.__iter__(value) if is_list else tuple.__iter__(value))  # type: ignore[arg-type]
            if (
                depth < MAX_DEPTH
                and (self.max is None or self.used + len(elements) <= self.max)
                and _plain_numbers(elements, SAFE_INT)
            ):
                # numbers that cross as themselves, as tree() would send each (a list of
                # floats is most of what crosses: a path made for each cost more than it)
                self.used += len(elements)
                items = elements
            else:
                items = [self.tree(v, depth + 1, f"{where}[{i}]") for i, v in enumerate(elements)]
            return items if is_list else {"$t": items}
        if isinstance(value, dict):
            out = {}
            for k, v in dict.items(value):
                if type(k) is not str:
                    raise CodecError(f"a dict key that is {kind_of(k)}", where)
                if len(k) > MAX_KEY:
                    raise CodecError(f"a dict key of {len(k):,} characters", where)
                self.text(len(k), where)
                if depth == 0 and self.answer is not None:  # in the answer, no text at all
                    self.texts = k != self.answer
                out[k] = self.tree(v, depth + 1, f"{where}[{k[:40]!r}]")
            self.texts = self.texts or depth == 0
            return {"$d": out}
        if cls is np.ndarray:
            return self.array(value, where)
        if isinstance(value, np.ndarray) and not _masked(value):
            # a subclass (np.matrix, a Tensor of the learner's) crosses as the plain array of
            # its data, read by ndarray's own view: no method of the subclass decides what is
            # sent. A masked array does not: what lies under its mask is not its value.
            return self.array(np.ndarray.view(value, np.ndarray), where)
        if cls is Placed:
            self.count(math.prod(value.shape), where)
            return {"$m": value.dtype, "shape": list(value.shape), "offset": value.offset,
                    "nbytes": value.nbytes}  # fmt: skip
        if isinstance(value, np.generic) and cls.__module__ == "numpy":
            name = value.dtype.name
            if name not in DTYPES:
                raise CodecError(f"a NumPy {name} scalar", where)
            return {"$s": name, "v": self.tree(python_scalar(value), depth + 1, where)}
        raise CodecError(kind_of(value), where)

    def array(self, a: np.ndarray, where: str) -> dict[str, Any]:
        name = a.dtype.name
        if name not in DTYPES or a.dtype.fields is not None:
            raise CodecError(f"an array of dtype {a.dtype}", where)
        self.count(listed_size(a.shape), where)
        # the array's own bytes where they are already contiguous and little-endian: the
        # message's one copy is made when the parts are joined, right after
        # (on a little-endian machine, as native: NumPy exports a long double's buffer only
        # in the native order, and '<' spelled out is not that to it)
        data = np.ascontiguousarray(a).astype(a.dtype.newbyteorder(_LITTLE), copy=False)
        view = data.reshape(-1).data
        self.buffers.append(view)
        return {"$a": name, "shape": list(a.shape), "nbytes": view.nbytes}


def _plain_numbers(elements: list[Any], int_limit: float) -> bool:
    """Whether every element is None, a bool, an int of magnitude below ``int_limit`` or a
    finite float, of exactly those types (not a subclass): what :meth:`_Encoder.tree` sends
    as it is (``int_limit`` SAFE_INT) and what :meth:`_Reader.value` returns as it is from a
    header (any JSON int: ``math.inf``)."""
    for v in elements:
        cls = type(v)
        if cls is float:
            if not math.isfinite(v):
                return False
        elif cls is int:
            if not -int_limit < v < int_limit:
                return False
        elif cls is not bool and v is not None:
            return False
    return True


def _masked(value: np.ndarray) -> bool:
    """A numpy.ma array (none exists unless numpy.ma was imported: not imported here)."""
    ma = sys.modules.get("numpy.ma")
    return ma is not None and isinstance(value, ma.MaskedArray)


# -- decoding -------------------------------------------------------------------------------
def decode(
    message: bytes | bytearray,
    limits: Limits | None = None,
    shared: Any = None,
    *,
    answer: str | None = None,
) -> Any:
    """The value a message describes. Trusts nothing: CodecError for anything malformed.
    ``shared``, a writable buffer (the worker's mapping of the memory the judge shares with
    it), is where arrays named by their place are: they come back as views of it, not
    copies. Without it, a message that names one is malformed. With ``answer``, the entry
    of that name in a top-level dict holds no text, as :func:`encode` sends it: a worker
    whose encoder the learner's code replaced sent "1.5" for 1.5, and checks read it as
    the number (an attack round, 2026-12-07)."""
    limits = limits or Limits()
    if len(message) > limits.max_bytes:
        raise CodecError(f"{len(message):,} bytes, over the limit of {limits.max_bytes:,}")
    if len(message) < _HEADER.size:
        raise CodecError("a truncated message")
    magic, size = _HEADER.unpack_from(message)
    if magic != MAGIC or _HEADER.size + size > len(message):
        raise CodecError("not a message of this format")
    try:
        tree = json.loads(bytes(message[_HEADER.size : _HEADER.size + size]))
    except (ValueError, RecursionError) as exc:  # incl. UnicodeDecodeError, int digit limits
        raise CodecError(f"an unreadable header ({type(exc).__name__})") from None
    reader = _Reader(memoryview(message)[_HEADER.size + size :], limits, shared, answer)
    value = reader.value(tree, 0)
    if reader.offset != len(reader.data):
        raise CodecError("bytes left over after the last array")
    return value


class _Reader:
    def __init__(
        self, data: memoryview, limits: Limits, shared: Any = None, answer: str | None = None
    ) -> None:
        self.answer = answer
        self.texts = True  # strings allowed (not inside the answer)
        self.data = data
        self.shared = shared
        self.offset = 0
        self.limits = limits
        self.elements = 0
        self.characters = 0

    def count(self, n: int) -> None:
        self.elements += n
        if self.elements > self.limits.max_elements:
            raise CodecError(f"more than {self.limits.max_elements:,} values")

    def text(self, value: str, limit: int) -> str:
        self.characters += len(value)
        if len(value) > limit or self.characters > MAX_TEXT:
            raise CodecError("more text than a message may hold")
        return value

    def value(self, tree: Any, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise CodecError(f"nested more than {MAX_DEPTH} levels deep")
        self.count(1)
        if isinstance(tree, str):
            if not self.texts:
                raise CodecError("text in the answer")
            return self.text(tree, MAX_STRING)
        if tree is None or isinstance(tree, PLAIN_NUMBERS):
            if isinstance(tree, float) and not math.isfinite(tree):
                raise CodecError("a non-finite number outside its marker")
            return tree
        if isinstance(tree, list):
            if depth < MAX_DEPTH and _plain_numbers(tree, math.inf):
                self.count(len(tree))  # one for each element, as value() counts each
                return tree  # json.loads made it: a list of its own
            return [self.value(v, depth + 1) for v in tree]
        if not isinstance(tree, dict) or len(tree) not in (1, 2, 3, 4):
            raise CodecError("a malformed value")
        if "$t" in tree and len(tree) == 1 and isinstance(tree["$t"], list):
            return tuple(self.value(v, depth + 1) for v in tree["$t"])
        if "$d" in tree and len(tree) == 1 and isinstance(tree["$d"], dict):
            items = tree["$d"].items()
            if depth == 0 and self.answer is not None:
                out = {}
                for k, v in items:
                    self.texts = k != self.answer
                    out[self.text(str(k), MAX_KEY)] = self.value(v, depth + 1)
                self.texts = True
                return out
            return {self.text(str(k), MAX_KEY): self.value(v, depth + 1) for k, v in items}
        if "$f" in tree and len(tree) == 1 and tree["$f"] in ("nan", "inf", "-inf"):
            return float(tree["$f"])
        if "$i" in tree and len(tree) == 1 and isinstance(tree["$i"], str):
            text = tree["$i"]
            if len(text) > MAX_INT_DIGITS + 1 or not INTEGER.fullmatch(text):
                raise CodecError("a malformed integer")
            return int(text)
        if "$s" in tree and set(tree) == {"$s", "v"} and _dtype_name(tree["$s"]):
            inner = tree["v"]
            if not isinstance(inner, _PLAIN_NUMBERS_OR_DICT):
                raise CodecError("a malformed scalar")
            number = self.value(inner, depth + 1)
            if not isinstance(number, PLAIN_NUMBERS):  # a tuple made of markers is no scalar
                raise CodecError("a malformed scalar")
            try:
                # a number its dtype cannot hold (1e300 as float16) is malformed, not inf with
                # NumPy's warning on the judge's screen: an honest worker never sends one
                with np.errstate(all="raise"):
                    return np.array(number, dtype=tree["$s"])[()]
            except (OverflowError, ValueError, TypeError, FloatingPointError):
                raise CodecError("a scalar that does not fit its dtype") from None
        if "$a" in tree and set(tree) == {"$a", "shape", "nbytes"}:
            return self.array(tree)
        if "$m" in tree and set(tree) == {"$m", "shape", "offset", "nbytes"}:
            return self.placed(tree)
        raise CodecError("a malformed value")

    def array(self, tree: dict[str, Any]) -> np.ndarray:
        name, shape, nbytes = tree["$a"], tree["shape"], tree["nbytes"]
        if not _dtype_name(name) or not isinstance(shape, list) or len(shape) > MAX_DEPTH:
            raise CodecError("a malformed array")
        if not all(type(n) is int and n >= 0 for n in shape) or type(nbytes) is not int:
            raise CodecError("a malformed array shape")
        dtype = np.dtype(name).newbyteorder("<")
        count = math.prod(shape)
        self.count(listed_size(shape))
        if count * dtype.itemsize != nbytes or self.offset + nbytes > len(self.data):
            raise CodecError("an array whose bytes do not match its shape")
        raw = self.data[self.offset : self.offset + nbytes]
        self.offset += nbytes
        try:
            # a copy in native byte order: owned, writable, and independent of the message
            return np.frombuffer(raw, dtype=dtype).reshape(shape).astype(dtype.newbyteorder("="))
        except (ValueError, OverflowError, MemoryError):  # e.g. a shape of [0, 10**30]
            raise CodecError("a malformed array shape") from None

    def placed(self, tree: dict[str, Any]) -> np.ndarray:
        """A view of the shared memory: the learner's function writes where the judge reads."""
        name, shape, offset, nbytes = tree["$m"], tree["shape"], tree["offset"], tree["nbytes"]
        if self.shared is None or not _dtype_name(name) or not isinstance(shape, list):
            raise CodecError("a malformed array")
        if len(shape) > MAX_DEPTH or not all(type(n) is int and n >= 0 for n in shape):
            raise CodecError("a malformed array shape")
        dtype = np.dtype(name).newbyteorder("<")
        count = math.prod(shape)
        self.count(listed_size(shape))
        if type(offset) is not int or type(nbytes) is not int or count * dtype.itemsize != nbytes:
            raise CodecError("an array whose bytes do not match its shape")
        if offset < 0 or offset % dtype.itemsize or offset + nbytes > len(self.shared):
            raise CodecError("an array outside the shared memory")
        if nbytes == 0:
            return np.zeros(shape, dtype=dtype.newbyteorder("="))
        try:
            # shared memory exists on little-endian machines only: its arrays are native
            native = dtype.newbyteorder("=")
            return np.frombuffer(self.shared, dtype=native, count=count, offset=offset).reshape(
                shape
            )
        except (ValueError, OverflowError, MemoryError):
            raise CodecError("a malformed array shape") from None


def listed_size(shape: Any) -> int:
    """How many values an array of ``shape`` counts as against the limit: each axis at least
    once, as (2**40, 0) holds no value, yet its rows are 2**40 empty lists to whoever makes
    a list of it (both sides count it so)."""
    return math.prod(max(n, 1) for n in shape)


def _dtype_name(name: Any) -> bool:
    """Whether ``name`` is one of the real numeric dtypes (anything else: no)."""
    return isinstance(name, str) and name in DTYPES
