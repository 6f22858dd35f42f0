"""YAML that may be hostile, as plain data: libyaml's SafeLoader with our policy on top.

Claim files and learner submissions both come through here. On top of ``CSafeLoader``: only
plain tags (str, int, float, bool, null, seq, map; no ``<<`` merges, no binary, no sets),
no timestamps (a date stays the string it was), a duplicate key is a problem (a key
SafeLoader would silently merge with an earlier one: 1, 1.0 and true are one key), integers
of at most ``max_digits`` digits, a size limit. Aliases are refused outright where the caller
says so (submissions never need them); elsewhere their expansion is bounded before anything
is built. Every problem is a message with its line and path, all of them at once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import yaml

from runner.i18n import Msg, msg

Path = tuple[str | int, ...]

MAX_BYTES = 1_000_000
MAX_NODES = 100_000
MAX_DIGITS = 1_000  # a count the chapter shows has at most dozens; Python refuses 4,300
# libyaml's phrases (English only) -> our catalogue's (yaml.libyaml.*), so a syntax error
# reads in the reader's language; a phrase not listed is shown as libyaml wrote it
LIBYAML_PHRASES = {
    "mapping values are not allowed in this context": "yaml.libyaml.mapping_here",
    "mapping values are not allowed here": "yaml.libyaml.mapping_here2",
    "did not find expected key": "yaml.libyaml.expected_key",
    "did not find expected ',' or '}'": "yaml.libyaml.expected_brace",
    "did not find expected ',' or ']'": "yaml.libyaml.expected_bracket",
    "could not find expected ':'": "yaml.libyaml.expected_colon",
    "did not find expected '-' indicator": "yaml.libyaml.expected_dash",
    "did not find expected node content": "yaml.libyaml.expected_node",
    "found character that cannot start any token": "yaml.libyaml.bad_token",
    "found a tab character that violates indentation": "yaml.libyaml.tab_indent",
    "found a tab character where an indentation space is expected": "yaml.libyaml.tab_space",
    "found unknown escape character": "yaml.libyaml.bad_escape",
    "found unexpected end of stream": "yaml.libyaml.end_of_stream",
    "found undefined tag handle": "yaml.libyaml.tag_handle",
    "found unknown directive name": "yaml.libyaml.directive",
    "but found another document": "yaml.libyaml.another_document",
    "found undefined alias": "yaml.libyaml.undefined_alias",
    "block sequence entries are not allowed in this context": "yaml.libyaml.block_entries",
    "while parsing a block mapping": "yaml.libyaml.ctx.block_mapping",
    "while parsing a block collection": "yaml.libyaml.ctx.block_collection",
    "while parsing a flow mapping": "yaml.libyaml.ctx.flow_mapping",
    "while parsing a flow sequence": "yaml.libyaml.ctx.flow_sequence",
    "while scanning for the next token": "yaml.libyaml.ctx.next_token",
    "while parsing a quoted scalar": "yaml.libyaml.ctx.quoted_parse",
    "while scanning a quoted scalar": "yaml.libyaml.ctx.quoted_scan",
    "while scanning a simple key": "yaml.libyaml.ctx.simple_key",
    "while scanning a block scalar": "yaml.libyaml.ctx.block_scalar",
    "while parsing a node": "yaml.libyaml.ctx.node",
    "while parsing a block node": "yaml.libyaml.ctx.block_node",
    "while parsing a flow node": "yaml.libyaml.ctx.flow_node",
    "while scanning a directive": "yaml.libyaml.ctx.directive",
    "while scanning a tag": "yaml.libyaml.ctx.tag",
    "expected a single document in the stream": "yaml.libyaml.ctx.single_document",
}


_TAG = "tag:yaml.org,2002:"
_STR, _INT, _SEQ, _MAP = (_TAG + t for t in ("str", "int", "seq", "map"))
_SCALAR_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null")}
_NODE_KIND = {_SEQ: yaml.SequenceNode, _MAP: yaml.MappingNode}


@dataclass(frozen=True)
class Problem:
    line: int | None
    message: Msg
    path: Path = ()


class YamlError(Exception):
    """The text is not acceptable YAML; ``problems`` lists every reason found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(p.message.code for p in problems))


@dataclass
class Document:
    data: Any
    lines: dict[Path, int] = field(default_factory=dict)  # empty unless asked for
    depth: int | None = None  # how deep containers nest in the data (with ``lines``)

    def line_of(self, path: Path) -> int | None:
        """The line of ``path``, or of its closest ancestor that has one."""
        for end in range(len(path), -1, -1):
            line = self.lines.get(path[:end])
            if line is not None:
                return line
        return None


# SafeLoader's implicit resolvers without the timestamp one: a date stays the string it was.
_RESOLVERS = {
    first: [(tag, rx) for tag, rx in resolvers if tag != _TAG + "timestamp"]
    for first, resolvers in yaml.CSafeLoader.yaml_implicit_resolvers.items()
}
# a plain scalar's candidates by its first character ("" for the empty scalar), followed by
# those for any first character, in the order BaseResolver.resolve tries them
_ANY_FIRST = tuple(_RESOLVERS.get(None, []))
_BY_FIRST = {first: (*resolvers, *_ANY_FIRST) for first, resolvers in _RESOLVERS.items()}


# YAML 1.2's core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution): what JSON
# means by a number is a number (1e3, -.5E-2), and nothing else is: no sexagesimal 1:20, no
# octal 017 (it is 17), no 1_000, no yes/no/on/off; 0o17 and 0x1F are integers, .inf and
# .nan floats. Tried in this order, by the scalar's first character.
_CORE_NULL = re.compile(r"(?:~|null|Null|NULL|)\Z")
_CORE_BOOL = re.compile(r"(?:true|True|TRUE|false|False|FALSE)\Z")
_CORE_INT = re.compile(r"(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)\Z")
_CORE_FLOAT = re.compile(
    r"(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\Z"
)
_NULL, _BOOL, _FLOAT = (_TAG + t for t in ("null", "bool", "float"))
_CORE: dict[str, tuple[tuple[str, re.Pattern[str]], ...]] = {
    **{c: ((_INT, _CORE_INT), (_FLOAT, _CORE_FLOAT)) for c in "-+0123456789"},
    ".": ((_FLOAT, _CORE_FLOAT),),
    **{c: ((_NULL, _CORE_NULL),) for c in "~nN"},
    "": ((_NULL, _CORE_NULL),),
    **{c: ((_BOOL, _CORE_BOOL),) for c in "tTfF"},
    "<": ((_TAG + "merge", re.compile(r"<<\Z")),),  # not core: a "<<" is refused as a merge
}


def _core_tag(value: str) -> str:
    """A plain scalar's tag under YAML 1.2's core schema."""
    for tag, regexp in _CORE.get(value[:1], ()):
        if regexp.match(value):
            return tag
    return _STR


def _yaml11_tag(value: str) -> str:
    """A plain scalar's tag as SafeLoader resolves it (without timestamps)."""
    for tag, regexp in _BY_FIRST.get(value[:1], _ANY_FIRST):
        if regexp.match(value):
            return str(tag)
    return _STR


# plain scalars up to this length have their tag remembered, the last 4,096 of each schema:
# a few MiB at most (48 four-byte characters each), however many files a process parses
_REMEMBERED_LENGTH = 48
_core_tag_remembered = functools.lru_cache(maxsize=4096)(_core_tag)
_yaml11_tag_remembered = functools.lru_cache(maxsize=4096)(_yaml11_tag)
_SCALAR_NODE, _SEQUENCE_NODE = yaml.ScalarNode, yaml.SequenceNode
_NOTHING: dict[Any, Any] = {}  # stays empty: .get(parent, index) looks up a node, finds nothing


def _core_value(tag: str, text: str) -> Any:
    """A scalar's value under the core schema (explicit tags included: !!int 017 is 17);
    ValueError when the text is not one of the tag's."""
    if tag == _NULL and _CORE_NULL.match(text):
        return None
    if tag == _BOOL and _CORE_BOOL.match(text):
        return text.lower() == "true"
    if tag == _INT and _CORE_INT.match(text):
        if text.startswith(("0o", "0x")):
            return int(text[2:], 8 if text[1] == "o" else 16)
        return int(text)
    if tag == _FLOAT and _CORE_FLOAT.match(text):
        lowered = text.lower()
        if lowered.endswith((".inf", ".nan")):
            return float(lowered.replace(".", ""))
        return float(text)
    raise ValueError(text)


class _Loader(yaml.CSafeLoader):
    def __init__(
        self, text: str, *, string_keys: bool, max_digits: int, core: bool = False
    ) -> None:
        super().__init__(text)
        self.yaml_implicit_resolvers = _RESOLVERS
        self.string_keys = string_keys
        self.max_digits = max_digits
        self.core = core
        self._plain, self._remembered = (
            (_core_tag, _core_tag_remembered) if core else (_yaml11_tag, _yaml11_tag_remembered)
        )
        self.found: list[tuple[yaml.Node, int, Msg]] = []  # (where, line, what)

    # libyaml's composer calls these around every node, for path resolvers (SafeLoader has
    # none): two Python calls a node were a tenth of a submission's parse. Callables written
    # in C that take the same arguments and do nothing with them.
    # (what they return is not read; the stubs say None, hence the ignores)
    descend_resolver = _NOTHING.get  # type: ignore[assignment]  # (parent, index) -> index
    ascend_resolver = tuple  # type: ignore[assignment]  # () -> ()

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: tuple[bool, bool]) -> str:
        # BaseResolver.resolve without path resolvers and without joining two lists for
        # every scalar: libyaml's composer calls this for each node. A short plain scalar's
        # tag is remembered (keys and small numbers recur from file to file); a long one is
        # matched each time, so what is remembered stays small.
        if kind is _SCALAR_NODE:
            if implicit[0]:
                if len(value) <= _REMEMBERED_LENGTH:
                    return self._remembered(value)
                return self._plain(value)
            return _STR
        return _SEQ if kind is _SEQUENCE_NODE else _MAP

    def problem(self, node: yaml.Node, message: Msg, line: int | None = None) -> None:
        self.found.append((node, line or node.start_mark.line + 1, message))

    def scalar(self, node: yaml.Node) -> Any:
        """A scalar's value under the policy; None, with its problem, when it is refused
        (so is a collection under a scalar's tag, or a scalar under a collection's)."""
        tag = node.tag
        if tag == _STR and type(node) is yaml.ScalarNode:
            return node.value
        if tag not in _SCALAR_TAGS and tag not in _NODE_KIND:
            self.problem(node, msg("yaml.tag", tag=_short_tag(tag)))
            return None
        if tag in _NODE_KIND or type(node) is not yaml.ScalarNode:  # !!seq a, !!str [1]
            self.problem(node, msg("yaml.bad_value", tag=_short_tag(tag), value=_text(node)))
            return None
        digits = len(node.value.lstrip("+-")) if tag == _INT else 0  # a sign is no digit
        if digits > self.max_digits:
            self.problem(node, msg("yaml.digits", n=digits, limit=self.max_digits, unit="count"))
            return None
        try:  # an explicit tag may hold anything: !!int abc, !!bool maybe, !!float ''
            if self.core:
                return _core_value(tag, node.value)
            return self.yaml_constructors[tag](self, node)
        except (ValueError, KeyError, IndexError):
            self.problem(node, msg("yaml.bad_value", tag=_short_tag(tag), value=node.value[:60]))
            return None

    def build(self, root: yaml.Node, shared: bool, built: dict[int, Any] | None = None) -> Any:
        """The data of ``root``: what SafeConstructor builds, without its generators and
        per-node bookkeeping (they were a third of a submission's parse), and with a stack,
        not recursion, so a value nested as deep as libyaml allows is built. ``shared``: the
        document has aliases, so a node met twice is built once and is one object twice, as
        SafeLoader does. A mapping is built as SafeConstructor's loop without
        flatten_mapping (a "<<" key is a !!merge tag, refused), and with the duplicates it
        would silently merge reported."""
        built = {} if built is None else built
        frames: list[_Frame] = []
        top = self._open(root, built, shared, frames)
        while frames:
            node, into, children, first = frames[-1]
            child = next(children, None)
            if child is None:
                frames.pop()
                continue
            value_node = child
            if first is not None:
                key_node, value_node = child
                if key_node.tag == _STR and type(key_node) is yaml.ScalarNode:
                    key = key_node.value
                else:
                    key = self._key(key_node, built, shared)
                line = key_node.start_mark.line + 1
                if key in first:  # said at the mapping's path (a key's node may be an alias)
                    dup = msg("yaml.duplicate_key", key=_text(key_node), first=first[key])
                    self.problem(node, dup, line)
                else:
                    first[key] = line
            # a string, the most common node, inline: it has no problem to find
            if value_node.tag == _STR and type(value_node) is yaml.ScalarNode:
                value = value_node.value
            else:
                value = self._open(value_node, built, shared, frames)
            if first is None:
                into.append(value)
            else:
                into[key] = value
        return top

    def _open(
        self, node: yaml.Node, built: dict[int, Any], shared: bool, frames: list[_Frame]
    ) -> Any:
        """A scalar's value, or a new empty collection, to be filled from ``frames``."""
        if shared and id(node) in built:
            return built[id(node)]
        kind = type(node)
        if kind is yaml.ScalarNode or _NODE_KIND.get(node.tag) is not kind:
            value = self.scalar(node)
        elif kind is yaml.SequenceNode:
            value = []
            frames.append((node, value, iter(node.value), None))
        else:
            value = {}
            frames.append((node, value, iter(node.value), {}))
        if shared:
            built[id(node)] = value
        return value

    def _key(self, node: yaml.Node, built: dict[int, Any], shared: bool) -> Hashable:
        known = len(self.found)
        # built whole, before its value (a collection as a key is rare, and unhashable); a
        # key met twice (an alias) is built once, as a value is
        key = self.build(node, shared, built)
        if self.string_keys and not isinstance(key, str) and len(self.found) == known:
            self.problem(node, msg("yaml.key_not_string", key=_text(node)))
            key = _text(node)
        if not isinstance(key, Hashable):
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping", None, "found unhashable key", node.start_mark
            )
        return key


# a collection being filled: (its node, it, its children's nodes or key-value pairs, the line
# each key was first met on, for a mapping)
_Frame = tuple[yaml.Node, Any, Iterator[Any], dict[Hashable, int] | None]


def parse(
    text: str | bytes,
    *,
    max_bytes: int = MAX_BYTES,
    max_nodes: int = MAX_NODES,
    max_digits: int = MAX_DIGITS,
    aliases: bool = True,
    lines: bool = True,
    string_keys: bool = False,
    core_schema: bool = False,
) -> Document:
    """One YAML document (JSON is YAML too) as plain data, or raise YamlError.

    ``aliases=False`` refuses any anchor or alias; otherwise the document may expand to at
    most ``max_nodes`` nodes. ``lines`` records the line of every path (claim files report
    problems by line). ``string_keys`` makes a key that is not a string a problem (JSON's
    data model; the key is kept as its text). ``core_schema`` resolves plain scalars as
    YAML 1.2's core schema does (as JSON reads numbers), not as YAML 1.1 (SafeLoader).
    """
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if len(raw) > max_bytes:
        raise YamlError(
            [Problem(None, msg("yaml.size", size=len(raw), limit=max_bytes, unit="bytes"))]
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        at = raw.count(b"\n", 0, exc.start) + 1
        bad = msg("yaml.not_utf8", byte=exc.start, value=f"{raw[exc.start]:#04x}")
        raise YamlError([Problem(at, bad)]) from None
    loader = _Loader(text, string_keys=string_keys, max_digits=max_digits, core=core_schema)
    try:
        if not aliases and ("&" in text or "*" in text):  # without both, no anchor or alias
            _refuse_anchors(text)
        node = loader.get_single_node()
        if node is None:
            return Document(None, {(): 1} if lines else {}, 0)
        # the walk is linear however far aliases expand; without an alias (no node reached
        # twice) it has counted the nodes, and the expansion need not be bounded apart
        walked = _walk(node) if lines else None
        height = None
        if aliases:
            if walked is None or walked.references > len(walked.where):
                height = _bounded(node, max_nodes)
            elif len(walked.where) > max_nodes:
                raise _expands(max_nodes)
        data = loader.build(node, shared=aliases and "*" in text)
        if loader.found or lines:
            where, line_of, depth, _ = walked or _walk(node)
            if loader.found:
                found = sorted(loader.found, key=lambda f: f[1])
                raise YamlError([Problem(line, m, where.get(id(n), ())) for n, line, m in found])
            return Document(data, line_of, depth if height is None else height)
        return Document(data)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        what = _phrase(exc.problem or "")
        tab = mark is not None and "\t" in _source_line(text, mark.line)[: mark.column + 1]
        if tab:
            problem = msg("yaml.syntax_tab", what=what)
        elif exc.context:
            problem = msg("yaml.syntax_context", context=_phrase(exc.context), what=what)
        else:
            problem = msg("yaml.syntax", what=what)
        raise YamlError([Problem(line, problem)]) from None
    except yaml.YAMLError as exc:  # the reader's: a control character, ...
        what = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise YamlError([Problem(None, msg("yaml.syntax", what=what))]) from None
    except RecursionError:
        raise YamlError([Problem(None, msg("yaml.too_deep"))]) from None
    finally:
        loader.dispose()


def _phrase(text: str) -> Msg | str:
    """One of libyaml's phrases in the reader's language, when we know it."""
    code = LIBYAML_PHRASES.get(text)
    return msg(code) if code else text


def _refuse_anchors(text: str) -> None:
    """Raise YamlError at the first anchor or alias (the events hold them; nodes do not).
    One is enough to say that none are accepted; an alias bomb would list thousands."""
    events = yaml.CSafeLoader(text)
    try:
        while events.check_event():
            event = events.get_event()
            name = getattr(event, "anchor", None)
            if name is not None:
                code = "yaml.alias" if isinstance(event, yaml.AliasEvent) else "yaml.anchor"
                mark = event.start_mark if event is not None else None
                line = mark.line + 1 if mark is not None else None
                raise YamlError([Problem(line, msg(code, name=name[:60]))])
    finally:
        events.dispose()


class _Walk(NamedTuple):
    where: dict[int, Path]  # each node's first path
    lines: dict[Path, int]  # the line of every path
    depth: int  # how deep containers nest
    references: int  # to nodes: more than there are nodes when an alias names one again


def _expands(max_nodes: int) -> YamlError:
    return YamlError([Problem(None, msg("yaml.expands", n=max_nodes, unit="count"))])


def _walk(root: yaml.Node) -> _Walk:
    """Every node's path and line, how deep the document nests, and how many references
    to nodes it holds.

    A key's node has its mapping's path; an alias is not followed (its lines are those of
    its first path), so this is linear in the text however far the aliases expand.
    """
    where: dict[int, Path] = {}
    lines: dict[Path, int] = {}
    depth = 0
    reached = 1
    stack: list[tuple[Path, yaml.Node]] = [((), root)]
    while stack:
        path, node = stack.pop()
        lines.setdefault(path, node.start_mark.line + 1)
        if id(node) in where:
            continue
        where[id(node)] = path
        if isinstance(node, yaml.SequenceNode):
            depth = max(depth, len(path) + 1)
            reached += len(node.value)
            stack.extend(((*path, i), child) for i, child in enumerate(node.value))
        elif isinstance(node, yaml.MappingNode):
            depth = max(depth, len(path) + 1)
            reached += 2 * len(node.value)
            for key_node, value_node in node.value:
                where.setdefault(id(key_node), path)
                sub = (*path, _text(key_node))
                lines[sub] = key_node.start_mark.line + 1
                stack.append((sub, value_node))
    return _Walk(where, lines, depth, reached)


def _bounded(root: yaml.Node, max_nodes: int) -> int:
    """How deep the data nests once aliases are expanded; raises YamlError for a cycle or
    an expansion beyond ``max_nodes``. Memoised per node: linear even for an alias bomb."""
    sizes: dict[int, tuple[int, int]] = {}  # node -> (nodes it expands to, height)
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    open_nodes: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        children = _children(node)
        if done:
            open_nodes.discard(key)
            size = 1 + sum(sizes[id(c)][0] for c in children)
            height = 0
            if not isinstance(node, yaml.ScalarNode):
                height = 1 + max((sizes[id(c)][1] for c in children), default=0)
            sizes[key] = (size, height)
            if size > max_nodes:
                raise _expands(max_nodes)
            continue
        if key in sizes:
            continue
        if key in open_nodes:  # an alias inside the node it names
            raise YamlError([Problem(node.start_mark.line + 1, msg("yaml.cycle"))])
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in children if id(c) not in sizes)
    return sizes[id(root)][1]


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return list(node.value) if isinstance(node, yaml.SequenceNode) else []


def _text(node: yaml.Node) -> str:
    """A node as it is written, briefly: a scalar's text, or [...] / {...}."""
    if isinstance(node, yaml.ScalarNode):
        return str(node.value)
    return "[…]" if isinstance(node, yaml.SequenceNode) else "{…}"


def _short_tag(tag: str) -> str:
    tag = tag.replace(_TAG, "!!")
    return tag if len(tag) <= 100 else tag[:99] + "…"


def _source_line(text: str, index: int) -> str:
    lines = text.splitlines()
    return lines[index] if 0 <= index < len(lines) else ""


def number_as_text(value: Any) -> str | None:
    """How to write ``value``, a string YAML 1.1 read as text though it is a number as
    Python reads one (``1e-9``, ``1.5e9``: YAML 1.1 wants a point and a signed exponent,
    ``1.0e-9``), or None."""
    if not isinstance(value, str) or not re.fullmatch(
        r"[-+]?[0-9]+(\.[0-9]*)?[eE][-+]?[0-9]+", value
    ):
        return None
    mantissa, exponent = re.split("[eE]", value)
    if "." not in mantissa:
        mantissa += ".0"
    elif mantissa.endswith("."):
        mantissa += "0"
    if exponent[0] not in "+-":
        exponent = "+" + exponent
    return f"{mantissa}e{exponent}"
