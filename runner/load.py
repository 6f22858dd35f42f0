"""Load: claim files on disk -> pydantic models. Nothing here runs or resolves a check, and
no pack is imported: finding the pack a module names is validation's step
(:mod:`runner.validate`), so that commands that need only the claims' data stay light."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError

from runner.errors import InvalidClaims, UsageError
from runner.files import NotRegular, read_regular
from runner.i18n import Msg, msg, os_reason
from runner.models import Claim, Fault, FaultsFile, ModuleMeta, PropositionFile, Text
from runner.problems import Problem
from runner.safeyaml import MAX_BYTES as MAX_CLAIM_BYTES
from runner.safeyaml import Document, YamlError, number_as_text, parse

MODULE_FILE = "module.yaml"
FAULTS_FILE = "faults.yaml"
YAML_SUFFIXES = (".yaml", ".yml")

if TYPE_CHECKING:
    from runner.pack import Pack

M = TypeVar("M", bound=BaseModel)


@dataclass(frozen=True)
class LoadedClaim:
    claim: Claim
    file: str
    line: int | None
    proposition: int
    stage: Text
    # line of each path inside the claim, e.g. ("inputs", "k") or ("expect", 0, "measure")
    lines: dict[tuple[int | str, ...], int] = field(default_factory=dict, compare=False)

    def line_of(self, *path: int | str) -> int | None:
        """The line of ``path`` in this claim, or of its closest ancestor (the claim's own)."""
        for end in range(len(path), 0, -1):
            if path[:end] in self.lines:
                return self.lines[path[:end]]
        return self.line


@dataclass(frozen=True)
class LoadedFault:
    fault: Fault
    file: str
    line: int | None


@dataclass(frozen=True)
class ClaimPack:
    """One module's claims, as read from its directory."""

    meta: ModuleMeta
    directory: Path
    files: tuple[Path, ...]  # module.yaml first, then the claim files, sorted
    claims: tuple[LoadedClaim, ...]
    complete: bool  # False when only some of the module's claim files were named
    faults: tuple[LoadedFault, ...] = ()
    # the pack module.yaml names (its checks, reference, twins), once validation found it
    pack: Pack | None = field(default=None, compare=False)
    pack_line: int | None = None  # where module.yaml names it

    def claim(self, claim_id: str) -> LoadedClaim | None:
        return next((c for c in self.claims if c.claim.id == claim_id), None)

    @property
    def code(self) -> Pack:
        """The module's pack: the one validation found, else found now (claims read with
        :func:`load_packs` alone are not validated; their pack is looked up on first use,
        and a pack that cannot be found raises :class:`~runner.pack.find.PackNotFound`)."""
        if self.pack is None:
            from runner.pack.find import find_pack

            object.__setattr__(self, "pack", find_pack(self.meta.pack, self.directory))
        assert self.pack is not None
        return self.pack


@dataclass
class ModuleFiles:
    """One module as read from its directory: its claims (None when module.yaml itself
    cannot be used) and the problems of its files. One module's problems are its own: the
    other modules still load."""

    directory: Path
    claims: ClaimPack | None
    problems: list[Problem]


def display_path(path: Path) -> str:
    """A path relative to where the person is, or as given when it lies elsewhere."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return str(path)
    return str(path) if rel.startswith("..") else rel


def load_packs(paths: list[Path]) -> list[ClaimPack]:
    """Read every module named by ``paths``; raise InvalidClaims if any file is invalid."""
    packs, problems = read_packs(paths)
    if problems:
        raise InvalidClaims(problems)
    return packs


def read_packs(paths: list[Path]) -> tuple[list[ClaimPack], list[Problem]]:
    """Every module named by ``paths`` (module dirs, a dir of modules, or claim files), and
    the problems of its files. A file with problems still contributes the claims that are
    valid on their own, so they can be checked further."""
    modules = read_modules(paths)
    packs = [m.claims for m in modules if m.claims is not None]
    return packs, [p for m in modules for p in m.problems]


def read_modules(paths: list[Path]) -> list[ModuleFiles]:
    """Every module named by ``paths``, each with the problems of its own files."""
    wanted: dict[Path, set[Path] | None] = {}  # module dir -> chosen files (None: all)
    for path in paths:
        if not path.exists() and path == Path("claims"):  # the default, not found here
            raise UsageError("use.no_claims_here", path=display_path(path))
        if not path.exists():
            raise UsageError("use.no_such_path", path=display_path(path))
        if path.is_file():
            if path.suffix not in YAML_SUFFIXES or path.name in (MODULE_FILE, FAULTS_FILE):
                raise UsageError("use.not_claim_file", path=display_path(path))
            module_dir = path.parent
            if not (module_dir / MODULE_FILE).is_file():
                raise UsageError("use.no_module_beside", path=display_path(path))
            chosen = wanted.setdefault(module_dir, set())
            if chosen is not None:
                chosen.add(path)
        elif (path / MODULE_FILE).is_file():
            wanted[path] = None
        else:
            modules = sorted(p.parent for p in path.glob(f"*/{MODULE_FILE}"))
            if not modules:
                raise UsageError("use.no_module_in", path=display_path(path))
            for module_dir in modules:
                wanted[module_dir] = None

    found: list[ModuleFiles] = []
    first: dict[str, Path] = {}  # module id -> the folder that has it
    for module_dir, chosen in sorted(wanted.items()):
        problems: list[Problem] = []
        pack = _load_pack(module_dir, chosen, problems)
        if pack is not None and first.setdefault(pack.meta.id, module_dir) != module_dir:
            # two folders under one id would write one evidence file, the second over the first
            where = display_path(first[pack.meta.id] / MODULE_FILE)
            problem = msg("claim.module_twice", id=pack.meta.id, where=where)
            problems.append(Problem.in_file(display_path(module_dir / MODULE_FILE), None, problem))
            pack = None
        found.append(ModuleFiles(module_dir, pack, problems))
    return found


def claim_files(module_dir: Path) -> list[Path]:
    """A module's claim files in the order of their numbers: 2-… before 10-…, as a reader
    of the chapter meets them."""
    return sorted(
        (
            p
            for p in module_dir.iterdir()
            # not only regular files: a FIFO or a device named like a claim file is reported
            if p.suffix in YAML_SUFFIXES and p.name not in (MODULE_FILE, FAULTS_FILE)
        ),
        key=_natural,
    )


def _natural(path: Path) -> tuple[int, str]:
    number = path.name.split("-", 1)[0]
    return (int(number) if number.isdigit() and len(number) < 9 else 10**9, path.name)


def _load_pack(
    module_dir: Path, chosen: set[Path] | None, problems: list[Problem]
) -> ClaimPack | None:
    meta_doc = read_yaml(module_dir / MODULE_FILE, problems)
    meta = None
    if meta_doc is not None:
        meta = to_model(ModuleMeta, meta_doc, module_dir / MODULE_FILE, problems)
    files = claim_files(module_dir)
    if not files:
        problems.append(Problem.in_file(display_path(module_dir), None, msg("claim.no_files")))
    claims: list[LoadedClaim] = []
    # metrics of claims that are not valid (their problems are said already): a required
    # metric among them is not also said to be missing; None when a file could not be read
    rejected: set[str] | None = set()
    for path in files if chosen is None else sorted(chosen):
        doc = read_yaml(path, problems)
        if doc is None:
            rejected = None
            continue
        if isinstance(doc.data, dict) and str(doc.data.get("schema", "")).startswith(
            "learn-llm.evidence"
        ):  # a learner's evidence (a template) kept beside the claims: one problem, not ten
            where = doc.line_of(("schema",))
            problems.append(Problem.in_file(display_path(path), where, msg("claim.is_evidence")))
            continue
        prop = to_model(PropositionFile, doc, path, problems)
        if prop is None and rejected is not None:
            rejected |= _raw_metrics(doc.data)
        parsed = (
            list(enumerate(prop.claims))
            if prop is not None
            else _claims_that_parse(doc.data)  # so their checks are still looked up
        )
        number = prop.proposition if prop is not None else 0
        stage = prop.stage if prop is not None else Text(zh="?", en="?")
        # each claim's lines, keyed by the path inside the claim: one pass over the file
        by_claim: dict[int | str, dict[tuple[int | str, ...], int]] = {}
        for p, n in doc.lines.items():
            if len(p) >= 2 and p[0] == "claims":
                by_claim.setdefault(p[1], {})[p[2:]] = n
        for i, claim in parsed:
            line = doc.line_of(("claims", i))
            lines = by_claim.get(i, {})
            claims.append(LoadedClaim(claim, display_path(path), line, number, stage, lines))
    faults: list[LoadedFault] = []
    faults_path = module_dir / FAULTS_FILE
    # faults are judged against the whole module, so a run of single files leaves them out
    if faults_path.is_file() and chosen is None:
        doc = read_yaml(faults_path, problems)
        table = to_model(FaultsFile, doc, faults_path, problems) if doc is not None else None
        if doc is not None and table is not None:
            for i, fault in enumerate(table.faults):
                line = doc.line_of(("faults", i))
                faults.append(LoadedFault(fault, display_path(faults_path), line))
    if meta is None:
        return None
    chapter = module_dir / meta.chapter
    try:  # no link out of the module
        inside = chapter.resolve().parent == module_dir.resolve()
        present = chapter.is_file()
    except (OSError, RuntimeError):  # a link to itself (RuntimeError before Python 3.13)
        inside, present = True, False
    if present and not inside:
        problems.append(
            Problem.in_file(
                display_path(module_dir / MODULE_FILE),
                meta_doc.line_of(("chapter",)) if meta_doc is not None else None,
                msg("claim.chapter_outside", chapter=meta.chapter),
                field="chapter",
            )
        )
    elif not present:
        problems.append(
            Problem.in_file(
                display_path(module_dir / MODULE_FILE),
                meta_doc.line_of(("chapter",)) if meta_doc is not None else None,
                msg("claim.no_chapter", chapter=meta.chapter),
                field="chapter",
            )
        )
    if chosen is None and rejected is not None:  # a run of single files has not them all
        metrics = {
            e.metric or f"{c.claim.id}.{e.measure}": c.claim for c in claims for e in c.claim.expect
        }
        for i, name in enumerate(meta.required_metrics):
            owner = metrics.get(name)
            said = None
            if owner is None and name not in rejected:
                said = msg("claim.required_metric_unknown", name=name)
            elif owner is not None and owner.visibility != "visible":
                # a learner cannot measure it, and is told the claim exists
                said = msg("claim.required_metric_hidden", name=name, claim=owner.id)
            if said is not None:
                problems.append(
                    Problem.in_file(
                        display_path(module_dir / MODULE_FILE),
                        meta_doc.line_of(("required_metrics", i)) if meta_doc else None,
                        said,
                        field="required_metrics",
                    )
                )
    extra = (faults_path,) if faults_path.is_file() else ()
    return ClaimPack(
        meta=meta,
        directory=module_dir,
        files=(
            module_dir / MODULE_FILE,
            *files,
            *extra,
            *((chapter,) if chapter.is_file() else ()),
        ),
        claims=tuple(claims),
        complete=chosen is None,
        faults=tuple(faults),
        pack_line=meta_doc.line_of(("pack",)) if meta_doc is not None else None,
    )


def _raw_metrics(data: Any) -> set[str]:
    """The metric names a claim file's data gives, read as plainly as the format allows
    (``metric``, else ``id.measure``), whether or not its claims are valid."""
    items = data.get("claims") if isinstance(data, dict) else None
    out: set[str] = set()
    for item in items if isinstance(items, list) else ():
        expect = item.get("expect") if isinstance(item, dict) else None
        for exp in expect if isinstance(expect, list) else ():
            if not isinstance(exp, dict):
                continue
            if isinstance(exp.get("metric"), str):
                out.add(exp["metric"])
            elif isinstance(item.get("id"), str) and isinstance(exp.get("measure"), str):
                out.add(f"{item['id']}.{exp['measure']}")
    return out


def _claims_that_parse(data: Any) -> list[tuple[int, Claim]]:
    """The claims of a file that failed validation, each tried on its own: the file's own
    problems are already reported, and these claims can still be checked against the
    registry, so that every problem is reported at once."""
    items = data.get("claims") if isinstance(data, dict) else None
    if not isinstance(items, list):
        return []
    out = []
    for i, item in enumerate(items):
        try:
            out.append((i, Claim.model_validate(item)))
        except ValidationError:
            # still worth asking whether its check exists and its inputs fit: an unchecked
            # stand-in with no expectations (their problems were reported with the file's)
            if isinstance(item, dict) and isinstance(item.get("check"), str):
                raw_inputs, raw_id = item.get("inputs"), item.get("id")
                stand_in = Claim.model_construct(
                    id=raw_id if isinstance(raw_id, str) else f"#{i + 1}",
                    statement=Text(zh="?", en="?"),
                    check=item["check"],
                    inputs=raw_inputs if isinstance(raw_inputs, dict) else {},
                    expect=[],
                )
                out.append((i, stand_in))
    return out


def read_yaml(path: Path, problems: list[Problem]) -> Document | None:
    """A claim file parsed, or None with its problem: read only if it is a regular file,
    and never more than the parser's size limit (a 3 GB file is not read to be refused)."""
    try:
        raw = read_regular(path, MAX_CLAIM_BYTES + 1)
    except NotRegular:
        problems.append(Problem.in_file(display_path(path), None, msg("claim.not_regular")))
        return None
    except OSError as exc:
        reason = msg("claim.cannot_read", reason=os_reason(exc))
        problems.append(Problem.in_file(display_path(path), None, reason))
        return None
    if len(raw) > MAX_CLAIM_BYTES:
        problems.append(
            Problem.in_file(display_path(path), None, msg("claim.too_large", limit=MAX_CLAIM_BYTES))
        )
        return None
    try:
        return _parsed(raw)
    except YamlError as exc:
        problems.extend(
            Problem.in_file(display_path(path), p.line, p.message) for p in exc.problems
        )
        return None


@functools.lru_cache(maxsize=64)
def _parsed(raw: bytes) -> Document:
    """The same bytes parsed once per process: a process that reads the claims again (the
    API serving several runs, a class run's judges, a test suite) parses them once. Claim
    data is never changed after loading (the models are built from it), so one document
    can serve every load; a file that does not parse is parsed again, and fails again."""
    return parse(raw)


def to_model(model: type[M], doc: Document, path: Path, problems: list[Problem]) -> M | None:
    """Validate ``doc`` as ``model``; each pydantic error becomes a problem with its line."""
    if not isinstance(doc.data, dict):
        code = "claim.empty_file" if doc.data is None else "claim.top_not_mapping"
        problems.append(Problem.in_file(display_path(path), doc.line_of(()), msg(code)))
        return None
    try:
        return model.model_validate(doc.data)
    except ValidationError as exc:
        errors = exc.errors()
        misspelt = _misspellings(doc.data, errors)
        said: set[tuple[int | str, ...]] = set()
        for err in errors:
            path_in_data = data_path(doc.data, err["loc"])
            if err["type"] == "missing" and path_in_data in misspelt.values():
                continue  # reported as the misspelling that left it missing
            if err["type"] in PYDANTIC_CODES and path_in_data in said:
                continue  # a union's other member ("expected a list" after "a number")
            unquoted = err["type"] in ("extra_forbidden", "invalid_key") and _in_text(
                doc.data, path_in_data
            )
            if unquoted:
                # {zh: 得到 36,864，而不是 38,400, en: ...}: the commas split a flow mapping's
                # unquoted text into keys; one problem, at the text, saying to quote it
                path_in_data = path_in_data[:-1]
                if path_in_data in said:
                    continue
            said.add(path_in_data)
            message = describe_error(err)
            fixed = number_as_text(err.get("input"))
            if fixed is not None and err["type"] in PYDANTIC_CODES:
                message = msg("claim.number_as_text", got=err["input"], fixed=fixed)
            if path_in_data in misspelt:
                message = msg("claim.did_you_mean", key=misspelt[path_in_data][-1])
            if unquoted:
                message = msg("claim.text_unquoted")
            claim, field = split_claim(doc.data, path_in_data)
            problems.append(
                Problem.in_file(
                    display_path(path),
                    doc.line_of(path_in_data),
                    message,
                    claim=claim,
                    field=field or None,
                    kind="fault" if path_in_data[:1] == ("faults",) else "claim",
                )
            )
        return None


def _misspellings(
    data: Any, errors: list[Any]
) -> dict[tuple[int | str, ...], tuple[int | str, ...]]:
    """Unknown key -> the missing key beside it that it most likely misspells."""
    missing: dict[tuple[int | str, ...], list[str]] = {}
    unknown = []
    for err in errors:
        path = data_path(data, err["loc"])
        if err["type"] == "missing" and path and isinstance(path[-1], str):
            missing.setdefault(path[:-1], []).append(path[-1])
        elif err["type"] == "extra_forbidden" and path and isinstance(path[-1], str):
            unknown.append(path)
    out = {}
    for path in unknown:
        import difflib  # only for a key that is misspelt

        close = difflib.get_close_matches(str(path[-1]), missing.get(path[:-1], []), n=1)
        if close:
            out[path] = (*path[:-1], close[0])
    return out


def _in_text(data: Any, path: tuple[int | str, ...]) -> bool:
    """Whether ``path`` is a key a comma split off a text in both languages: a key of a
    mapping holding zh or en, with no value (``864，而不是 38:``) or not text (``400``).
    A misspelt language (``eng: ...``) has its value, and is said as a misspelling."""
    node = data
    for part in path[:-1]:
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return False
    if not path or not isinstance(node, dict) or not ("zh" in node or "en" in node):
        return False
    key = path[-1]
    return not isinstance(key, str) or node.get(key) is None


def data_path(data: Any, loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    """pydantic's ``loc`` without the entries that are not in the data (union tags)."""
    out: list[int | str] = []
    node = data
    for part in loc:
        in_dict = isinstance(node, dict) and part in node
        in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if in_dict or in_list:
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and part not in _UNION_TAGS:
            out.append(part)  # a missing or unknown key: name it, then stop
            break
        else:
            continue
        out.append(part)
    return tuple(out)


_UNION_TAGS = {"exact", "close", "range", "raises"}


def split_claim(data: Any, path: tuple[int | str, ...]) -> tuple[str | None, str]:
    """(claim or fault id, field inside it) for a path under ``claims[i]`` or ``faults[i]``."""
    if len(path) >= 2 and path[0] in ("claims", "faults") and isinstance(path[1], int):
        claim = data[path[0]][path[1]]
        claim_id = claim.get("id") if isinstance(claim, dict) else None
        label = str(claim_id) if isinstance(claim_id, str) else f"#{path[1] + 1}"
        return label, format_field(path[2:])
    return None, format_field(path)


def format_field(path: tuple[int | str, ...]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def describe_error(err: Any) -> Msg:
    """A pydantic error as a message: our own rules carry their code as the error type;
    pydantic's usual errors have entries of their own; anything else keeps its words."""
    kind = err["type"]
    ctx = {
        k: v if isinstance(v, int | float | str) else str(v)
        for k, v in (err.get("ctx") or {}).items()
    }
    got = _short(err.get("input"))
    if kind in OWN_CODES:
        return msg(kind, **ctx)
    if kind == "missing":
        return msg("claim.missing")
    if kind == "extra_forbidden":
        return msg("claim.unknown_key")
    if kind == "union_tag_invalid":
        return msg("claim.bad_kind", kind=ctx.get("tag"), kinds=ctx.get("expected_tags"))
    if kind == "union_tag_not_found":
        return msg("claim.no_kind")
    if kind == "too_short" and isinstance(err.get("input"), list):
        return msg("claim.too_short", n=ctx.get("min_length", 1), got=got)
    if kind in ("model_type", "dict_type"):
        return msg("claim.not_mapping", got=got)
    if kind == "string_pattern_mismatch":
        return msg("claim.pattern", got=got, pattern=ctx.get("pattern"))
    if kind in PYDANTIC_CODES:
        if "expected" in ctx:  # a literal's choices: 'a', 'b' or 'c'
            ctx["expected"] = str(ctx["expected"]).replace(" or ", ", ")
        return msg(f"pydantic.{kind}", **ctx, got=got)
    text = str(err.get("msg", kind))
    return msg("claim.other", text=f"{text[:1].lower()}{text[1:]}", got=got)


# Codes raised by runner.models' own validators (their words are in the catalogues).
OWN_CODES = frozenset(
    {
        "claim.number_as_text",
        "tol.close_bound",
        "tol.finite_bound",
        "tol.range_bound",
        "tol.range_finite",
        "tol.range_order",
        "tol.no_value",
        "tol.needs_value",
        "tol.close_value",
        "tol.finite_value",
        "tol.per_element",
    }
)
PYDANTIC_CODES = frozenset(
    {
        "string_type",
        "string_too_short",
        "string_too_long",
        "int_type",
        "int_parsing",
        "int_from_float",
        "float_type",
        "float_parsing",
        "finite_number",
        "bool_type",
        "bool_parsing",
        "list_type",
        "literal_error",
        "greater_than_equal",
        "greater_than",
        "less_than_equal",
        "less_than",
    }
)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
