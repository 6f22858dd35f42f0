"""`bundle gradescope`: the zip a Gradescope autograder takes (runner/bundle/ builds it)."""

from __future__ import annotations

import argparse
from pathlib import Path

from runner.cmd_run import MAX_MEMORY_MIB, MAX_TIMEOUT_S, _bounded
from runner.commands import load_each
from runner.errors import InvalidClaims, UsageError
from runner.exits import EXIT_OK
from runner.files import refuse_overwriting
from runner.i18n import Catalog, catalog, resolve_language
from runner.learner.limits import WorkerLimits
from runner.load import display_path

TARGETS = ("gradescope",)


def add_arguments(parser: argparse.ArgumentParser, words: Catalog) -> None:
    parser.add_argument("target", choices=TARGETS, help=words("help.bundle.target"))
    parser.add_argument(
        "paths", nargs="*", default=["claims/"], metavar="PATH", help=words("help.run.paths")
    )
    parser.add_argument(
        "--out", default="autograder.zip", metavar="ZIP", help=words("help.bundle.out")
    )
    parser.add_argument("--wheel", metavar="WHEEL", help=words("help.bundle.wheel"))
    parser.add_argument("--entry", metavar="NAME.py", help=words("help.bundle.entry"))
    parser.add_argument(
        "--results-lang", choices=("zh", "en"), default=None, help=words("help.bundle.lang")
    )
    # the worker's limits in the container; by default those of `run`
    parser.add_argument(
        "--timeout",
        type=_bounded("--timeout", float, 0.1, MAX_TIMEOUT_S),
        metavar="SECONDS",
        help=words("help.run.timeout", default=WorkerLimits.timeout_s),
    )
    parser.add_argument(
        "--memory-mib",
        type=_bounded("--memory-mib", int, 256, MAX_MEMORY_MIB),
        metavar="MIB",
        help=words("help.run.memory", default=WorkerLimits.memory_mib),
    )


def cmd_bundle(args: argparse.Namespace, words: Catalog) -> int:
    from runner.bundle import gradescope
    from runner.bundle.wheel import engine_wheel

    packs, problems = load_each(args.paths, words)
    if problems:  # a bundle of part of a course would grade the rest as if it did not exist
        raise InvalidClaims(problems)
    if args.entry is not None and (
        Path(args.entry).name != args.entry or not args.entry.endswith(".py")
    ):
        raise UsageError("bundle.bad_entry", name=args.entry)
    refuse_overwriting([args.out], [f for pack in packs for f in pack.files])
    run_options: list[str] = []
    if args.timeout is not None:
        run_options += ["--timeout", f"{args.timeout:g}"]
    if args.memory_mib is not None:
        run_options += ["--memory-mib", str(args.memory_mib)]
    lang = resolve_language(args.results_lang or words.lang)
    wheel = engine_wheel(Path(args.wheel) if args.wheel else None)
    options = gradescope.Options(lang=lang, entry=args.entry, run_options=tuple(run_options))
    files = gradescope.entries(packs, wheel, catalog(lang), options)
    gradescope.write(Path(args.out), files)
    modules = ", ".join(f"{p.meta.id} v{p.meta.version}" for p in packs)
    print(
        words(
            "bundle.wrote",
            path=display_path(Path(args.out)),
            modules=modules,
            wheel=wheel.name,
            lang=lang,
        )
    )
    return EXIT_OK
