"""The command line. It parses arguments and calls load, validate, run and record; no more.

Exit codes: 0 every claim passed; 1 something was checked and found wanting (a claim
failed, errored or was skipped, or the evidence drifted); 2 misuse or invalid input.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from checks import REGISTRY
from runner import junit, output
from runner.challenges import challenge_claims, challenge_record
from runner.errors import ClaimsError, InvalidClaims, UsageError
from runner.i18n import LANGS, default_language, set_language, t
from runner.inject import fault_section, find_fault, run_all, run_fault, variant
from runner.learner import load_learner, module_subjects, scaffold
from runner.load import ClaimPack, display_path, load_packs
from runner.models import ClaimResult
from runner.provenance import measured_commit
from runner.record import (
    build_evidence,
    commit_writes,
    drift,
    evidence_name,
    prepare_write,
    read_json,
    schema_problems,
    to_json_data,
)
from runner.run import run_claims, select
from runner.submission import submission_files
from runner.validate import ensure_runnable, load_runnable
from runner.validate_many import validate_files

EXIT_OK, EXIT_FOUND_WANTING, EXIT_MISUSE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's own exit code for misuse is 2 too
        self.print_usage(sys.stderr)
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m runner", description=__doc__.splitlines()[0])
    common = _Parser(add_help=False)
    common.add_argument(
        "--lang",
        choices=LANGS,
        default=None,
        help="language of the output: zh or en (default: LEARN_LLM_LANG, the locale, else zh)",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    run = sub.add_parser(
        "run", parents=[common], help="run claims against the reference implementation"
    )
    run.add_argument(
        "paths",
        nargs="*",
        default=["claims/"],
        metavar="PATH",
        help="claim directories or files (default: claims/)",
    )
    run.add_argument(
        "--out",
        default="evidence/",
        metavar="DIR",
        help="where evidence and the manifest are written (default: evidence/)",
    )
    run.add_argument("--format", choices=("text", "json"), default="text")
    run.add_argument("--junit-xml", metavar="FILE", help="also write the results as JUnit XML")
    run.add_argument(
        "-k",
        dest="pattern",
        metavar="PATTERN",
        help="only claims whose id contains PATTERN (or matches it as a glob)",
    )
    run.add_argument(
        "--check",
        action="store_true",
        help="compare a fresh run with the committed evidence; write nothing",
    )
    run.add_argument(
        "--impl", metavar="FILE", help="judge this Python file's functions instead of the reference"
    )
    run.add_argument(
        "--challenge",
        metavar="NONCE",
        help="add claims on inputs derived from NONCE (from your grader) to the run",
    )
    run.set_defaults(func=cmd_run)

    validate = sub.add_parser(
        "validate", parents=[common], help="validate learner evidence (YAML or JSON)"
    )
    validate.add_argument("paths", nargs="+", metavar="FILE_OR_DIR")
    validate.add_argument(
        "--repo",
        metavar="DIR",
        help="the learner's repository: commits and artifacts are checked in it",
    )
    validate.add_argument("--format", choices=("text", "json"), default="text")
    validate.add_argument("--junit-xml", metavar="FILE", help="also write the results as JUnit XML")
    validate.add_argument(
        "--challenge", metavar="NONCE", help="require the challenge measurements for NONCE"
    )
    validate.add_argument("--jobs", type=int, default=1, metavar="N", help="processes to use")
    validate.add_argument(
        "--claims",
        default="claims/",
        metavar="DIR",
        help="where the modules live (default: claims/)",
    )
    validate.set_defaults(func=cmd_validate)

    listing = sub.add_parser(
        "list", parents=[common], help="list modules, their claims and their faults"
    )
    listing.add_argument("paths", nargs="*", default=["claims/"], metavar="PATH")
    listing.add_argument("--format", choices=("text", "json"), default="text")
    listing.set_defaults(func=cmd_list)

    report = sub.add_parser(
        "report", parents=[common], help="an HTML page (with figures) from an evidence file"
    )
    report.add_argument("evidence", metavar="EVIDENCE.json")
    report.add_argument("--html", required=True, metavar="OUT.html")
    report.set_defaults(func=cmd_report)

    scaffold = sub.add_parser(
        "scaffold", parents=[common], help="print a file with every function to implement"
    )
    scaffold.add_argument("module", help="a module id, e.g. 23-design-tradeoffs")
    scaffold.add_argument(
        "--reference", action="store_true", help="print the reference solution in the same form"
    )
    scaffold.add_argument(
        "--claims",
        default="claims/",
        metavar="DIR",
        help="where the modules live (default: claims/)",
    )
    scaffold.set_defaults(func=cmd_scaffold)

    inject = sub.add_parser(
        "inject", parents=[common], help="run the claims with one of the chapter's faults in place"
    )
    which = inject.add_mutually_exclusive_group(required=True)
    which.add_argument("--fault", metavar="ID", help="the fault to inject")
    which.add_argument("--list", action="store_true", help="list the faults and their catchers")
    which.add_argument("--all", action="store_true", help="inject every fault, then the score")
    inject.add_argument(
        "paths",
        nargs="*",
        default=["claims/"],
        metavar="PATH",
        help="claim directories (default: claims/)",
    )
    inject.add_argument("--format", choices=("text", "json"), default="text")
    inject.add_argument("--junit-xml", metavar="FILE", help="also write the results as JUnit XML")
    inject.set_defaults(func=cmd_inject)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    set_language(default_language())
    try:
        args = build_parser().parse_args(argv)
        if args.lang:
            set_language(args.lang)
        code: int = args.func(args)
        return code
    except InvalidClaims as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        n = len(exc.problems)
        print(t("claims.problems", n=n, s="s" if n != 1 else ""), file=sys.stderr)
        return EXIT_MISUSE
    except ClaimsError as exc:
        print(t("error", message=exc), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(t("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader (e.g. `| head`) left; say nothing more, as other command-line tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FOUND_WANTING


# -- run --------------------------------------------------------------------------------------
def canonical_command(args: argparse.Namespace) -> str:
    """The command that reproduces the evidence (output-only flags such as --out left out)."""
    parts = ["python -m runner run"]
    for raw in args.paths:
        path = Path(raw)
        shown = display_path(path)
        parts.append(shown + "/" if path.is_dir() and not shown.endswith("/") else shown)
    if args.pattern:
        parts += ["-k", args.pattern]
    if args.impl:
        parts += ["--impl", display_path(Path(args.impl))]
    if args.challenge is not None:
        parts += ["--challenge", shlex.quote(args.challenge)]
    return " ".join(parts)


def cmd_run(args: argparse.Namespace) -> int:
    packs = load_runnable([Path(p) for p in args.paths], REGISTRY)
    if args.impl and args.check:
        raise UsageError(
            "--check compares a reference run with the committed evidence; drop --impl"
        )
    impl = (
        load_learner(Path(args.impl), module_subjects(packs, REGISTRY))
        if args.impl
        else REGISTRY.reference()
    )
    if args.challenge is not None and args.check:
        raise UsageError(
            "--check compares a reference run with the committed evidence; drop --challenge"
        )
    challenges = {
        pack.meta.id: challenge_claims(pack, args.challenge, REGISTRY)
        for pack in packs
        if args.challenge is not None
    }
    runs: list[tuple[ClaimPack, list[ClaimResult], float]] = []
    for pack in packs:
        chosen = select(pack.claims, args.pattern) + challenges.get(pack.meta.id, [])
        start = time.perf_counter()
        results = run_claims(chosen, impl, REGISTRY, pack.meta.seed)
        runs.append((pack, results, (time.perf_counter() - start) * 1000))
    if args.pattern and not any(results for _, results, _ in runs):
        raise UsageError(t("use.no_match", pattern=args.pattern))

    whole = all(pack.complete for pack, _, _ in runs) and not args.pattern
    commit = measured_commit()
    docs = []
    if commit is not None:
        command = canonical_command(args)
        for pack, results, ms in runs:
            # the fault variants belong to the evidence of a whole module only
            faults = None
            if whole and pack.faults and impl.kind == "reference":
                faults = fault_section(run_all(pack, REGISTRY, reference=results))
            extra = challenges.get(pack.meta.id)
            block = challenge_record(args.challenge, extra) if extra else None
            docs.append(
                (pack, build_evidence(pack, results, impl, commit, command, ms, faults, block))
            )
    out_dir = Path(args.out)
    notes: list[str] = []
    drifted: list[str] = []
    written: list[str] = []
    if args.check:
        if commit is None:
            raise UsageError("--check needs a git checkout: evidence records the measured commit")
        if not whole:
            raise UsageError("--check compares whole modules; drop -k and name module directories")
        for pack, doc in docs:
            committed_path = out_dir / evidence_name(pack)
            if not committed_path.exists():
                drifted.append(f"{display_path(committed_path)}: {t('run.no_evidence')}")
                continue
            fresh = json.loads(json.dumps(doc))
            drifted += [
                f"{display_path(committed_path)}: {d}"
                for d in drift(read_json(committed_path), fresh)
            ]
    elif commit is None:
        notes.append(t("run.not_written.git"))
    elif not whole:
        notes.append(t("run.not_written.partial"))
    else:
        variant = ".".join(
            ([Path(impl.name).stem] if impl.kind == "learner" else [])
            + (["challenge"] if args.challenge is not None else [])
        )
        writes = prepare_write(out_dir, docs, variant=variant or None)
        commit_writes(writes)
        written = [display_path(p) for p, _ in writes]

    failing = any(r.status != "passed" for _, results, _ in runs for r in results)
    code = EXIT_FOUND_WANTING if failing or drifted else EXIT_OK
    if args.format == "json":
        payload = {
            "evidence": [doc for _, doc in docs],
            "results": [
                {"module": pack.meta.id, "claims": to_json_data(results)}
                for pack, results, _ in runs
            ],
            "written": written,
            "drift": drifted,
            "notes": notes,
            "exit_code": code,
        }
        print(json.dumps(payload, ensure_ascii=False, indent=2, default=str))
    else:
        for pack, results, _ in runs:
            output.print_run(pack, impl, results)
        output.print_totals([r for _, results, _ in runs for r in results])
        for line in drifted[:40]:
            print(t("run.drift", line=line))
        if len(drifted) > 40:
            print(t("run.drift_more", n=len(drifted) - 40))
        if args.check and not drifted:
            print(t("run.no_drift"))
        for path in written:
            print(t("run.wrote", path=path))
        for note in notes:
            print(note)
    if args.junit_xml:
        label = f" · {impl.name}" if impl.kind != "reference" else ""
        suites = [junit.claims_suite(pack, results, label) for pack, results, _ in runs]
        junit.write(Path(args.junit_xml), suites, "learn-llm claims")
    return code


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
            print(json.dumps(to_json_data(payload), ensure_ascii=False, indent=2))
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
        print(json.dumps(payload, ensure_ascii=False, indent=2))
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
        print(json.dumps({"faults": rows}, ensure_ascii=False, indent=2))
    else:
        output.print_fault_list(rows)
    return EXIT_OK


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


# -- validate ---------------------------------------------------------------------------------
def cmd_validate(args: argparse.Namespace) -> int:
    paths = [Path(p) for p in args.paths]
    for path in paths:
        if not path.exists():
            raise UsageError(t("use.no_such_path", path=display_path(path)))
    repo = Path(args.repo) if args.repo else None
    if repo is not None and not repo.is_dir():
        raise UsageError(f"--repo {args.repo}: not a directory")
    if args.jobs < 1:
        raise UsageError("--jobs needs a number >= 1")
    files = list(submission_files(paths))
    if not files:
        raise UsageError(t("use.no_submissions"))
    progress = sys.stderr.isatty() and args.format == "text" and len(files) >= 50
    valid = 0
    reports = []
    for n, report in enumerate(
        validate_files(files, Path(args.claims), repo, args.challenge, args.jobs), 1
    ):
        valid += report.valid
        reports.append(report)
        if args.format == "json":
            print(json.dumps(report.as_json(), ensure_ascii=False))
        elif report.valid:
            print(t("validate.valid", file=report.file))
        else:
            k = len(report.problems)
            print(t("validate.invalid", file=report.file, n=k, s="s" if k != 1 else ""))
            for problem in report.problems:
                print(f"  {problem}")
        if progress and n % 50 == 0:
            line = t("validate.progress", n=f"{n:,}", total=f"{len(files):,}")
            print(f"\r{line}", end="", file=sys.stderr, flush=True)
    if progress:
        print("\r" + " " * 40 + "\r", end="", file=sys.stderr)
    invalid = len(files) - valid
    if args.format == "json":
        print(json.dumps({"summary": {"files": len(files), "valid": valid, "invalid": invalid}}))
    elif len(files) > 1:
        print(
            t("validate.summary", n=f"{len(files):,}", valid=f"{valid:,}", invalid=f"{invalid:,}")
        )
    if args.junit_xml:
        junit.write(
            Path(args.junit_xml), [junit.submissions_suite(reports)], "learn-llm submissions"
        )
    return EXIT_OK if invalid == 0 else EXIT_FOUND_WANTING


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
        print(json.dumps({"modules": modules}, ensure_ascii=False, indent=2))
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
