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

from runner.i18n import t

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
_STR = _TAG + "str"
_PLAIN_TAGS = {_TAG + t for t in ("str", "int", "float", "bool", "null", "seq", "map")}


class _Loader(_BaseLoader):
    """SafeLoader without the implicit timestamp resolver: dates stay strings."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != _TAG + "timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


@dataclass(frozen=True)
class Problem:
    line: int | None
    message: str
    path: Path = ()


class YamlError(Exception):
    """The text is not acceptable YAML; ``problems`` lists every reason found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("; ".join(p.message for p in problems))


@dataclass
class Document:
    data: Any
    lines: dict[Path, int] = field(default_factory=dict)

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
        raise YamlError([Problem(None, t("yaml.size", size=f"{size:,}", limit=f"{max_bytes:,}"))])
    if isinstance(text, bytes):
        raw = text
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            at = raw.count(b"\n", 0, exc.start) + 1
            bad = f"byte {exc.start} is {raw[exc.start]:#04x}"
            raise YamlError([Problem(at, f"not UTF-8 text ({bad})")]) from None
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return Document(None, {(): 1})
        problems, lines = _inspect(node, max_nodes)
        if problems:
            raise YamlError(problems)
        return Document(_construct(loader, node, {}), lines)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        what = " ".join(s for s in (exc.context, exc.problem) if s)
        if mark is not None and "\t" in _source_line(text, mark.line)[: mark.column + 1]:
            what += " (a tab? YAML indents with spaces only)"
        raise YamlError([Problem(line, t("yaml.syntax", what=what))]) from None
    except yaml.YAMLError as exc:
        raise YamlError([Problem(None, f"YAML error: {exc}")]) from None
    except RecursionError:
        raise YamlError([Problem(None, t("yaml.too_deep"))]) from None
    finally:
        loader.dispose()


def _source_line(text: str, index: int) -> str:
    lines = text.splitlines()
    return lines[index] if 0 <= index < len(lines) else ""


def _inspect(root: yaml.Node, max_nodes: int) -> tuple[list[Problem], dict[Path, int]]:
    """Bound the expanded size, refuse non-plain tags and duplicate keys, record lines."""
    problems: list[Problem] = []
    lines: dict[Path, int] = {}
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

    seen: set[int] = set()
    aliases = [False]

    def walk(node: yaml.Node, path: Path) -> None:
        lines.setdefault(path, node.start_mark.line + 1)
        if id(node) in seen:  # an alias: its lines were recorded under its first path
            aliases[0] = True
            return
        seen.add(id(node))
        if node.tag not in _PLAIN_TAGS:
            tag = node.tag.replace(_TAG, "!!")
            problems.append(Problem(node.start_mark.line + 1, t("yaml.tag", tag=tag), path))
            return
        if isinstance(node, yaml.MappingNode):
            keys: dict[Any, int] = {}
            for key_node, value_node in node.value:
                key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
                line = key_node.start_mark.line + 1
                if key is not None and key in keys:
                    problems.append(
                        Problem(line, t("yaml.duplicate_key", key=key, first=keys[key]), path)
                    )
                elif key is not None:
                    keys[key] = line
                if key_node.tag not in _PLAIN_TAGS:
                    walk(key_node, path)
                walk(value_node, (*path, key if key is not None else "?"))
                lines[(*path, key if key is not None else "?")] = line
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                walk(item, (*path, i))

    walk(root, ())
    if aliases[0]:
        # Only a document with aliases can expand beyond its own size or contain itself.
        # The walk above visited each node once, so it was linear even for an alias bomb.
        total = expanded(root)
        if cycles:
            return [Problem(cycles[0].start_mark.line + 1, t("yaml.cycle"))], {}
        if total > max_nodes:
            return [Problem(None, t("yaml.expands", n=f"{max_nodes:,}"))], {}
    return problems, lines


def _construct(loader: _Loader, node: yaml.Node, made: dict[int, Any]) -> Any:
    """The data of a node that passed :func:`_inspect` (plain tags only, no cycle).

    Builds what SafeLoader's ``construct_document`` builds, an alias included (the same
    object twice), but in one recursive pass: the generic constructor's bookkeeping was
    half of the time spent on a claim file.
    """
    key = id(node)
    if key in made:  # an alias of a sequence or mapping built already
        return made[key]
    if isinstance(node, yaml.ScalarNode):
        if node.tag == _STR:
            return node.value
        # int, float, bool, null: SafeLoader's own conversions (0x1f, 1_000, .inf, ~, …)
        return loader.yaml_constructors[node.tag](loader, node)
    if isinstance(node, yaml.SequenceNode):
        items: list[Any] = []
        made[key] = items
        items.extend(_construct(loader, item, made) for item in node.value)
        return items
    mapping: dict[Any, Any] = {}
    made[key] = mapping
    for key_node, value_node in node.value:
        name = _construct(loader, key_node, made)
        if not isinstance(name, Hashable):
            raise yaml.constructor.ConstructorError(
                "while constructing a mapping",
                node.start_mark,
                "found unhashable key",
                key_node.start_mark,
            )
        mapping[name] = _construct(loader, value_node, made)
    return mapping


def _children(node: yaml.Node) -> Iterator[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield key
            yield value
    elif isinstance(node, yaml.SequenceNode):
        yield from node.value
