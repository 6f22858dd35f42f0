"""What a learner implements: the chapter's functions a module's claims call, and the
scaffold file that declares them (stubs, or the reference solution in the same form)."""

from __future__ import annotations

import ast
import inspect
import textwrap
import types

from runner.i18n import Catalog
from runner.load import ClaimPack
from runner.pack import Registry


def module_subjects(packs: list[ClaimPack]) -> list[str]:
    """The chapter functions the modules' claims call, in the order the chapter meets them,
    each after the functions it uses (in its own module's pack)."""
    ordered: list[str] = []

    def add(name: str, registry: Registry) -> None:
        if name in ordered:
            return
        spec = registry.subjects.get(name)
        for dep in spec.uses if spec else ():
            add(dep, registry)
        ordered.append(name)

    for pack in packs:
        registry = pack.code.registry
        for loaded in pack.claims:
            spec = registry.resolve_check(loaded.claim.check)
            for name in spec.needs_of(loaded.claim.inputs):
                add(name, registry)
    return ordered


# -- scaffold -------------------------------------------------------------------------------
HEADER = '''"""{title}: {mine}

{run}

    python -m runner run claims/{module}/ --impl {filename}

{skipped}

{contract}"""

{preamble}'''


def scaffold(pack: ClaimPack, words: Catalog, *, reference: bool) -> str:
    """A Python file with every function the module's claims call, its header in ``words``'
    language: the module's title, how to run it, and the pack's contract text.

    Stubs keep the reference's signature and docstring and raise NotImplementedError; with
    ``reference`` the bodies are the reference's own, so the file passes every claim. Where
    the pack gives a function's docstring in ``words``' language (``Scaffold.docstrings``),
    that docstring replaces the reference's, in both forms.
    """
    registry = pack.code.registry
    text = pack.code.scaffold
    subjects = module_subjects([pack])
    contract = words.pick(text.contract).strip()
    header = HEADER.format(
        title=words.pick(pack.meta.title),
        mine=words("scaffold.mine"),
        run=words("scaffold.run"),
        module=pack.meta.id,
        filename="my_impl.py",
        skipped=words("scaffold.skipped"),
        contract=f"{contract}\n" if contract else "",
        preamble=text.preamble,
    )
    parts = [header]
    if reference:
        parts.extend(_helpers(subjects, registry, text.helpers or pack.code.code))
    for name in subjects:
        fn = registry.subjects[name].fn
        doc = text.docstring(words.lang, name)
        uses = set(registry.subjects[name].uses)
        parts.append(_reference_source(fn, doc, uses) if reference else _stub(name, registry, doc))
    return "\n\n\n".join(p.rstrip() for p in parts) + "\n"


def _reference_source(fn: object, doc: str | None = None, uses: set[str] | None = None) -> str:
    """The reference function's source, its decorators left out and, given ``doc``, its
    docstring replaced by that one. The keyword-only parameters through which it receives
    the subjects it ``uses`` are left out of its signature, as a stub leaves them out: in
    the scaffold those names are the file's own functions."""
    src = textwrap.dedent(inspect.getsource(fn))  # type: ignore[arg-type]
    lines = src.splitlines()
    while lines and lines[0].startswith("@"):
        lines.pop(0)
    if uses and uses & set(inspect.signature(fn).parameters):  # type: ignore[arg-type]
        lines = _without_parameters(lines, fn, uses)
    if doc is not None:
        lines = _with_docstring(lines, doc)
    return "\n".join(lines)


def _without_parameters(lines: list[str], fn: object, drop: set[str]) -> list[str]:
    """The source lines with the ``def`` line(s) written again without ``drop``."""
    (node,) = ast.parse("\n".join(lines)).body
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    body = node.body[0].lineno - 1  # the header is every line before the body's first
    name = getattr(fn, "__name__", node.name)
    header = f"def {name}({_parameters(fn, drop)}){_returns(fn)}:"
    if body <= node.lineno - 1:  # a one-line function: "def f(x): return x"
        return lines
    return [header, *lines[body:]]


def _with_docstring(lines: list[str], doc: str) -> list[str]:
    """A function's source lines with its docstring (or, if it has none, a new one before
    its body) replaced by ``doc``, indented as the body is."""
    (node,) = ast.parse("\n".join(lines)).body
    assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    first = node.body[0]
    indent = lines[first.lineno - 1][: first.col_offset]
    block = textwrap.indent(_docstring_block(doc), indent).splitlines()
    has_doc = (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    )
    start = first.lineno - 1
    end = (first.end_lineno or first.lineno) if has_doc else start
    return lines[:start] + block + lines[end:]


def _docstring_block(doc: str) -> str:
    doc = inspect.cleandoc(doc).replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    return f'"""{doc}\n"""' if "\n" in doc else f'"""{doc}"""'


def _stub(name: str, registry: Registry, doc: str | None = None) -> str:
    """``def name(<the learner's signature>):`` with the docstring (``doc`` when given, else
    the reference's) and NotImplementedError.

    The reference's keyword-only dependency parameters (how our composite functions receive
    a fault's twin) are not part of the learner's interface and are left out.
    """
    spec = registry.subjects[name]
    fn = spec.fn
    doc_block = _docstring_block(doc if doc is not None else inspect.getdoc(fn) or "")
    return (
        f"def {name}({_parameters(fn, set(spec.uses))}){_returns(fn)}:\n"
        f"{textwrap.indent(doc_block, '    ')}\n"
        "    raise NotImplementedError\n"
    )


def _annotation(value: object) -> str:
    return value if isinstance(value, str) else getattr(value, "__name__", repr(value))


def _parameters(fn: object, drop: set[str]) -> str:
    parts = []
    starred = False
    for p in inspect.signature(fn).parameters.values():  # type: ignore[arg-type]
        if p.name in drop:
            continue
        if p.kind is inspect.Parameter.KEYWORD_ONLY and not starred:
            parts.append("*")
            starred = True
        text = p.name
        if p.annotation is not inspect.Parameter.empty:
            text += f": {_annotation(p.annotation)}"
        if p.default is not inspect.Parameter.empty:
            text += f" = {p.default!r}"
        parts.append(text)
    return ", ".join(parts)


def _returns(fn: object) -> str:
    ret = inspect.signature(fn).return_annotation  # type: ignore[arg-type]
    return "" if ret is inspect.Signature.empty else f" -> {_annotation(ret)}"


def _helpers(subjects: list[str], registry: Registry, packages: tuple[str, ...]) -> list[str]:
    """Private module-level helpers the reference functions call (e.g. ``_softmax_last``,
    ``_integer``), wherever in the reference they are defined, and the helpers those call."""
    seen: list[str] = []
    done: set[object] = set()

    def visit(fn: object) -> None:
        module = inspect.getmodule(fn)
        code = getattr(fn, "__code__", None)
        if module is None or code is None:
            return
        for attr in sorted(_names(code)):
            value = getattr(module, attr, None)
            if (
                attr.startswith("_")
                and inspect.isfunction(value)
                and value.__module__.startswith(packages)
                and value not in done
            ):
                done.add(value)
                src = textwrap.dedent(inspect.getsource(value))
                if src not in seen:
                    seen.append(src)
                visit(value)

    for name in subjects:
        visit(registry.subjects[name].fn)
    return seen


def _names(code: types.CodeType) -> set[str]:
    """Global names a code object uses, its nested functions and generator expressions too."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _names(const)
    return names
