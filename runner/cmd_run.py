"""`run`: judge an implementation (or a class of them) with a module's claims, record it.

This module parses arguments, calls the core API and chooses reporters; it decides nothing
about a run itself.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import os
import shlex
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn

from runner import api, progress
from runner.commands import final_code, load_each
from runner.errors import EvidenceError, UsageError
from runner.exits import EXIT_FOUND_WANTING, EXIT_OK
from runner.files import refuse_overwriting
from runner.i18n import Catalog, os_reason
from runner.learner.limits import WALL_FACTOR, WALL_MIN_S, WorkerLimits
from runner.learner.staging import DEFAULT_ENTRY
from runner.load import ClaimPack, display_path
from runner.machine import usable_cpus
from runner.provenance import (
    GIT_TIMEOUT_S,
    Commit,
    Unmeasured,
    repo_relative,
    start_measured_commit,
)
from runner.record import (
    Drift,
    build_evidence,
    drift,
    evidence_name,
    learner_variants,
    read_json,
    record_evidence,
    refuses_now,
)
from runner.reporters import json_out, text
from runner.run import select
from runner.text import distinct_lines, printable_line

MAX_TIMEOUT_S = 3600
DEFAULT_OUT = "evidence/"
MAX_MEMORY_MIB = 65536
MAX_JOBS = 64
# judges one learner's file alone is shared between, unless --jobs says otherwise
LEARNER_JOBS = 2
RESERVED_VARIANTS = ("challenge", "reference")


class _AnyOf(argparse.Action):
    """``-k a -k b``: the claims either chooses (``-k "a or b"``); a second -k replaced the
    first without a word."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        earlier = getattr(namespace, self.dest, None)
        setattr(namespace, self.dest, f"{earlier} or {values}" if earlier else values)


def add_arguments(run: argparse.ArgumentParser, words: Catalog) -> None:
    run.add_argument(
        "paths", nargs="*", default=["claims/"], metavar="PATH", help=words("help.run.paths")
    )
    run.add_argument("--out", default=DEFAULT_OUT, metavar="DIR", help=words("help.run.out"))
    run.add_argument(
        "--format", choices=("text", "json"), default="text", help=words("help.format")
    )
    run.add_argument("--junit-xml", metavar="FILE", help=words("help.junit"))
    run.add_argument(
        "-k", dest="pattern", metavar="PATTERN", action=_AnyOf, help=words("help.run.k")
    )
    run.add_argument("--check", action="store_true", help=words("help.run.check"))
    run.add_argument("--impl", action="append", metavar="FILE_OR_DIR", help=words("help.run.impl"))
    run.add_argument("--challenge", metavar="NONCE", help=words("help.run.challenge"))
    run.add_argument(
        "--timeout",
        type=_bounded("--timeout", float, 0.1, MAX_TIMEOUT_S),
        default=WorkerLimits.timeout_s,
        metavar="SECONDS",
        help=words("help.run.timeout", default=WorkerLimits.timeout_s),
    )
    run.add_argument(
        "--wall-timeout",
        type=_bounded("--wall-timeout", float, 0.1, MAX_TIMEOUT_S * 10),
        default=None,
        metavar="SECONDS",
        help=words("help.run.wall_timeout", factor=WALL_FACTOR, least=WALL_MIN_S),
    )
    run.add_argument(
        "--learner-wall-timeout",
        type=_bounded("--learner-wall-timeout", float, 0.1, MAX_TIMEOUT_S * 1000),
        default=WorkerLimits.learner_wall_s,
        metavar="SECONDS",
        help=words(
            "help.run.learner_wall_timeout",
            default=WorkerLimits.learner_wall_s,
            factor=WALL_FACTOR,
        ),
    )
    run.add_argument("--entry", metavar="NAME", help=words("help.run.entry", default=DEFAULT_ENTRY))
    run.add_argument(
        "--memory-mib",
        type=_bounded("--memory-mib", int, 256, MAX_MEMORY_MIB),
        default=WorkerLimits.memory_mib,
        metavar="MIB",
        help=words("help.run.memory", default=WorkerLimits.memory_mib),
    )
    run.add_argument(
        "--jobs",
        type=_bounded("--jobs", int, 1, MAX_JOBS),
        default=None,
        metavar="N",
        help=words("help.run.jobs", learner=LEARNER_JOBS),
    )
    run.add_argument(
        "--gradescope-results", metavar="FILE_OR_DIR", help=words("help.run.gradescope")
    )
    run.add_argument("-v", "--verbose", action="store_true", help=words("help.run.verbose"))
    run.add_argument("-q", "--quiet", action="store_true", help=words("help.quiet"))


def _bounded(option: str, kind: type, low: float, high: float) -> Any:
    """A number within [low, high]; anything else is one line of misuse (exit 2), not
    argparse's usage block."""

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except (ValueError, OverflowError):
            raise UsageError("use.not_a_number", option=option, value=text[:40]) from None
        if not low <= value <= high:  # NaN is within no bounds
            raise UsageError("use.out_of_range", option=option, value=text[:40], low=low, high=high)
        return value

    return parse


def cmd_run(args: argparse.Namespace, words: Catalog) -> int:
    if not args.out.strip():
        raise UsageError("use.empty_out")
    if args.impl and len(args.impl) == 1 and args.impl[0].endswith(".py"):
        # one learner's file: its worker's fork server starts while the claims load
        from runner.learner.session import start_server

        start_server()
    packs, problems = load_each(args.paths, words)
    inputs = [f for pack in packs for f in pack.files]
    entry = _entry(args.entry)
    learners, as_class, left_out = (
        _learner_files(args.impl, entry) if args.impl else ([], False, [])
    )
    if left_out:  # what looks like a submission and is not one: said, not judged
        shown = ", ".join(left_out[:10]) + (f", … ({len(left_out)})" if len(left_out) > 10 else "")
        print(printable_line(words("run.left_out", names=shown)), file=sys.stderr)
    refuse_overwriting([args.junit_xml, args.gradescope_results], [*inputs, *learners])
    options = api.RunOptions(
        pattern=args.pattern,
        challenge=args.challenge,
        limits=WorkerLimits(
            timeout_s=args.timeout,
            memory_mib=args.memory_mib,
            wall_timeout_s=args.wall_timeout,
            learner_wall_s=args.learner_wall_timeout,
        ),
        private=_judges_folders(args),
        learner_jobs=args.jobs or LEARNER_JOBS,
    )
    if args.impl:
        # the judge's own folders exist before any worker does, and are the judge's
        _judges_outputs(args, as_class)
    if args.impl:
        if args.check:
            raise UsageError("use.check_with_impl")
        if as_class:
            return final_code(_class_run(args, words, packs, learners, options), problems)
        subject: api.Subject = api.LearnerFile(learners[0], entry)
        _other_learners(learners[0], entry or DEFAULT_ENTRY, packs, words)
        if args.gradescope_results:
            # before each later phase, the result so far: what stands if the run is stopped
            # there (a deadline met because of a hidden claim must not show it)
            options = dataclasses.replace(options, on_phase=_interim(args, words, packs))
        if options.learner_jobs > 1 and usable_cpus() > 1:  # split by what each cost the reference
            from runner.record.costs import recorded_costs

            folders = list(dict.fromkeys([Path(args.out), Path(DEFAULT_OUT)]))
            costs = recorded_costs(folders, packs)
            options = dataclasses.replace(options, claim_costs=costs)
    else:
        if args.challenge is not None and args.check:
            raise UsageError("use.check_with_challenge")
        if args.gradescope_results:
            raise UsageError("use.gradescope_needs_impl")
        subject = api.Reference()
    return final_code(_single_run(args, words, packs, subject, options), problems)


def _entry(value: str | None) -> str | None:
    """``--entry``: a module's file name inside a submission folder (no folder of its own)."""
    if value is None:
        return None
    if not value.endswith(".py") or "/" in value or "\\" in value or value.startswith("."):
        raise UsageError("use.bad_entry", value=printable_line(value[:80]))
    return value


def _learner_files(values: list[str], entry: str | None) -> tuple[list[Path], bool, list[str]]:
    """Every learner's submission named, and whether this is a class (a folder of them, or
    more than one). A submission is a ``*.py`` file, or a folder that holds its entry module
    (``--entry``, by default my_impl.py): the learner's own modules, as Gradescope hands
    them over. Any other folder is a class: each ``*.py`` directly in it is one learner, and
    each folder in it another (a folder submission). A ``*.py`` that is not a regular file
    (a directory, a link to /dev/zero, a pipe) is kept: its run says why it cannot be
    loaded. Also what a class folder holds that looks like a submission and is not one (a
    learner's _work/ or bob.PY got no row and no word, an attack round): links, folders
    whose names start with . or _ (but __pycache__ and .git), files whose suffix is .py in
    another case; other files (a README, notes) are not named."""
    files: list[Path] = []
    left_out: list[str] = []
    as_class = len(values) > 1
    wanted = entry or DEFAULT_ENTRY
    for value in values:
        path = Path(value)
        # one learner's folder; one named like a file (x.py/) only when --entry says so
        if path.is_dir() and (path.suffix != ".py" or entry) and (path / wanted).is_file():
            files.append(path)
        elif path.is_dir():
            as_class = True
            try:
                for p in sorted(path.iterdir()):
                    folder = p.is_dir()
                    if p.suffix == ".py" or (
                        folder and not p.is_symlink() and not p.name.startswith((".", "_"))
                    ):
                        files.append(p)
                    elif p.name in ("__pycache__", ".git"):
                        continue
                    elif p.is_symlink() or (folder and p.name.startswith(("_", "."))):
                        left_out.append(p.name + ("/" if folder else ""))
                    elif p.suffix.lower() == ".py":
                        left_out.append(p.name)
            except OSError as exc:
                raise UsageError(
                    "use.cannot_list", path=display_path(path), reason=os_reason(exc)
                ) from None
        elif path.suffix == ".py" and (path.exists() or path.is_symlink()):
            files.append(path)
        elif not path.exists():
            raise UsageError("use.no_such_path", path=display_path(path))
        else:
            raise UsageError("use.impl_not_python", path=display_path(path))
    if not files:
        raise UsageError("use.no_learner_files")
    return files, as_class, left_out


def _judges_folders(args: argparse.Namespace) -> tuple[Path, ...]:
    """Where the judge writes and where it runs, and where the learners' files are: folders
    no learner's worker may see."""
    found = [Path(args.out), Path.cwd()]
    for output in (args.gradescope_results, args.junit_xml):
        if output:
            found.append(Path(output) if Path(output).is_dir() else Path(output).parent)
    found += [Path(p) for p in args.paths]
    # the learners' own files, and their classmates' beside them: each worker gets a private
    # copy of its own submission, and a class kept below a folder workers read (/usr, the
    # interpreter's prefix) was readable from every worker
    found += [Path(p) if Path(p).is_dir() else Path(p).parent for p in args.impl or ()]
    return tuple(p.absolute() for p in found)


def _judges_outputs(args: argparse.Namespace, as_class: bool) -> None:
    """The evidence folder (and a class's Gradescope folder) made now, by the judge, before
    any learner's worker exists: a learner can neither make nor own them."""
    folders = [Path(args.out)]
    if as_class and args.gradescope_results:
        folders.append(Path(args.gradescope_results))
    for folder in folders:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(
                "use.cannot_make", path=display_path(folder), reason=os_reason(exc)
            ) from None


def _single_run(
    args: argparse.Namespace,
    words: Catalog,
    packs: list[ClaimPack],
    subject: api.Subject,
    options: api.RunOptions,
) -> int:
    if not args.check and not args.pattern:  # what the writing would refuse, before the run
        reference = isinstance(subject, api.Reference) and args.challenge is None
        refuses_now(Path(args.out), manifest=reference)
    # asked once everything is known to be runnable: git answers while the claims run
    pending_commit = start_measured_commit(*_measured(packs))
    run = api.run_packs(packs, subject, options)
    _sandbox_warnings(run.missing, words)
    measured = pending_commit()
    commit = measured if isinstance(measured, Commit) else None
    if run.load_failure is not None:
        _print(text.run_lines(run, words), args)
        if args.format == "json":
            json_out.emit(json_out.run_payload(run, words, [], [], [], run.exit_code()))
        if args.gradescope_results:
            path = _gradescope_file(Path(args.gradescope_results), run, args, None)
            _gradescope(path, run, words, packs, args)
        return run.exit_code()
    if args.pattern and not run.results:
        raise UsageError("use.no_match", pattern=args.pattern)
    docs = _evidence(run, commit, args)
    notes: list[str] = []
    drifted: list[tuple[str, Drift]] = []
    written: list[str] = []
    kept: list[str] = []  # evidence that already recorded what this run asserts
    if args.check:
        if commit is None:
            _no_commit_to_check(measured)
        if not run.complete:
            raise UsageError("use.check_needs_whole")
        drifted = _drift(Path(args.out), docs)
    elif commit is None:
        notes.append(_no_commit(measured, words))
    elif not run.complete:
        notes.append(words("run.not_written.partial"))
    else:
        variant = _variant(run, args, None)
        recorded = record_evidence(Path(args.out), docs, commit.root, variant=variant)
        written = [display_path(p) for p in recorded.written]
        kept = [display_path(p) for p in recorded.unchanged]
    code = EXIT_FOUND_WANTING if run.exit_code() != EXIT_OK or drifted else EXIT_OK
    # the report files first, so that the text can say where each one is
    outputs: list[str] = []
    if args.junit_xml:
        from runner.reporters import junit

        junit.write(Path(args.junit_xml), junit.run_suites(run, words), "learn-llm claims")
        outputs.append(display_path(Path(args.junit_xml)))
    if args.gradescope_results:
        path = _gradescope_file(Path(args.gradescope_results), run, args, None)
        _gradescope(path, run, words, packs, args)
        outputs.append(display_path(path))
    if args.format == "json":
        docs_only = [d for _, d in docs]
        json_out.emit(
            json_out.run_payload(run, words, docs_only, written, drifted, code, notes, kept)
        )
    else:
        lines = text.run_lines(run, words, verbose=args.verbose)
        lines += text.drift_lines(drifted, words)
        if args.check and not drifted:
            lines.append(
                words("run.no_drift", folder=display_path(Path(args.out)).rstrip("/") + "/")
            )
        lines += [words("run.wrote", path=p) for p in [*written, *outputs]]
        lines += [words("run.unchanged", path=p) for p in kept] + notes
        _print(lines, args)
    return code


def _class_run(
    args: argparse.Namespace,
    words: Catalog,
    packs: list[ClaimPack],
    learners: list[Path],
    options: api.RunOptions,
) -> int:
    pending_commit = start_measured_commit(*_measured(packs))
    variants = learner_variants([p.stem for p in learners], RESERVED_VARIANTS)
    names = distinct_lines([display_path(p) for p in learners])
    results = api.run_class(
        packs,
        learners,
        options,
        jobs=args.jobs or 1,
        claim_paths=[Path(p) for p in args.paths],
        entry=_entry(args.entry),
    )
    width = max(text.width_of(n) for n in names)
    results = _shown_as_judged(results, args, words, names, width)
    measured = pending_commit()
    commit = measured if isinstance(measured, Commit) else None
    gradescope_dir = Path(args.gradescope_results) if args.gradescope_results else None
    written: list[str] = []
    kept: list[str] = []  # learners' evidence that already recorded what their run asserts
    notes: list[str] = []
    unrecorded = False
    # each learner's run is reported and recorded as it is judged, then let go: the class
    # run does not grow with the class
    from runner.reporters.class_report import ClassReport  # a class run's cost only

    report = ClassReport(
        words, width=width, as_json=args.format == "json", as_junit=bool(args.junit_xml)
    )
    try:
        for (_, run), variant, shown in zip(results, variants, names, strict=True):
            # one learner's evidence or results that cannot be written are that learner's
            # problem: said in a note, and its other outputs and every other learner's are
            # still written
            steps: list[Any] = []
            if run.load_failure is None and commit is not None and run.complete:
                steps.append(
                    lambda run=run, variant=variant: _class_evidence(
                        run, variant, commit, args, kept
                    )
                )
            if gradescope_dir is not None:  # its folder is said once, below, not per learner
                steps.append(lambda run=run, variant=variant: _gradescope(
                    _gradescope_file(gradescope_dir, run, args, variant), run, words, packs, args))  # fmt: skip
            for step in steps:
                try:
                    written += step() or []
                except Exception as exc:  # an EvidenceError, an OSError, a defect a learner found
                    unrecorded = True
                    notes.append(words("run.learner_unrecorded", file=shown, reason=_reason(exc)))
            report.add(shown, run)
            del run, steps
        if commit is None:
            notes.append(_no_commit(measured, words))
        elif report.partial:
            notes.append(words("run.not_written.partial"))
        _sandbox_warnings(list(report.missing), words)
        ok = report.all_ok and not unrecorded
        code = EXIT_OK if ok else EXIT_FOUND_WANTING
        outputs: list[str] = []  # the class's report files (each learner's are in written)
        if args.junit_xml:
            from runner.reporters import junit

            junit.write_parts(
                Path(args.junit_xml), report.junit_parts(), report.junit_totals, "learn-llm class"
            )
            outputs.append(display_path(Path(args.junit_xml)))
        if gradescope_dir is not None:
            outputs.append(os.path.join(display_path(gradescope_dir), ""))
        if args.format == "json":
            report.emit_json(sys.stdout, written, code, notes)
        else:  # the rows were printed as each learner was judged (-v: after every detail)
            lines = report.lines() if args.verbose else []
            lines += [words("run.wrote", path=p) for p in [*written, *outputs]]
            lines += [words("run.unchanged", path=p) for p in kept] + notes
            _print(lines, args)
    finally:
        report.close()
    return code


def _shown_as_judged(
    results: Iterator[tuple[Path, api.Run]],
    args: argparse.Namespace,
    words: Catalog,
    names: list[str],
    width: int,
) -> Iterator[tuple[Path, api.Run]]:
    """``results``, each learner's row (with ``-v``, its whole run) printed as it is judged,
    and progress on stderr (a bar on a terminal; without one, a line per learner where
    stdout does not already show them: ``--format json``)."""
    rows_shown = args.format == "text"
    how = progress.mode(args.quiet, sys.stderr, output_has_lines=rows_shown)
    with progress.Progress(len(names), how, words("progress.judging")) as shown:
        if rows_shown and not args.verbose:
            shown.out(text.class_header(len(names), words))
        for (path, run), name in zip(results, names, strict=True):
            if rows_shown and args.verbose:
                for line in text.run_lines(run, words, verbose=True):
                    shown.out(line)
            row = text.class_row(name, run, words, width)
            if rows_shown and not args.verbose:
                shown.out(row)
            shown.advance(row.strip())
            yield path, run


def _class_evidence(
    run: api.Run, variant: str, commit: Commit, args: argparse.Namespace, kept: list[str]
) -> list[str]:
    """The learner's evidence files written; those left as they were are added to ``kept``
    (a learner whose file did not change since the class was last run)."""
    docs = _evidence(run, commit, args)
    name = variant + (f".{challenge_variant(args.challenge)}" if args.challenge is not None else "")
    recorded = record_evidence(Path(args.out), docs, commit.root, variant=name)
    kept += [display_path(p) for p in recorded.unchanged]
    return [display_path(p) for p in recorded.written]


def _reason(exc: Exception) -> str:
    message = getattr(exc, "message", None)  # an EvidenceError's own message, as data
    if message is not None and not isinstance(message, str):
        return printable_line(f"{type(exc).__name__}: {getattr(message, 'code', message)}")
    lines = str(exc).strip().splitlines()
    return printable_line(f"{type(exc).__name__}: {lines[-1] if lines else ''}")[:300]


def _other_learners(folder: Path, entry: str, packs: list[ClaimPack], words: Catalog) -> None:
    """A folder judged as one learner's submission because it holds ``entry``, whose other
    files define the chapter's functions themselves, is said on stderr: they may be other
    learners' files (a class folder one of them named my_impl.py is judged as that learner
    alone, and the others get nothing). Read as text, never imported."""
    import re

    from runner.learner.scaffold import module_subjects

    if not folder.is_dir():
        return
    names = "|".join(map(re.escape, module_subjects(packs)))
    defines = re.compile(rf"^def ({names})\(", re.MULTILINE)
    others = []
    try:
        for path in sorted(folder.glob("*.py"))[:200]:
            if path.name == entry or not path.is_file() or path.stat().st_size > 1_000_000:
                continue
            if defines.search(path.read_text(encoding="utf-8", errors="replace")):
                others.append(path.name)
    except OSError:
        return
    if len(others) >= 2:
        shown = ", ".join(others[:5]) + (", …" if len(others) > 5 else "")
        message = words("run.entry_beside_learners", folder=display_path(folder), entry=entry,
                        files=shown)  # fmt: skip
        print(printable_line(message), file=sys.stderr)


def _sandbox_warnings(missing: list[str], words: Catalog) -> None:
    """Every guarantee a learner's worker could not give on this machine, once, on stderr
    (the results say it per learner)."""
    for what in missing:
        print(printable_line(words("run.sandbox_missing", what=what)), file=sys.stderr)


def _gradescope_file(
    target: Path, run: api.Run, args: argparse.Namespace, variant: str | None
) -> Path:
    """Where results.json for Gradescope goes: ``target`` (a file), or ``<variant>.json`` in
    it when it is a directory (always, for a class)."""
    if variant is not None or target.is_dir():
        return target / f"{variant or _variant(run, args, None) or 'results'}.json"
    return target


def _interim(
    args: argparse.Namespace, words: Catalog, packs: list[ClaimPack]
) -> Callable[[api.Run], None]:
    """Writes a learner's Gradescope result so far (see api.RunOptions.on_phase)."""

    def write(run: api.Run) -> None:
        path = _gradescope_file(Path(args.gradescope_results), run, args, None)
        _gradescope(path, run, words, packs, args)

    return write


def _gradescope(
    path: Path, run: api.Run, words: Catalog, packs: list[ClaimPack], args: argparse.Namespace
) -> None:
    from runner.reporters import gradescope

    modules = [(p.meta.id, select(p.claims, args.pattern, p.code.registry)) for p in packs]
    gradescope.write(path, run, words, modules)


def _no_commit(measured: Commit | Unmeasured, words: Catalog) -> str:
    if isinstance(measured, Unmeasured) and measured.apart:
        return words("run.not_written.git_apart", **_apart(measured))
    if isinstance(measured, Unmeasured) and measured.silent:
        return words("run.not_written.git_silent", seconds=GIT_TIMEOUT_S)
    return words("run.not_written.git")


def _no_commit_to_check(measured: Commit | Unmeasured) -> NoReturn:
    if isinstance(measured, Unmeasured) and measured.apart:
        raise UsageError("use.check_needs_one_repository", **_apart(measured))
    raise UsageError("use.check_needs_git")


def _apart(measured: Unmeasured) -> dict[str, str]:
    first = display_path(measured.first) if measured.first is not None else "?"
    return {"folders": ", ".join(display_path(f) for f in measured.apart), "first": first}


def _evidence(
    run: api.Run, commit: Commit | None, args: argparse.Namespace
) -> list[tuple[ClaimPack, dict[str, Any]]]:
    if commit is None or not run.complete:
        return []
    from runner.inject import fault_section

    command = canonical_command(args, commit, run)
    docs = []
    for pack_run in run.packs:
        faults = fault_section(pack_run.faults) if pack_run.faults else None
        block = None
        if pack_run.challenge:
            from runner.challenges import challenge_record

            block = challenge_record(run.options.challenge or "", pack_run.challenge)
        doc = build_evidence(
            pack_run.pack,
            pack_run.results,
            run.implementation,
            commit.of(pack_run.pack.directory),  # the module's own, whatever ran beside it
            command,
            pack_run.duration_ms,
            faults,
            block,
        )
        docs.append((pack_run.pack, doc))
    return docs


def _measured(packs: list[ClaimPack]) -> tuple[list[Path], dict[Path, tuple[str, ...]]]:
    """The modules' folders, and each one's pack code (git asks whether it changed too)."""
    return [p.directory for p in packs], {p.directory: p.code.code_directories() for p in packs}


def _drift(out_dir: Path, docs: list[tuple[ClaimPack, dict[str, Any]]]) -> list[tuple[str, Drift]]:
    found: list[tuple[str, Drift]] = []
    for pack, doc in docs:
        path = out_dir / evidence_name(pack)
        shown = display_path(path)
        if not path.exists():
            found.append((shown, Drift("$", "-", "-", missing=True)))
            continue
        try:
            committed = read_json(path)
        except EvidenceError as exc:  # --check found it wanting: it cannot be read at all
            found.append((shown, Drift("$", "-", "-", unreadable=exc.message)))
            continue
        found += [(shown, d) for d in drift(committed, doc)]
    return found


def _variant(run: api.Run, args: argparse.Namespace, learner: str | None) -> str | None:
    parts = []
    if run.implementation.get("kind") == "learner":
        name = Path(str(run.implementation["name"]))  # a folder submission: its folder's name
        stem = name.parent.name or name.stem
        parts.append(learner_variants([stem], RESERVED_VARIANTS)[0])
    if args.challenge is not None:
        parts.append(challenge_variant(args.challenge))
    return ".".join(parts) or None


def challenge_variant(nonce: str) -> str:
    """``challenge-`` and 8 hex digits of the nonce's hash: runs under two nonces keep two
    files, and a nonce (any text a grader typed) never becomes part of a file name."""
    digest = hashlib.sha256(nonce.encode("utf-8", "surrogatepass")).hexdigest()
    return f"challenge-{digest[:8]}"


def canonical_command(args: argparse.Namespace, commit: Commit, run: api.Run) -> str:
    """The command that reproduces the evidence, with paths relative to the repository (so
    it reads the same from any directory; output-only flags are left out)."""
    parts = ["python -m runner run"]
    for raw in args.paths:
        path = Path(raw)
        shown = repo_relative(path, commit.root)
        parts.append(shown + "/" if path.is_dir() else shown)
    if args.pattern:
        parts += ["-k", shlex.quote(args.pattern)]
    if run.implementation.get("kind") == "learner":
        parts += ["--impl", shlex.quote(str(run.implementation["name"]))]
    if args.challenge is not None:
        parts += ["--challenge", shlex.quote(args.challenge)]
    return " ".join(parts)


def _print(lines: list[str], args: argparse.Namespace) -> None:
    if args.format == "text":
        for line in lines:
            print(line)
