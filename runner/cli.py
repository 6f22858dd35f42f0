"""The command line. It parses arguments and calls load, validate, run and record; no more.

Exit codes: 0 every claim passed; 1 something was checked and found wanting (a claim
failed, errored or was skipped, or the evidence drifted); 2 misuse or invalid input.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from runner.errors import ClaimsError, InvalidClaims, UsageError
from runner.exits import EXIT_FOUND_WANTING, EXIT_MISUSE
from runner.i18n import LANGS, Catalog, catalog, resolve_language


def _command(target: str) -> Callable[[argparse.Namespace, Catalog], int]:
    """The command's function, imported only now: `run` never loads what `validate` or
    `report` need, which keeps every command's start-up to its own dependencies."""
    module_name, _, name = target.partition(":")
    fn: Callable[[argparse.Namespace, Catalog], int] = getattr(
        importlib.import_module(module_name), name
    )
    return fn


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's own exit code for misuse is 2 too
        self.print_usage(sys.stderr)
        raise UsageError("use.arguments", message=message)


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
    run.set_defaults(command_fn="runner.cmd_run:cmd_run")

    validate = sub.add_parser(
        "validate", parents=[common], help="validate learner evidence (YAML or JSON)"
    )
    importlib.import_module("runner.cmd_validate").add_arguments(validate)
    validate.set_defaults(command_fn="runner.cmd_validate:cmd_validate")

    listing = sub.add_parser(
        "list", parents=[common], help="list modules, their claims and their faults"
    )
    listing.add_argument("paths", nargs="*", default=["claims/"], metavar="PATH")
    listing.add_argument("--format", choices=("text", "json"), default="text")
    listing.set_defaults(command_fn="runner.cmd_misc:cmd_list")

    report = sub.add_parser(
        "report", parents=[common], help="an HTML page (with figures) from an evidence file"
    )
    report.add_argument("evidence", metavar="EVIDENCE.json")
    report.add_argument("--html", required=True, metavar="OUT.html")
    report.set_defaults(command_fn="runner.cmd_misc:cmd_report")

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
    scaffold.set_defaults(command_fn="runner.cmd_misc:cmd_scaffold")

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
    inject.set_defaults(command_fn="runner.cmd_inject:cmd_inject")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = catalog(resolve_language(None))
    try:
        args = build_parser().parse_args(argv)
        words = catalog(resolve_language(args.lang))
        code: int = _command(args.command_fn)(args, words)
        return code
    except InvalidClaims as exc:
        for problem in exc.problems:
            print(problem.render(words), file=sys.stderr)
        print(exc.render(words), file=sys.stderr)
        return EXIT_MISUSE
    except ClaimsError as exc:
        print(words("error", message=exc.render(words)), file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print(words("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader (e.g. `| head`) left; say nothing more, as other command-line tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FOUND_WANTING
