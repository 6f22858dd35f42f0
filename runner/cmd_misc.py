"""`list`, `scaffold` and `report`: the smaller commands."""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import Any

from runner.commands import final_code, load_each
from runner.errors import ClaimsError, UsageError
from runner.exits import EXIT_OK
from runner.files import refuse_overwriting
from runner.i18n import Catalog
from runner.learner.scaffold import scaffold
from runner.load import display_path, load_packs
from runner.pack import FigureSpec
from runner.record import read_json, schema_problems
from runner.reporters import json_out, text
from runner.validate import load_runnable


# -- scaffold ---------------------------------------------------------------------------------
def add_scaffold_arguments(parser: argparse.ArgumentParser, words: Catalog) -> None:
    parser.add_argument("module", help=words("help.scaffold.module"))
    parser.add_argument("--reference", action="store_true", help=words("help.scaffold.reference"))
    parser.add_argument("--claims", default="claims/", metavar="DIR", help=words("help.claims"))


def cmd_scaffold(args: argparse.Namespace, words: Catalog) -> int:
    packs = load_packs([Path(args.claims)])
    found = [p for p in packs if p.meta.id == args.module]
    if not found:
        known = [p.meta.id for p in packs]
        close = difflib.get_close_matches(args.module, known, n=len(known), cutoff=0.0)
        raise UsageError("use.unknown_module", module=args.module, modules=", ".join(close))
    (module,) = load_runnable([found[0].directory])  # this module alone: its pack, its checks
    sys.stdout.write(scaffold(module, words, reference=args.reference))
    return EXIT_OK


# -- list -------------------------------------------------------------------------------------
def add_list_arguments(parser: argparse.ArgumentParser, words: Catalog) -> None:
    parser.add_argument(
        "paths", nargs="*", default=["claims/"], metavar="PATH", help=words("help.run.paths")
    )
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help=words("help.format")
    )


def cmd_list(args: argparse.Namespace, words: Catalog) -> int:
    packs, problems = load_each(args.paths, words)
    modules = [
        {
            "id": pack.meta.id,
            "version": pack.meta.version,
            "title": pack.meta.title.model_dump(),
            "pack": pack.code.name,
            "claims": [
                {
                    "id": c.claim.id,
                    "proposition": c.proposition,
                    "stage": c.stage.model_dump(),
                    "statement": c.claim.statement.model_dump(),
                    "check": c.claim.check,
                    "points": c.claim.points,
                    "visibility": c.claim.visibility,
                }
                for c in pack.claims
            ],
            "faults": [
                {
                    "id": lf.fault.id,
                    "title": lf.fault.title.model_dump(),
                    "catchers": lf.fault.catchers,
                }
                for lf in pack.faults
            ],
        }
        for pack in packs
    ]
    if args.format == "json":
        json_out.emit({"modules": modules})
    else:
        for line in text.listing_lines(modules, words):
            print(line)
    return final_code(EXIT_OK, problems)


# -- report -----------------------------------------------------------------------------------
def add_report_arguments(parser: argparse.ArgumentParser, words: Catalog) -> None:
    parser.add_argument("evidence", metavar="EVIDENCE.json", help=words("help.report.evidence"))
    parser.add_argument("--html", required=True, metavar="OUT.html", help=words("help.report.html"))
    parser.add_argument("--claims", metavar="DIR", help=words("help.claims"))
    parser.add_argument("--reference", metavar="EVIDENCE.json", help=words("help.report.reference"))


def cmd_report(args: argparse.Namespace, words: Catalog) -> int:
    from runner.reporters import html  # matplotlib is optional; only this command needs it

    path = Path(args.evidence)
    if not path.is_file():
        raise UsageError("use.no_such_file", path=display_path(path))
    # named, they must be there; by default the claims are looked for in claims/ if it is
    for named in (args.claims, args.reference):
        if named is not None and not Path(named).exists():
            raise UsageError("use.no_such_path", path=display_path(Path(named)))
    refuse_overwriting([args.html], [path, *([Path(args.reference)] if args.reference else [])])
    evidence = read_json(path)
    problems = schema_problems(evidence)
    if problems:
        raise UsageError("use.not_evidence", path=display_path(path), problem=problems[0])
    reference, note = _reference(evidence, path, args.reference, words)
    figures = _figures(evidence, Path(args.claims or "claims/"))
    html.write(evidence, Path(args.html), words, figures or [], reference, note)
    if figures is None:  # said, not silently left out
        print(words("report.no_figures", module=str(evidence.get("module"))))
    print(words("report.wrote", path=display_path(Path(args.html))))
    return EXIT_OK


def _reference(
    evidence: dict[str, Any], path: Path, named: str | None, words: Catalog
) -> tuple[dict[str, Any] | None, str | None]:
    """The module's reference evidence to draw beside a learner's or a fault's, and a line
    saying where it came from or why there is none. Looked for as ``--reference``, else as
    the reference's file name (``<module>-v<version>.json``) beside the evidence, then in
    ``evidence/``; used only when it is the reference's, of the same claim pack."""
    impl = evidence.get("implementation")
    if not isinstance(impl, dict) or impl.get("kind", "reference") == "reference":
        return None, None
    pack = evidence.get("claim_pack") or {}
    name = f"{evidence.get('module')}-v{pack.get('version')}.json"
    candidates = [Path(named)] if named else [path.parent / name, Path("evidence") / name]
    found = next((c for c in candidates if c.is_file()), None)
    if found is None:
        return None, words("html.reference.none", path=display_path(candidates[-1]))
    shown = display_path(found)
    try:
        reference = read_json(found)
    except ClaimsError as exc:
        return None, words("html.reference.unreadable", path=shown, problem=exc.render(words))
    problems = schema_problems(reference)
    if problems:
        return None, words("html.reference.unreadable", path=shown, problem=problems[0])
    theirs = reference.get("claim_pack") or {}
    same = all(theirs.get(k) == pack.get(k) for k in ("module", "version", "expectations_sha256"))
    if reference.get("implementation", {}).get("kind") != "reference" or not same:
        return None, words("html.reference.other", path=shown)
    return reference, words("html.reference.found", path=shown)


def _figures(evidence: dict[str, Any], claims: Path) -> list[FigureSpec] | None:
    """The figures of the evidence's pack: the pack of the module of that id under
    ``claims``, else the installed pack the evidence names; None when neither is found (the
    page is still written, without them)."""
    from runner.pack.find import PackNotFound, find_pack, is_path

    module = evidence.get("module")
    try:
        packs = load_packs([claims]) if claims.is_dir() else []
    except ClaimsError:
        packs = []
    for pack in packs:
        if pack.meta.id == module:
            try:
                return list(pack.code.figures.values())
            except PackNotFound:
                return None
    identity = evidence.get("claim_pack")
    name = identity.get("pack") if isinstance(identity, dict) else None
    if isinstance(name, str) and not is_path(name):
        try:
            return list(find_pack(name, Path.cwd()).figures.values())
        except PackNotFound:
            return None
    return None
