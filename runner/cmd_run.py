"""`run`: judge an implementation with a module's claims, record the evidence."""

from __future__ import annotations

import argparse
import json
import shlex
import time
from pathlib import Path

from checks import REGISTRY
from runner import output
from runner.errors import UsageError
from runner.exits import EXIT_FOUND_WANTING, EXIT_OK
from runner.i18n import t
from runner.inject import fault_section, run_all
from runner.learner import load_learner, module_subjects
from runner.load import ClaimPack, display_path
from runner.models import ClaimResult
from runner.provenance import start_measured_commit
from runner.record import (
    build_evidence,
    commit_writes,
    drift,
    evidence_name,
    prepare_write,
    read_json,
    to_json_data,
)
from runner.run import run_claims, select
from runner.validate import load_runnable


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
    challenges = {}
    if args.challenge is not None:
        from runner.challenges import challenge_claims

        challenges = {p.meta.id: challenge_claims(p, args.challenge, REGISTRY) for p in packs}
    # asked once everything is known to be runnable: git answers while the claims run
    pending_commit = start_measured_commit()
    runs: list[tuple[ClaimPack, list[ClaimResult], float]] = []
    for pack in packs:
        chosen = select(pack.claims, args.pattern) + challenges.get(pack.meta.id, [])
        start = time.perf_counter()
        results = run_claims(chosen, impl, REGISTRY, pack.meta.seed)
        runs.append((pack, results, (time.perf_counter() - start) * 1000))
    commit = pending_commit()
    if args.pattern and not any(results for _, results, _ in runs):
        raise UsageError(t("use.no_match", pattern=args.pattern))

    whole = all(pack.complete for pack, _, _ in runs) and not args.pattern
    docs = []
    if commit is not None:
        command = canonical_command(args)
        for pack, results, ms in runs:
            # the fault variants belong to the evidence of a whole module only
            faults = None
            if whole and pack.faults and impl.kind == "reference":
                faults = fault_section(run_all(pack, REGISTRY, reference=results))
            extra = challenges.get(pack.meta.id)
            block = None
            if extra:
                from runner.challenges import challenge_record

                block = challenge_record(args.challenge, extra)
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
        output.print_json(payload)
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
        from runner import junit  # only for --junit-xml

        suites = [junit.claims_suite(pack, results, label) for pack, results, _ in runs]
        junit.write(Path(args.junit_xml), suites, "learn-llm claims")
    return code
