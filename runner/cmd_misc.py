"""`list`, `scaffold` and `report`: the smaller commands."""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from checks import REGISTRY
from runner import output
from runner.errors import UsageError
from runner.exits import EXIT_OK
from runner.i18n import t
from runner.learner import scaffold
from runner.load import display_path, load_packs
from runner.record import (
    read_json,
    schema_problems,
)
from runner.validate import ensure_runnable, load_runnable


# -- scaffold ---------------------------------------------------------------------------------
def cmd_scaffold(args: argparse.Namespace) -> int:
    packs = load_packs([Path(args.claims)])
    found = [p for p in packs if p.meta.id == args.module]
    if not found:
        known = [p.meta.id for p in packs]
        close = difflib.get_close_matches(args.module, known, n=len(known), cutoff=0.0)
        raise UsageError(t("use.unknown_module", module=args.module, modules=", ".join(close)))
    ensure_runnable(found, REGISTRY)
    sys.stdout.write(scaffold(found[0], REGISTRY, reference=args.reference))
    return EXIT_OK


# -- list -------------------------------------------------------------------------------------
def cmd_list(args: argparse.Namespace) -> int:
    packs = load_runnable([Path(p) for p in args.paths], REGISTRY)
    modules = [
        {
            "id": pack.meta.id,
            "version": pack.meta.version,
            "title": pack.meta.title.model_dump(),
            "claims": [
                {
                    "id": c.claim.id,
                    "proposition": c.proposition,
                    "stage": c.stage.model_dump(),
                    "statement": c.claim.statement.model_dump(),
                    "check": c.claim.check,
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
        output.print_json({"modules": modules})
    else:
        output.print_listing(modules)
    return EXIT_OK


# -- report -----------------------------------------------------------------------------------
def cmd_report(args: argparse.Namespace) -> int:
    from runner import report  # matplotlib is optional; only this command needs it

    path = Path(args.evidence)
    if not path.is_file():
        raise UsageError(f"{display_path(path)}: no such file")
    evidence = read_json(path)
    problems = schema_problems(evidence)
    if problems:
        raise UsageError(f"{display_path(path)}: not valid evidence: {problems[0]}")
    report.write(evidence, Path(args.html))
    print(t("report.wrote", path=display_path(Path(args.html))))
    return EXIT_OK
