"""What a Gradescope container runs for one submission (the bundle's ``run_autograder``).

Gradescope's autograder specification
(https://gradescope-autograders.readthedocs.io/en/latest/specs/): the bundle is unpacked in
``/autograder/source``, the learner's upload is in ``/autograder/submission``, and
``/autograder/results/results.json`` must exist when ``run_autograder`` ends; what it prints
goes to ``/autograder/results/stdout``, which only instructors see.

This file is copied into the bundle and runs there with the standard library only, so that
it can still write a result when the engine itself cannot start (a failed ``setup.sh``): it
finds the learner's file, judges the folder holding it with the ordinary command line
(``python -P -m runner run <modules> --impl <folder> --entry <file> --gradescope-results
<results.json>``: the engine's own judging, worker and Gradescope reporter, nothing
reimplemented), and writes a score-0 result with a readable message when that command leaves
none. ``AUTOGRADER_ROOT`` moves ``/autograder``
elsewhere (the bundle's own test runs it in a temporary folder).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CONFIG = "bundle.json"
# the entry the engine takes in a folder when none is named (runner.learner.staging's; this
# file runs alone, with Gradescope's Python, so it is written here again: a test holds them equal)
DEFAULT_ENTRY = "my_impl.py"
MAX_ENTRIES = 10_000  # files and folders looked at in a submission before giving up
SKIPPED_DIRS = ("__pycache__", "__MACOSX")
# folders looked into below the submission's top: os.walk recurses (Python 3.11), and a
# submission thousands of folders deep would end it in a RecursionError, with no result
MAX_DEPTH = 16


def main() -> int:
    for stream in (sys.stdout, sys.stderr):  # a strict locale never stops the result
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    root = Path(os.environ.get("AUTOGRADER_ROOT") or "/autograder")
    source = Path(__file__).resolve().parent
    config: dict[str, Any] = json.loads((source / CONFIG).read_text(encoding="utf-8"))
    words: dict[str, str] = config["messages"]
    results = root / "results" / "results.json"
    results.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()

    entry, problem = find_entry(root / "submission", config.get("entry"), words)
    if entry is None:
        say(problem)
        write_fallback(results, problem, started)
        return 0
    shown = entry.relative_to(root) if root in entry.parents else entry
    say(words["judging"].format(path=printable(str(shown))))
    reason = judge(entry, source, config, results)
    if reason is not None:
        say(reason)
        write_fallback(results, reason, started)
    return 0


def find_entry(
    submission: Path, entry: str | None, words: dict[str, str]
) -> tuple[Path | None, str]:
    """The learner's file: the submission itself when it is a file; in a folder, the file
    named ``entry`` (the shallowest), else its only Python file, else its only one at the
    top. Links are never followed (a link could point at the grader's own files)."""
    if submission.is_symlink() or not submission.exists():
        return None, words["no_submission"]
    if submission.is_file():
        if submission.suffix != ".py":
            return None, words["not_python"].format(name=printable(submission.name))
        return submission, ""
    found: list[Path] = []
    seen = 0
    for folder, dirs, files in os.walk(submission, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_DIRS)
        if len(Path(folder).relative_to(submission).parts) >= MAX_DEPTH:
            dirs[:] = []
        seen += len(dirs) + len(files)
        if seen > MAX_ENTRIES:
            return None, words["too_many"].format(n=MAX_ENTRIES)
        for name in sorted(files):
            path = Path(folder, name)
            # a hidden file is not a module the engine takes as an entry (nor are links)
            hidden = name.startswith(".") or "\\" in name  # nor a name the engine refuses
            if name.endswith(".py") and not hidden and not path.is_symlink() and path.is_file():
                found.append(path)
    depth = {p: len(p.relative_to(submission).parts) for p in found}
    if entry:
        named = sorted((p for p in found if p.name == entry), key=lambda p: (depth[p], str(p)))
        if named:
            return named[0], ""
        return None, words["no_entry"].format(name=printable(entry))
    if len(found) == 1:
        return found[0], ""
    top = [p for p in found if depth[p] == 1]
    default = [p for p in top if p.name == DEFAULT_ENTRY]
    if default:  # as `run --impl FOLDER` takes it: my_impl.py beside the learner's helpers
        return default[0], ""
    if len(top) == 1:
        return top[0], ""
    if not found:
        return None, words["no_python"]
    names = ", ".join(printable(str(p.relative_to(submission))) for p in found[:5])
    more = "" if len(found) <= 5 else ", …"
    return None, words["several"].format(n=len(found), names=names + more)


def judge(entry: Path, source: Path, config: dict[str, Any], results: Path) -> str | None:
    """Run the engine on ``entry``; None when it wrote a result, else why it did not."""
    words: dict[str, str] = config["messages"]
    modules = [str(source / m["path"]) for m in config["modules"]]
    with tempfile.TemporaryDirectory(prefix="learn-llm-") as work:
        # -P: nothing of the current folder is imported by the judge; the folder holding the
        # entry is the submission (the learner's own helper modules beside it are theirs)
        command = [sys.executable, "-P", "-m", "runner", "run", *modules]
        # one argument: a name starting with "-" is no option of the engine's
        command += ["--impl", str(entry.parent), f"--entry={entry.name}"]
        command += ["--gradescope-results", str(results), "--out", str(Path(work, "evidence"))]
        command += ["--lang", config["lang"], *config.get("run_options", [])]
        _remove(results)  # a result left from before must not pass for this run's
        try:
            done = subprocess.run(
                command,
                cwd=work,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                timeout=config["deadline_s"],
                check=False,
            )
        except subprocess.TimeoutExpired as stopped:
            show(stopped.stdout, stopped.stderr)
            if valid(results):
                # the result the engine wrote before the claims graded later, those not
                # judged: how long the hidden claims took must not change what is shown
                print(words["deadline"].format(seconds=config["deadline_s"]), file=sys.stderr)
                return None
            return words["deadline"].format(seconds=config["deadline_s"])
        except OSError as exc:
            return words["no_result"].format(reason=f"{type(exc).__name__}: {exc}")
        show(done.stdout, done.stderr)
    if valid(results):
        return None
    lines = [ln for ln in done.stderr.decode("utf-8", "replace").splitlines() if ln.strip()]
    reason = lines[-1] if lines else f"exit {done.returncode}"
    return words["no_result"].format(reason=reason[:500])


def valid(results: Path) -> bool:
    try:
        data = json.loads(results.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and isinstance(data.get("score"), (int, float))  # 3.8 too


def write_fallback(results: Path, message: str, started: float) -> None:
    """A result Gradescope accepts when the engine gave none: score 0 and why."""
    data = {
        "score": 0.0,
        "output": "\n".join(printable(line) for line in message.split("\n")),
        "visibility": "visible",
        "execution_time": round(time.monotonic() - started),
        "tests": [],
    }
    temporary = results.with_name(results.name + ".tmp")
    _remove(temporary)
    temporary.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    _remove(results)  # whatever the engine left there (a folder, once): the result goes there
    os.replace(temporary, results)


def _remove(path: Path) -> None:
    """``path`` gone, whatever it is (a file, a link, a folder)."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    elif path.exists() or path.is_symlink():
        path.unlink()


def show(*streams: bytes | None) -> None:
    """The engine's output, for the instructors' view (``results/stdout``)."""
    for stream in streams:
        if stream:
            sys.stdout.write(stream.decode("utf-8", "replace"))
    sys.stdout.flush()


def say(line: str) -> None:
    print(line, flush=True)


def printable(text: str) -> str:
    """``text`` as it can be shown and written as UTF-8: a file name's undecodable bytes (lone
    surrogates) and control characters as their escapes (runner.text's rule, written here
    again: this file must write a result even where the engine cannot be imported)."""
    return "".join(
        c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text
    )


if __name__ == "__main__":
    sys.exit(main())
