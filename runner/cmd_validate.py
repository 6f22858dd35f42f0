"""`validate`: judge learner evidence files. Every file gets its verdict, the batch a summary.

Exit 0 when every submission is valid, 1 when any is not, 2 for misuse (a path that does
not exist, a ``--repo`` that is not a repository's root, an absurd ``--jobs``).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from runner import progress
from runner.errors import UsageError
from runner.exits import EXIT_FOUND_WANTING, EXIT_OK
from runner.files import refuse_special
from runner.i18n import Catalog
from runner.load import display_path

if TYPE_CHECKING:
    from runner.submission import SubmissionFile

MAX_JOBS = 1024
PROGRESS_FROM = 50  # files: a smaller batch is done before a bar would be read
_JOBS = re.compile(r"\+?[0-9]{1,4}")


def add_arguments(parser: argparse.ArgumentParser, words: Catalog) -> None:
    parser.add_argument(
        "paths", nargs="+", metavar="FILE_OR_DIR", help=words("help.validate.paths")
    )
    parser.add_argument("--repo", metavar="DIR", help=words("help.validate.repo"))
    parser.add_argument(
        "--format",
        choices=("text", "json", "jsonl"),
        default="text",
        help=words("help.validate.format"),
    )
    parser.add_argument("-q", "--quiet", action="store_true", help=words("help.quiet"))
    parser.add_argument("--junit-xml", metavar="FILE", help=words("help.junit"))
    parser.add_argument("--challenge", metavar="NONCE", help=words("help.validate.challenge"))
    parser.add_argument("--jobs", default="1", metavar="N", help=words("help.validate.jobs"))
    parser.add_argument("--claims", default="claims/", metavar="DIR", help=words("help.claims"))
    parser.add_argument(
        "--course-evidence", action="store_true", help=words("help.validate.course_evidence")
    )


def cmd_validate(args: argparse.Namespace, words: Catalog) -> int:
    from runner.submission import submission_files
    from runner.validate_many import validate_files

    jobs = _jobs(args.jobs)
    paths = [Path(p) for p in args.paths]
    for path in paths:
        if not os.path.lexists(path):
            raise UsageError("use.no_such_path", path=display_path(path))
    repo = _repository_root(args.repo) if args.repo is not None else None
    files = submission_files(paths)
    if not files:
        raise UsageError("use.no_submissions")
    if args.junit_xml is not None:
        _not_an_input(Path(args.junit_xml), files)
        refuse_special([Path(args.junit_xml)])
    _safe_output()
    # text and JSON Lines print each file's verdict as it is judged; one JSON document only
    # at the end, so a large batch shows progress (a bar on a terminal, else a line a file)
    streamed = args.format != "json"
    how = progress.mode(args.quiet, sys.stderr, output_has_lines=streamed)
    if len(files) < PROGRESS_FROM:
        how = "off"
    reports = []
    documents = []
    with progress.Progress(len(files), how, words("progress.validating")) as shown:
        for report in validate_files(
            files, Path(args.claims), repo, args.challenge, jobs, args.course_evidence
        ):
            reports.append(report)
            headline = report.headline(words) if args.format == "text" or how == "lines" else ""
            if args.format == "json":
                documents.append(report.as_json(words))
            elif args.format == "jsonl":
                shown.out(json.dumps(report.as_json(words), ensure_ascii=False))
            else:
                shown.out(headline)
                for problem in report.problems:
                    shown.out(f"  {problem.render(words)}")
            shown.advance(headline)
    valid = sum(r.valid for r in reports)
    invalid = len(reports) - valid
    summary = {"files": len(reports), "valid": valid, "invalid": invalid}
    if args.format == "json":  # indented for a person at a terminal, compact for a script
        indent = 2 if sys.stdout.isatty() else None
        print(
            json.dumps(
                {"submissions": documents, "summary": summary}, ensure_ascii=False, indent=indent
            )
        )
    elif args.format == "jsonl":
        print(json.dumps({"summary": summary}))
    elif len(reports) > 1:
        print(words("validate.summary", n=len(reports), valid=valid, invalid=invalid, unit="count"))
    if args.junit_xml:
        from runner.reporters import junit

        suite = junit.submissions_suite(reports, words)
        junit.write(
            Path(args.junit_xml), [suite], "learn-llm submissions"
        )  # one line if unwritable
        if args.format == "text":
            print(words("run.wrote", path=display_path(Path(args.junit_xml))))
    return EXIT_OK if invalid == 0 else EXIT_FOUND_WANTING


def _jobs(text: str) -> int:
    """``--jobs``: 1 to MAX_JOBS (capped later at the files and the CPUs); anything else is
    misuse, said in one line, never a traceback or a thousand workers."""
    if not _JOBS.fullmatch(text) or not 1 <= int(text) <= MAX_JOBS:
        raise UsageError("use.jobs", value=text[:40], limit=MAX_JOBS, unit="count")
    return int(text)


def _repository_root(text: str) -> Path:
    """``--repo`` must be the root of a repository (a folder holding ``.git``): a plain
    folder or a subfolder of a checkout would let a foreign commit pass unchecked."""
    if not text:  # Path("") is the current directory: never what an empty value meant
        raise UsageError("use.repo_empty")
    path = Path(text)
    if not path.is_dir():
        raise UsageError("use.repo_not_dir", path=display_path(path))
    if not os.path.lexists(path / ".git"):
        raise UsageError("use.repo_not_root", path=display_path(path))
    return path


def _not_an_input(output: Path, files: list[SubmissionFile]) -> None:
    """``--junit-xml`` must not name a submission: the report would overwrite what it
    judged. The same file under another name (a symlink, a hard link) counts too."""
    try:
        written = os.stat(output)
    except OSError:
        written = None
    target = os.path.realpath(output)
    for file in files:
        same = os.path.realpath(file.path) == target
        if not same and written is not None:
            try:
                same = os.path.samestat(written, os.stat(file.path))
            except OSError:
                same = False
        if same:
            raise UsageError("use.output_is_input", path=display_path(output))


def _safe_output() -> None:
    """Whatever the terminal's encoding, a message is printed, escaped if need be."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
