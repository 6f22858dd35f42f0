"""Parse YAML that may be hostile, keeping the line of every value.

Claim files and learner submissions both go through here. Only plain data is accepted
(mappings, sequences, strings, numbers, booleans, null): no Python tags, no timestamps
turned into objects, no binary. Duplicate keys are reported instead of silently keeping the
last one, and alias expansion is bounded before anything is constructed, so an alias bomb
is refused in time proportional to the file, not to its expansion.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import yaml

from runner.i18n import Msg, msg

# libyaml's parser when PyYAML was built with it (it is in the wheels); the pure-Python
# one otherwise. Only the parser differs: resolving and constructing stay SafeLoader's.
if TYPE_CHECKING:
    _BaseLoader = yaml.SafeLoader
else:
    _BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

Path = tuple[str | int, ...]

MAX_BYTES = 1_000_000
MAX_NODES = 100_000
_TAG = "tag:yaml.org,2002:"
_STR, _SEQ, _MAP = _TAG + "str", _TAG + "seq", _TAG + "map"
_PLAIN_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null", "seq", "map")}


_IMPLICIT = {
    first: [(tag, rx) for tag, rx in resolvers if tag != _TAG + "timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
# a plain scalar's candidate tags by its first character ("" for the empty scalar), with the
# resolvers that apply to any first character appended, as BaseResolver.resolve tries them
_BY_FIRST = {
    first: tuple(resolvers + _IMPLICIT.get(None, [])) for first, resolvers in _IMPLICIT.items()
}
_ANY_FIRST = tuple(_IMPLICIT.get(None, []))


class _Loader(_BaseLoader):
    """SafeLoader without the implicit timestamp resolver: dates stay strings."""

    yaml_implicit_resolvers = _IMPLICIT

    def resolve(self, kind: type[yaml.Node], value: Any, implicit: tuple[bool, bool]) -> str:
        # BaseResolver.resolve without its path resolvers (SafeLoader has none) and without
        # building a list per scalar: the composer calls this for every node.
        if kind is yaml.ScalarNode:
            if implicit[0]:
                for tag, regexp in _BY_FIRST.get(value[:1], _ANY_FIRST):
                    if regexp.match(value):
                        return str(tag)
            return _STR
        return _SEQ if kind is yaml.SequenceNode else _MAP


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
    lines: dict[Path, int] = field(default_factory=dict)
    # how deep containers nest; None when aliases make the text an underestimate
    depth: int | None = 0

    def line_of(self, path: Path) -> int | None:
        """The line of ``path``, or of its closest ancestor that has one."""
        for end in range(len(path), -1, -1):
            line = self.lines.get(path[:end])
            if line is not None:
                return line
        return None


def parse(text: str | bytes, *, max_bytes: int = MAX_BYTES, max_nodes: int = MAX_NODES) -> Document:
    """Parse one YAML document (JSON is YAML too) into plain data, or raise YamlError."""
    size = len(text.encode("utf-8") if isinstance(text, str) else text)
    if size > max_bytes:
        raise YamlError([Problem(None, msg("yaml.size", size=f"{size:,}", limit=f"{max_bytes:,}"))])
    if isinstance(text, bytes):
        raw = text
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            at = raw.count(b"\n", 0, exc.start) + 1
            raise YamlError(
                [Problem(at, msg("yaml.not_utf8", byte=exc.start, value=f"{raw[exc.start]:#04x}"))]
            ) from None
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return Document(None, {(): 1})
        problems, lines, data, depth = _build(loader, node, max_nodes)
        if problems:
            raise YamlError(problems)
        return Document(data, lines, depth)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        what = " ".join(s for s in (exc.context, exc.problem) if s)
        if mark is not None and "\t" in _source_line(text, mark.line)[: mark.column + 1]:
            raise YamlError([Problem(line, msg("yaml.syntax_tab", what=what))]) from None
        raise YamlError([Problem(line, msg("yaml.syntax", what=what))]) from None
    except yaml.YAMLError as exc:
        raise YamlError([Problem(None, msg("yaml.syntax", what=str(exc)[:200]))]) from None
    except RecursionError:
        raise YamlError([Problem(None, msg("yaml.too_deep"))]) from None
    finally:
        loader.dispose()


def _source_line(text: str, index: int) -> str:
    lines = text.splitlines()
    return lines[index] if 0 <= index < len(lines) else ""


def _build(
    loader: _Loader, root: yaml.Node, max_nodes: int
) -> tuple[list[Problem], dict[Path, int], Any, int | None]:
    """One pass over the composed nodes: (problems, lines, data, depth).

    Refuses non-plain tags and duplicate keys, records the line of every path and builds the
    data SafeLoader's ``construct_document`` would build (an alias is the same object twice)
    without its generic bookkeeping, which cost as much as the rest of the parse. When the
    document has aliases, their expanded size is bounded afterwards, and ``depth`` (how deep
    containers nest) is None: through an alias the data can nest deeper than the text.
    """
    problems: list[Problem] = []
    lines: dict[Path, int] = {}
    made: dict[int, Any] = {}  # node id -> its value: an alias is a node met before
    aliases = False
    depth = 0
    unhashable: tuple[yaml.Node, yaml.Node] | None = None

    def build(node: yaml.Node, path: Path) -> Any:
        nonlocal aliases, depth, unhashable
        lines.setdefault(path, node.start_mark.line + 1)
        key = id(node)
        if key in made:  # an alias: its lines were recorded under its first path
            aliases = True
            return made[key]
        tag = node.tag
        if tag not in _PLAIN_TAGS:
            where = node.start_mark.line + 1
            problems.append(Problem(where, msg("yaml.tag", tag=tag.replace(_TAG, "!!")), path))
            made[key] = None
            return None
        if isinstance(node, yaml.ScalarNode):
            # str as it is; int, float, bool, null by SafeLoader's own rules (0x1f, 1_000, .inf)
            value = node.value if tag == _STR else loader.yaml_constructors[tag](loader, node)
            made[key] = value
            return value
        depth = max(depth, len(path) + 1)
        if isinstance(node, yaml.SequenceNode):
            items: list[Any] = []
            made[key] = items
            items.extend(build(item, (*path, i)) for i, item in enumerate(node.value))
            return items
        mapping: dict[Any, Any] = {}
        made[key] = mapping
        first: dict[Any, int] = {}
        for key_node, value_node in node.value:
            line = key_node.start_mark.line + 1
            name = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
            built = build(key_node, path)  # a key's tag is checked like any value's
            # a duplicate is a key SafeLoader would silently merge with an earlier one: equal
            # once built (1, 1.0 and true are one key; 'false' and false are two)
            if name is not None and key_node.tag in _PLAIN_TAGS:
                if built in first:
                    problems.append(
                        Problem(line, msg("yaml.duplicate_key", key=name, first=first[built]), path)
                    )
                else:
                    first[built] = line
            sub = (*path, name if name is not None else "?")
            value = build(value_node, sub)
            lines[sub] = line
            if isinstance(built, Hashable):
                mapping[built] = value
            elif unhashable is None:
                unhashable = (node, key_node)  # SafeLoader's error, unless worse is found
        return mapping

    data = build(root, ())
    if problems:
        return problems, lines, None, None
    if unhashable is not None:
        mapping_node, key_node = unhashable
        raise yaml.constructor.ConstructorError(
            "while constructing a mapping",
            mapping_node.start_mark,
            "found unhashable key",
            key_node.start_mark,
        )
    if aliases:
        # Only a document with aliases can expand beyond its own size or contain itself.
        # The pass above met each node once, so it was linear even for an alias bomb.
        cycle, total = _expansion(root)
        if cycle is not None:
            return [Problem(cycle.start_mark.line + 1, msg("yaml.cycle"))], {}, None, None
        if total > max_nodes:
            return [Problem(None, msg("yaml.expands", n=f"{max_nodes:,}"))], {}, None, None
    return problems, lines, data, None if aliases else depth


def _expansion(root: yaml.Node) -> tuple[yaml.Node | None, int]:
    """(a node that contains itself, or None; how many nodes the document expands to)."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()  # the nodes being expanded: meeting one again is a cycle
    cycles: list[yaml.Node] = []

    def expanded(node: yaml.Node) -> int:
        # Memoised on node identity: an alias points at the same node object, so this is
        # linear in the file even when the expansion would be exponential.
        key = id(node)
        if key in open_nodes:
            cycles.append(node)
            return 1
        if key not in sizes:
            open_nodes.add(key)
            sizes[key] = 1 + sum(expanded(child) for child in _children(node))
            open_nodes.discard(key)
        return sizes[key]

    total = expanded(root)
    return (cycles[0] if cycles else None), total


def _children(node: yaml.Node) -> Iterator[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield key
            yield value
    elif isinstance(node, yaml.SequenceNode):
        yield from node.value
