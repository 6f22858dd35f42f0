"""A yes/no answer to "does this match the schema?", compiled once, fast on the happy path.

jsonschema walks a document at about ten microseconds a node, which made schema validation
the largest cost of a run and of every submission. Most documents are valid, and for those
only a yes is needed. This module compiles the keywords our schemas use into closures that
answer yes or no; a *no* is handed to jsonschema, so every message still comes from the
reference validator. A keyword this compiler does not know raises at compile time instead
of being ignored, and tests compare the two answers on generated documents.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

# Keywords that say something about a schema but constrain nothing.
ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description", "default", "examples"})

_TYPES: dict[str, Check] = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "number": lambda x: isinstance(x, int | float) and not isinstance(x, bool),
    # JSON Schema counts 1.0 as an integer; jsonschema does too
    "integer": lambda x: (
        (isinstance(x, int) and not isinstance(x, bool))
        or (isinstance(x, float) and x.is_integer())
    ),
}


class UnsupportedSchema(ValueError):
    """The schema uses a keyword or form this compiler does not implement."""


def equal(a: Any, b: Any) -> bool:
    """JSON equality as jsonschema decides it: true is not 1, but 1 is 1.0."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, list | dict) or isinstance(b, list | dict):
        return False
    return bool(a == b)


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def compile_schema(schema: dict[str, Any]) -> Check:
    """A function that says whether an instance is valid under ``schema`` (draft 2020-12)."""
    defs: dict[str, Any] = schema.get("$defs", {})
    compiled_defs: dict[str, Check] = {}

    def ref(target: str) -> Check:
        if not target.startswith("#/$defs/") or target.removeprefix("#/$defs/") not in defs:
            raise UnsupportedSchema(f"$ref {target!r}: only #/$defs/<name> is supported")
        name = target.removeprefix("#/$defs/")

        def check(x: Any) -> bool:  # looked up at call time: definitions may recurse
            if name not in compiled_defs:
                compiled_defs[name] = compile_node(defs[name])
            return compiled_defs[name](x)

        return check

    def compile_node(node: Any) -> Check:
        if node is True:
            return lambda x: True
        if node is False:
            return lambda x: False
        if not isinstance(node, dict):
            raise UnsupportedSchema(f"a schema must be an object or a boolean, got {node!r}")
        checks: list[Check] = []
        for key, value in node.items():
            if key in ANNOTATIONS:
                continue
            build = _KEYWORDS.get(key)
            if build is None:
                raise UnsupportedSchema(f"keyword {key!r} is not supported")
            checks.append(build(value, node, compile_node, ref))
        if len(checks) == 1:
            return checks[0]

        def every(x: Any) -> bool:
            # a plain loop: all() over a generator costs a frame per check, on every node
            for check in checks:  # noqa: SIM110
                if not check(x):
                    return False
            return True

        return every

    return compile_node(schema)


Compile = Callable[[Any], Check]
Ref = Callable[[str], Check]
Builder = Callable[[Any, dict[str, Any], Compile, Ref], Check]


def _type(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    names = value if isinstance(value, list) else [value]
    tests = [_TYPES[n] for n in names]
    if len(tests) == 1:
        return tests[0]  # the common case, without a generator per node

    def check(x: Any) -> bool:
        for test in tests:  # noqa: SIM110 - a loop, not any(): see every()
            if test(x):
                return True
        return False

    return check


def _properties(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    props = {k: comp(v) for k, v in value.items()}

    def check(x: Any) -> bool:
        if isinstance(x, dict):
            for k, v in x.items():
                sub = props.get(k)
                if sub is not None and not sub(v):
                    return False
        return True

    return check


def _additional(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    if "patternProperties" in node:
        raise UnsupportedSchema("patternProperties is not supported")
    known = set(node.get("properties", {}))
    sub = comp(value)

    def check(x: Any) -> bool:
        if isinstance(x, dict):
            for k, v in x.items():
                if k not in known and not sub(v):
                    return False
        return True

    return check


def _required(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    return lambda x: not isinstance(x, dict) or all(k in x for k in value)


def _items(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    if "prefixItems" in node or isinstance(value, list):
        raise UnsupportedSchema("prefixItems / array-form items are not supported")
    sub = comp(value)

    def check(x: Any) -> bool:
        if isinstance(x, list):
            for v in x:
                if not sub(v):
                    return False
        return True

    return check


def _enum(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    return lambda x: any(equal(x, v) for v in value)


def _const(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    return lambda x: equal(x, value)


def _pattern(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    rx = re.compile(value)
    return lambda x: not isinstance(x, str) or rx.search(x) is not None


def _minimum(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    # "x < minimum" fails, as in jsonschema (so a NaN, which compares false, passes here too)
    return lambda x: not _is_number(x) or not x < value


def _min_length(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    return lambda x: not isinstance(x, str) or len(x) >= value


def _max_length(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    return lambda x: not isinstance(x, str) or len(x) <= value


def _min_items(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    return lambda x: not isinstance(x, list) or len(x) >= value


def _min_properties(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    return lambda x: not isinstance(x, dict) or len(x) >= value


def _max_properties(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    return lambda x: not isinstance(x, dict) or len(x) <= value


def _any_of(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    subs = [comp(v) for v in value]
    return lambda x: any(s(x) for s in subs)


def _one_of(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    subs = [comp(v) for v in value]
    return lambda x: sum(1 for s in subs if s(x)) == 1


def _if(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    condition = comp(value)
    then = comp(node.get("then", True))
    otherwise = comp(node.get("else", True))
    return lambda x: then(x) if condition(x) else otherwise(x)


def _ignored(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    return lambda x: True  # "then" and "else" act only through "if"


def _dependent_required(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    def check(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        return all(all(d in x for d in deps) for key, deps in value.items() if key in x)

    return check


def _dependent_schemas(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    subs = {k: comp(v) for k, v in value.items()}

    def check(x: Any) -> bool:
        if not isinstance(x, dict):
            return True
        return all(sub(x) for key, sub in subs.items() if key in x)

    return check


def _ref(value: Any, node: dict[str, Any], comp: Compile, ref: Ref) -> Check:
    return ref(value)


_KEYWORDS: dict[str, Builder] = {
    "type": _type,
    "properties": _properties,
    "additionalProperties": _additional,
    "required": _required,
    "items": _items,
    "enum": _enum,
    "const": _const,
    "pattern": _pattern,
    "minimum": _minimum,
    "minLength": _min_length,
    "maxLength": _max_length,
    "minItems": _min_items,
    "minProperties": _min_properties,
    "maxProperties": _max_properties,
    "anyOf": _any_of,
    "oneOf": _one_of,
    "if": _if,
    "then": _ignored,
    "else": _ignored,
    "dependentRequired": _dependent_required,
    "dependentSchemas": _dependent_schemas,
    "$ref": _ref,
}
