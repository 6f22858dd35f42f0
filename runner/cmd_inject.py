"""`inject`: run the claims with one of the chapter's faults in place."""

from __future__ import annotations

import argparse
import difflib
from pathlib import Path
from typing import Any

from checks import REGISTRY
from runner import junit, output
from runner.errors import UsageError
from runner.exits import EXIT_FOUND_WANTING, EXIT_OK
from runner.i18n import t
from runner.inject import fault_section, find_fault, run_all, run_fault, variant
from runner.load import ClaimPack
from runner.record import (
    to_json_data,
)
from runner.validate import load_runnable


# -- inject -----------------------------------------------------------------------------------
def cmd_inject(args: argparse.Namespace) -> int:
    packs = load_runnable([Path(p) for p in args.paths], REGISTRY)
    if args.list:
        return _inject_list(packs, args.format)
    if args.all:
        runs = [run for pack in packs for run in run_all(pack, REGISTRY)]
        code = EXIT_OK if all(r.caught for r in runs) else EXIT_FOUND_WANTING
        by_pack = [(pack, [r for r in runs if r.fault in pack_faults(pack)]) for pack in packs]
        if args.format == "json":
            payload = {**fault_section(runs), "exit_code": code}
            output.print_json(to_json_data(payload))
        else:
            for pack, pack_runs in by_pack:
                output.print_fault_summary(pack, pack_runs)
        if args.junit_xml:
            suites = [junit.faults_suite(pack, pack_runs) for pack, pack_runs in by_pack]
            junit.write(Path(args.junit_xml), suites, "learn-llm faults")
        return code
    found = find_fault(packs, args.fault)
    if found is None:
        known = [lf.fault.id for pack in packs for lf in pack.faults]
        close = difflib.get_close_matches(args.fault, known, n=len(known), cutoff=0.0)
        raise UsageError(t("use.unknown_fault", fault=args.fault, valid=", ".join(close)))
    pack, loaded = found
    run = run_fault(pack, loaded, REGISTRY)
    code = EXIT_OK if run.caught else EXIT_FOUND_WANTING
    if args.format == "json":
        payload = {
            "module": pack.meta.id,
            "fault": variant(run),
            "claims": to_json_data(run.results),
            "exit_code": code,
        }
        output.print_json(payload)
    else:
        output.print_fault_run(pack, run)
    if args.junit_xml:
        junit.write(Path(args.junit_xml), [junit.faults_suite(pack, [run])], "learn-llm faults")
    return code


def pack_faults(pack: ClaimPack) -> list[Any]:
    return [lf.fault for lf in pack.faults]


def _inject_list(packs: list[ClaimPack], fmt: str) -> int:
    rows = [
        {
            "module": pack.meta.id,
            "id": lf.fault.id,
            "title": lf.fault.title.model_dump(),
            "replaces": lf.fault.replaces,
            "catchers": lf.fault.catchers,
        }
        for pack in packs
        for lf in pack.faults
    ]
    if fmt == "json":
        output.print_json({"faults": rows})
    else:
        output.print_fault_list(rows)
    return EXIT_OK
