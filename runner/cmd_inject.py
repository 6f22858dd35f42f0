"""`inject`: run the claims with one or more of the chapter's faults in place."""

from __future__ import annotations

import argparse
import difflib
from pathlib import Path
from typing import Any

from runner import api
from runner.commands import final_code, load_each
from runner.errors import UsageError
from runner.exits import EXIT_FOUND_WANTING, EXIT_OK
from runner.files import refuse_overwriting
from runner.i18n import Catalog
from runner.inject import FaultRun, fault_section, run_all, run_fault, variant
from runner.load import ClaimPack, LoadedFault, display_path
from runner.record import to_json_data
from runner.reporters import json_out, text


def add_arguments(inject: argparse.ArgumentParser, words: Catalog) -> None:
    which = inject.add_mutually_exclusive_group(required=True)
    which.add_argument("--fault", action="append", metavar="ID", help=words("help.inject.fault"))
    which.add_argument("--list", action="store_true", help=words("help.inject.list"))
    which.add_argument("--all", action="store_true", help=words("help.inject.all"))
    inject.add_argument(
        "paths", nargs="*", default=["claims/"], metavar="PATH", help=words("help.inject.paths")
    )
    inject.add_argument(
        "--format", choices=("text", "json"), default="text", help=words("help.format")
    )
    inject.add_argument("--junit-xml", metavar="FILE", help=words("help.junit"))


def cmd_inject(args: argparse.Namespace, words: Catalog) -> int:
    packs, problems = load_each(args.paths, words)
    partial = [p for p in packs if not p.complete]
    if partial:  # faults are judged against whole modules: a single claim file has none
        raise UsageError("use.inject_needs_module", path=str(partial[0].directory))
    if args.list:
        return final_code(_list(packs, args.format, words), problems)
    refuse_overwriting([args.junit_xml], [f for pack in packs for f in pack.files])
    if not any(p.faults for p in packs):
        modules = ", ".join(p.meta.id for p in packs)
        raise UsageError("use.no_faults", modules=modules, n=len(packs))
    if args.all:
        runs = [(pack, run) for pack in packs for run in run_all(pack, pack.code.registry)]
    else:
        chosen = [_find(packs, fault_id, args.format) for fault_id in dict.fromkeys(args.fault)]
        runs = [(pack, run_fault(pack, loaded, pack.code.registry)) for pack, loaded in chosen]
    by_pack: dict[str, list[FaultRun]] = {}
    for pack, run in runs:
        by_pack.setdefault(pack.meta.id, []).append(run)
    # caught, and as faults.yaml says it shows: a fact that no longer holds is found wanting
    held = all(run.caught and run.observed_as_declared for _, run in runs)
    code = EXIT_OK if held else EXIT_FOUND_WANTING
    pack_runs = {p.meta.id: api.PackRun(p, [], 0.0) for p in packs}
    if args.junit_xml:  # first, so that the text can say it was written
        from runner.reporters import junit

        suites = [junit.faults_suite(pack_runs[m], rs, words) for m, rs in by_pack.items()]
        junit.write(Path(args.junit_xml), suites, "learn-llm faults")
    if args.format == "json":
        payload: dict[str, Any] = {
            **fault_section([run for _, run in runs]),
            "runs": [
                {
                    "module": pack.meta.id,
                    "fault": variant(run),
                    "claims": to_json_data(run.results),
                }
                for pack, run in runs
            ],
            "exit_code": code,
        }
        json_out.emit(to_json_data(payload))
    else:
        lines: list[str] = []
        if args.all:
            for module, module_runs in by_pack.items():
                lines += text.fault_summary_lines(pack_runs[module], module_runs, words)
        else:
            for pack, run in runs:
                lines += text.fault_run_lines(pack_runs[pack.meta.id], run, words)
        if args.junit_xml:
            lines.append(words("run.wrote", path=display_path(Path(args.junit_xml))))
        for line in lines:
            print(line)
    return final_code(code, problems)


def _find(packs: list[ClaimPack], fault_id: str, fmt: str) -> tuple[ClaimPack, LoadedFault]:
    for pack in packs:
        for lf in pack.faults:
            if lf.fault.id == fault_id:
                return pack, lf
    known = [lf.fault.id for pack in packs for lf in pack.faults]
    close = difflib.get_close_matches(fault_id, known, n=len(known), cutoff=0.0)
    error = UsageError("use.unknown_fault", fault=fault_id, valid=", ".join(close))
    if fmt == "json":  # a script reads stdout: the error is there too, as data
        json_out.emit(
            {
                "error": {"code": "use.unknown_fault", "fault": fault_id, "valid": close},
                "exit_code": 2,
            }
        )
    raise error


def _list(packs: list[ClaimPack], fmt: str, words: Catalog) -> int:
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
        json_out.emit({"faults": rows})
    else:
        for line in text.fault_list_lines(rows, words):
            print(line)
    return EXIT_OK
