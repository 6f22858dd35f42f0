"""Validate learner evidence: untrusted YAML or JSON against the schema and the claims.

Every problem is reported at once as ``JSON path: fact``, sorted by where it is in the
file. A submission is data only: it is parsed safely (no tags, no alias bombs, a size
limit), nothing in it is executed, and no file outside ``--repo`` is ever opened.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import re
import stat
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from checks.outcome import Raised
from checks.registry import Registry
from runner.challenges import challenge_claims
from runner.i18n import language, t
from runner.judge import judge
from runner.load import ClaimPack, LoadedClaim, display_path
from runner.models import Expectation
from runner.numbers import show, show_expectation
from runner.record import evidence_errors
from runner.run import shown_expected
from runner.safeyaml import Path as DataPath
from runner.safeyaml import YamlError, parse
from runner.validate import metric_name

MAX_SUBMISSION_BYTES = 2_000_000
MANIFEST = re.compile(r"^module-manifest-v\d+\.json$")  # evidence/'s index, not evidence
SUFFIXES = (".yaml", ".yml", ".json")
PLACEHOLDER = re.compile(r"<[^<>\n]{1,200}>")
# Clock skew and time zones: a date-only or zone-less time may be up to 14 h "ahead".
FUTURE_SLACK = dt.timedelta(hours=14)
WINDOWS_DRIVE = re.compile(r"^[A-Za-z]:")
IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
NONFINITE_STRINGS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}
UNSANITIZED_KEYS = {"user", "username", "login", "host", "hostname", "node", "home", "cwd"}
PATH_LIKE = re.compile(r"(?:^|[\s=:'\"(])(?:~[/\\]|/[^\s/]+/|[A-Za-z]:\\|\\\\[^\s\\]+\\)")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+\.[\w.-]+")
HOST_LIKE = re.compile(
    r"\b[\w-]+\.(?:local|lan|internal|corp|home)\b"  # a machine on a private network
    r"|\b[a-z][\w-]*(?:\.[a-z][\w-]*){2,}\.[a-z]{2,}\b"  # host.dept.example.edu (3+ dots)
    r"|\b(?:\d{1,3}\.){3}\d{1,3}\b",  # an IPv4 address
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Problem:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


@dataclass
class Report:
    file: str
    problems: list[Problem] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    def as_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "valid": self.valid,
            "problems": [{"path": p.path, "message": p.message} for p in self.problems],
        }


def json_path(path: DataPath) -> str:
    out = "$"
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif IDENTIFIER.match(part):
            out += f".{part}"
        else:
            out += "[" + json.dumps(part, ensure_ascii=False) + "]"
    return out


def submission_files(paths: list[Path]) -> Iterator[Path]:
    """The files named, and every *.yaml, *.yml and *.json directly inside a directory."""
    for path in paths:
        if path.is_dir():
            yield from sorted(
                p
                for p in path.iterdir()
                if p.suffix in SUFFIXES and p.is_file() and not MANIFEST.match(p.name)
            )
        else:
            yield path


class Validator:
    """Validates submissions against the schema and the claim packs; reusable per file."""

    def __init__(
        self,
        packs: list[ClaimPack],
        registry: Registry,
        repo: Path | None = None,
        challenge: str | None = None,
        now: dt.datetime | None = None,
    ) -> None:
        self.packs = {p.meta.id: p for p in packs}
        self.repo = repo.resolve() if repo is not None else None
        self.repo_is_git = self.repo is not None and (self.repo / ".git").exists()
        self.challenge = challenge
        self.now = now or dt.datetime.now(dt.UTC)
        self.metrics: dict[str, dict[str, tuple[LoadedClaim, Expectation]]] = {}
        self.challenge_metrics: dict[str, dict[str, tuple[LoadedClaim, Expectation]]] = {}
        for pack in packs:
            self.metrics[pack.meta.id] = _metric_index(list(pack.claims))
            if challenge is not None:
                claims = challenge_claims(pack, challenge, registry)
                self.challenge_metrics[pack.meta.id] = _metric_index(claims)
        self._commits: dict[str, bool] = {}

    # -- one file ---------------------------------------------------------------------------
    def validate_file(self, path: Path) -> Report:
        report = Report(display_path(path))
        try:
            info = os.stat(path)
            if not stat.S_ISREG(info.st_mode):  # a device or a pipe: stat's size means nothing
                report.problems.append(Problem("$", t("sub.read", reason=t("sub.not_regular"))))
                return report
            raw = _read_at_most(path, MAX_SUBMISSION_BYTES + 1)  # whatever stat said
        except OSError as exc:
            report.problems.append(Problem("$", t("sub.read", reason=exc.strerror)))
            return report
        size = max(info.st_size, len(raw))
        if size > MAX_SUBMISSION_BYTES:
            limit = f"{MAX_SUBMISSION_BYTES:,}"
            report.problems.append(Problem("$", t("sub.size", size=f"{size:,}", limit=limit)))
            return report
        data, problems = self.parse(raw, json_file=path.suffix == ".json")
        if data is not None or not problems:
            problems += self.validate_data(data)
        report.problems = _sorted(problems, data)
        return report

    def parse(self, raw: bytes, *, json_file: bool) -> tuple[Any, list[Problem]]:
        if json_file:
            return _parse_json(raw)
        try:
            doc = parse(raw, max_bytes=MAX_SUBMISSION_BYTES)
        except YamlError as exc:
            return None, [
                Problem(
                    json_path(p.path),
                    t("sub.yaml_line", line=p.line, message=p.message) if p.line else p.message,
                )
                for p in exc.problems
            ]
        # the parse measured the nesting, unless aliases can make it deeper than the text
        too_deep = _too_deep(doc.data) if doc.depth is None else doc.depth > MAX_DEPTH
        if too_deep:
            return None, [Problem("$", t("sub.too_deep"))]
        return doc.data, []

    # -- the data ---------------------------------------------------------------------------
    def validate_data(self, data: Any) -> list[Problem]:
        if not isinstance(data, dict):
            return [Problem("$", t("sub.not_mapping", kind=_kind(data)))]
        problems: list[Problem] = []
        placeholders: set[str] = set()
        for path, value in _walk(data) if _suspect(data) else ():
            if isinstance(value, str) and "<" in value:
                where = json_path(path)
                for found in PLACEHOLDER.findall(value):
                    problems.append(Problem(where, t("sub.placeholder", placeholder=found)))
                    placeholders.add(where)
            elif isinstance(value, float) and not math.isfinite(value):
                problems.append(Problem(json_path(path), t("sub.nonfinite", value=show(value))))
        for error in evidence_errors(data):
            where = error.json_path
            if where in placeholders:
                continue  # the placeholder says it better
            problems.append(Problem(where, _short(error.message)))
        problems += self._module_and_metrics(data, placeholders)
        problems += _runner_claims(data)
        problems += self._provenance(data)
        problems += self._artifacts(data)
        return problems

    def _module_and_metrics(self, data: dict[str, Any], placeholders: set[str]) -> list[Problem]:
        out: list[Problem] = []
        module = data.get("module")
        if not isinstance(module, str) or "$.module" in placeholders:
            return out
        if module not in self.packs:
            known = ", ".join(sorted(self.packs)) or "none"
            return [Problem("$.module", t("sub.unknown_module", module=module, known=known))]
        pack = self.packs[module]
        known_metrics = self.metrics[module]
        challenge = self.challenge_metrics.get(module, {})
        metrics = data.get("metrics")
        if not isinstance(metrics, list):
            return out
        seen: dict[str, int] = {}
        for i, metric in enumerate(metrics):
            if not isinstance(metric, dict) or not isinstance(metric.get("name"), str):
                continue
            name = metric["name"]
            base = f"$.metrics[{i}]"
            if name in seen:
                out.append(
                    Problem(
                        f"{base}.name",
                        t("sub.duplicate_metric", name=name, other=f"$.metrics[{seen[name]}]"),
                    )
                )
                continue
            seen[name] = i
            entry = known_metrics.get(name) or challenge.get(name)
            if entry is None:
                if name.startswith("challenge.") and self.challenge is None:
                    continue  # challenge metrics are checked only with --challenge
                out.append(
                    Problem(
                        f"{base}.name",
                        t(
                            "sub.unknown_metric",
                            name=name,
                            module=module,
                            version=pack.meta.version,
                        ),
                    )
                )
                continue
            out += self._metric(base, metric, entry, placeholders, pack)
        if self.challenge is not None:
            out += self._challenge(data, seen, challenge)
        if not metrics and "$.metrics" not in placeholders:
            out.append(Problem("$.metrics", t("sub.no_metrics")))
        return out

    def _metric(
        self,
        base: str,
        metric: dict[str, Any],
        entry: tuple[LoadedClaim, Expectation],
        placeholders: set[str],
        pack: ClaimPack,
    ) -> list[Problem]:
        loaded, exp = entry
        out: list[Problem] = []
        version = f"{pack.meta.id} v{pack.meta.version}"
        expected = metric.get("expected")
        if (
            "expected" in metric
            and f"{base}.expected" not in placeholders
            and not _same(expected, shown_expected(exp))
        ):
            out.append(
                Problem(
                    f"{base}.expected",
                    t(
                        "sub.expected",
                        value=_shown(expected, exp.unit),
                        expected=show_expectation(exp),
                        version=version,
                        claim=loaded.claim.id,
                    ),
                )
            )
        if "actual" in metric and not _has_placeholder(metric["actual"]):
            actual = _decode(metric["actual"])
            if _nonfinite_inside(actual):
                # a float NaN was reported where it is; the evidence's "NaN" strings were not
                if not _nonfinite_inside(metric["actual"]):
                    out.append(Problem(f"{base}.actual", t("sub.nan_actual")))
            else:
                verdict, detail = judge(exp, actual, language())
                if verdict != "passed":
                    why = t("run.detail", detail=detail) if detail else ""
                    out.append(
                        Problem(
                            f"{base}.actual",
                            t(
                                "sub.outside",
                                actual=_shown(actual, exp.unit),
                                expected=show_expectation(exp),
                                why=why,
                            ),
                        )
                    )
        return out

    def _challenge(
        self,
        data: dict[str, Any],
        seen: dict[str, int],
        wanted: dict[str, tuple[LoadedClaim, Expectation]],
    ) -> list[Problem]:
        out = []
        block = data.get("challenge")
        nonce = block.get("nonce") if isinstance(block, dict) else None
        if nonce is None:
            out.append(Problem("$.challenge", t("sub.challenge_missing", nonce=self.challenge)))
        elif nonce != self.challenge:
            out.append(
                Problem(
                    "$.challenge.nonce",
                    t("sub.challenge_other", nonce=nonce, expected=self.challenge),
                )
            )
        for name in wanted:
            if name not in seen:
                out.append(Problem("$.metrics", t("sub.challenge_metric", name=name)))
        return out

    def _provenance(self, data: dict[str, Any]) -> list[Problem]:
        out: list[Problem] = []
        commit = data.get("commit")
        if (
            isinstance(commit, str)
            and re.fullmatch(r"[0-9a-f]{7,40}", commit)
            and self.repo_is_git
            and not self._is_commit(commit)
        ):
            out.append(Problem("$.commit", t("sub.commit", commit=commit, repo=self.repo_name)))
        when = data.get("verified_at")
        if isinstance(when, str) and not PLACEHOLDER.search(when):
            parsed = _parse_time(when)
            if parsed is None:
                out.append(Problem("$.verified_at", t("sub.time_format", value=when)))
            elif parsed > self.now + (
                dt.timedelta(minutes=5) if parsed.tzinfo and "T" in when else FUTURE_SLACK
            ):
                out.append(Problem("$.verified_at", t("sub.future", value=when)))
        env = data.get("environment")
        for path, value in _walk(env, ("environment",)):
            where = json_path(path)
            key = path[-1] if len(path) > 1 else None
            if isinstance(key, str) and key.lower() in UNSANITIZED_KEYS:
                out.append(Problem(where, t("sub.env_key", key=key)))
            elif isinstance(value, str) and not PLACEHOLDER.search(value):
                if PATH_LIKE.search(value):
                    out.append(Problem(where, t("sub.env_path", value=value)))
                elif EMAIL.search(value):
                    out.append(
                        Problem(
                            where,
                            t("sub.env_email", value=value),
                        )
                    )
                elif HOST_LIKE.search(value):
                    out.append(
                        Problem(
                            where,
                            t("sub.env_host", value=value),
                        )
                    )
        return out

    @property
    def repo_name(self) -> str:
        return display_path(self.repo) if self.repo else "the repository"

    def _is_commit(self, sha: str) -> bool:
        if sha not in self._commits:
            assert self.repo is not None
            try:
                done = subprocess.run(
                    ["git", "-C", str(self.repo), "cat-file", "-e", f"{sha}^{{commit}}"],
                    capture_output=True,
                    timeout=30,
                    check=False,
                )
                self._commits[sha] = done.returncode == 0
            except (OSError, subprocess.TimeoutExpired):
                self._commits[sha] = True  # cannot tell: do not accuse
        return self._commits[sha]

    def _artifacts(self, data: dict[str, Any]) -> list[Problem]:
        out: list[Problem] = []
        artifacts = data.get("artifacts")
        if not isinstance(artifacts, list):
            return out
        for i, item in enumerate(artifacts):
            if not isinstance(item, str) or PLACEHOLDER.search(item) or not item:
                continue
            where = f"$.artifacts[{i}]"
            problem = _artifact_problem(item, self.repo)
            if problem:
                out.append(Problem(where, problem))
        return out


def _artifact_problem(item: str, repo: Path | None) -> str | None:
    """Why ``item`` is not a usable repository-relative path, or None. Never opens a file."""
    if "\0" in item:
        return t("sub.artifact_nul")
    # Both separators count: a path written on Windows must not slip past as one name.
    parts = [p for p in re.split(r"[\\/]", item) if p not in ("", ".")]
    if item[:1] in ("/", "\\", "~") or WINDOWS_DRIVE.match(item):
        return t("sub.artifact_absolute", item=item)
    if ".." in parts:
        return t("sub.artifact_escape", item=item)
    if not parts:
        return t("sub.artifact_not_file", item=item)
    if ".git" in parts:
        return t("sub.artifact_git", item=item)
    if repo is None:
        return None
    candidate = os.path.join(repo, item)
    # realpath follows symlinks through lstat/readlink only; nothing is opened or read
    resolved = os.path.realpath(candidate)
    root = str(repo)
    if resolved != root and not resolved.startswith(root.rstrip(os.sep) + os.sep):
        return t("sub.artifact_symlink", item=item)
    try:
        os.lstat(candidate)
    except OSError:
        return t("sub.artifact_missing", item=item)
    if os.path.isdir(resolved):
        return t("sub.artifact_not_file", item=item)
    return None


# -- parsing and helpers --------------------------------------------------------------------------
class _Duplicates(dict[str, Any]):
    duplicates: list[str]


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = _Duplicates()
    out.duplicates = []
    for key, value in pairs:
        if key in out:
            out.duplicates.append(key)
        out[key] = value
    return out


def _parse_json(raw: bytes) -> tuple[Any, list[Problem]]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [Problem("$", t("sub.not_utf8", byte=exc.start))]
    try:
        data = json.loads(text, object_pairs_hook=_pairs)
        if _too_deep(data):
            return None, [Problem("$", t("sub.too_deep"))]
    except json.JSONDecodeError as exc:
        return None, [Problem("$", t("sub.json_syntax", line=exc.lineno, message=exc.msg))]
    except RecursionError:
        return None, [Problem("$", t("sub.too_deep"))]
    problems = [
        Problem(json_path(path), t("sub.duplicate_key", key=key))
        for path, value in _walk(data)
        if isinstance(value, _Duplicates)
        for key in value.duplicates
    ]
    return data, problems


MAX_DEPTH = 64  # the runner's own evidence nests 7 levels deep


def _too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether containers nest more than ``limit`` levels (iteratively: no recursion)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def _read_at_most(path: Path, limit: int) -> bytes:
    """The file's first ``limit`` bytes, read without a buffered file object (a submission is
    read once, whole, and this is a fifth of the time of open().read())."""
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks: list[bytes] = []
        size = 0
        while size < limit:
            chunk = os.read(fd, limit - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _suspect(value: Any) -> bool:
    """Whether any string holds a "<" or any float is NaN or infinite: the rare documents
    for which the walk that builds every value's path is worth its cost."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "<" in item:
                return True
        elif isinstance(item, float):
            if not math.isfinite(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _walk(value: Any, path: DataPath = ()) -> Iterator[tuple[DataPath, Any]]:
    """Every (path, value) in document order; a stack, not nested generators, which cost
    a frame per level per value."""
    stack: list[tuple[DataPath, Any]] = [(path, value)]
    while stack:
        where, item = stack.pop()
        yield where, item
        if isinstance(item, dict):
            stack.extend(((*where, str(k)), v) for k, v in reversed(item.items()))
        elif isinstance(item, list):
            stack.extend(((*where, i), v) for i, v in reversed(list(enumerate(item))))


def _sorted(problems: list[Problem], data: Any) -> list[Problem]:
    """In the order of the file: by the position of the closest existing ancestor."""
    if len(problems) < 2:
        return problems
    order = {json_path(path): i for i, (path, _) in enumerate(_walk(data))}

    def key(p: Problem) -> tuple[int, str, str]:
        path = p.path
        while path not in order and path != "$":
            path = re.sub(r"(\.[^.\[\]]+|\[[^\[\]]*\])$", "", path) or "$"
        return (order.get(path, 0), p.path, p.message)

    unique = list(dict.fromkeys(problems))
    return sorted(unique, key=key)


def _metric_index(claims: list[LoadedClaim]) -> dict[str, tuple[LoadedClaim, Expectation]]:
    return {
        metric_name(c.claim.id, e.measure, e.metric): (c, e) for c in claims for e in c.claim.expect
    }


def _same(submitted: Any, expected: Any) -> bool:
    if isinstance(submitted, bool) or isinstance(expected, bool):
        return type(submitted) is type(expected) and submitted == expected
    if isinstance(submitted, int | float) and isinstance(expected, int | float):
        if not (math.isfinite(submitted) and math.isfinite(expected)):
            return False
        return math.isclose(submitted, expected, rel_tol=1e-12, abs_tol=1e-300)
    if isinstance(submitted, list) and isinstance(expected, list):
        return len(submitted) == len(expected) and all(
            _same(a, b) for a, b in zip(submitted, expected, strict=True)
        )
    if isinstance(submitted, dict) and isinstance(expected, dict):
        return submitted.keys() == expected.keys() and all(
            _same(submitted[k], expected[k]) for k in submitted
        )
    return bool(submitted == expected)


def _shown(value: Any, unit: Any) -> str:
    """A submitted value in a message: a string quoted, so '4701.20' is not read as 4701.20."""
    return repr(value) if isinstance(value, str) else show(value, unit)


def _decode(value: Any) -> Any:
    """Evidence encodings back to values: 'NaN' strings, {raised: X} objects."""
    if isinstance(value, str) and value in NONFINITE_STRINGS:
        return NONFINITE_STRINGS[value]
    if isinstance(value, dict) and set(value) == {"raised", "message"}:
        return Raised(str(value["raised"]), str(value["message"]), (str(value["raised"]),))
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


def _nonfinite_inside(value: Any) -> bool:
    if isinstance(value, list):
        return any(_nonfinite_inside(v) for v in value)
    return isinstance(value, float) and not math.isfinite(value)


def _has_placeholder(value: Any) -> bool:
    return any(isinstance(v, str) and PLACEHOLDER.search(v) for _, v in _walk(value))


def _parse_time(text: str) -> dt.datetime | None:
    try:
        parsed = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


def _kind(value: Any) -> str:
    return {list: "a list", str: "a string", type(None): "nothing"}.get(
        type(value), type(value).__name__
    )


def _short(message: str, limit: int = 200) -> str:
    return message if len(message) <= limit else message[: limit - 3] + "..."


def _runner_claims(data: dict[str, Any]) -> list[Problem]:
    """The runner's own evidence lists its claims: each must have passed."""
    claims = data.get("claims")
    if not isinstance(claims, list):
        return []
    out = []
    for i, claim in enumerate(claims):
        if isinstance(claim, dict) and claim.get("status") in ("failed", "error", "skipped"):
            why = f": {claim['error']}" if isinstance(claim.get("error"), str) else ""
            out.append(
                Problem(
                    f"$.claims[{i}].status",
                    t("sub.claim_status", claim=claim.get("id"), status=claim["status"], why=why),
                )
            )
    return out
