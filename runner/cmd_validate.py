"""`validate`: judge learner evidence files."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from runner.errors import UsageError
from runner.exits import EXIT_FOUND_WANTING, EXIT_OK
from runner.i18n import t
from runner.load import display_path
from runner.reporters import junit
from runner.submission import submission_files
from runner.validate_many import validate_files


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
