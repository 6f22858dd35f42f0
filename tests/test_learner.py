"""A learner's own file: ``scaffold``, ``run --impl FILE`` and the challenge round trip.

Every test runs in ``tmp_path`` (files are shown by their short names) and writes evidence to
``ev/`` there; the project's claims are read in place and nothing in the project is written.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import json
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from runner.challenges import challenge_claims, nonce_rng
from runner.cmd_run import challenge_variant
from runner.learner.scaffold import module_subjects
from runner.load import load_packs
from runner.validate import metric_name
from tests.conftest import MODULE, REGISTRY, ROOT, Result, partial_module_yaml

MODULE_ID = "23-design-tradeoffs"
(PACK,) = load_packs([MODULE])
VERSION = PACK.meta.version
N_CLAIMS = len(PACK.claims)  # 17 when the chapter's eight propositions were written down
# The chapter's functions (the README's list); a module may add more.
FUNCTIONS = {
    "sequence_support_log10",
    "chain_rule_nll",
    "giant_mlp_parameter_log10",
    "transformer_parameter_count",
    "attention_parameter_count",
    "averaging_model",
    "position_wise_mlp",
    "multi_head_attention",
    "causal_masked_attention",
    "softmax_temperature",
    "top_k_renormalize",
    "logits_memory_bytes",
}
CHALLENGE_METRICS = [  # in the order the module's challenge makes them
    metric_name(c.claim.id, e.measure, e.metric)
    for c in challenge_claims(PACK, "any", REGISTRY)
    for e in c.claim.expect
]


def _validate_ported() -> bool:
    """Whether ``validate`` runs on the new core yet (it is ported under its own issue)."""
    try:
        import runner.cmd_validate  # noqa: F401
        import tests.test_validate_submissions  # noqa: F401
    except ImportError:
        return False
    return True


VALIDATE = pytest.mark.skipif(
    not _validate_ported(), reason="the validate command is not ported to the new core yet"
)
STATUS_LINE = re.compile(r"^  (passed|FAILED|ERROR|skipped)\s+(\S+)\s")


@pytest.fixture(scope="module")
def pack():
    return PACK


def claims_needing(pack, function: str) -> list[str]:
    return [
        c.claim.id
        for c in pack.claims
        if function in REGISTRY.resolve_check(c.claim.check).needs_of(c.claim.inputs)
    ]


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def reference_file(cli, work) -> Path:
    result = cli("scaffold", MODULE_ID, "--reference", "--claims", str(MODULE))
    assert result.code == 0, result.err
    path = work / "ref.py"
    path.write_text(result.out, encoding="utf-8")
    return path


def variant(source: Path, name: str, old: str, new: str) -> Path:
    """A copy of ``source`` named ``name`` with ``old`` (which must occur once) replaced."""
    text = source.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = source.with_name(name)
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def run(cli, impl: Path | str, *extra: str):
    return cli("run", str(MODULE), "--impl", str(impl), "--out", "ev", *extra)


def statuses(out: str) -> dict[str, str]:
    return {m[2]: m[1] for line in out.splitlines() if (m := STATUS_LINE.match(line))}


def details(out: str, claim_id: str) -> list[str]:
    """The indented lines under a claim's status line (its statement, then what went wrong)."""
    lines = out.splitlines()
    (i,) = [
        i for i, line in enumerate(lines) if (m := STATUS_LINE.match(line)) and m[2] == claim_id
    ]
    below = []
    for line in lines[i + 1 :]:
        if not line.startswith("    ") or STATUS_LINE.match(line):
            break
        below.append(line.strip())
    return below


def evidence(work: Path, stem: str, *, challenge: str | None = None) -> dict[str, Any]:
    name = f"{MODULE_ID}-v{VERSION}.{stem}{'.' + challenge_variant(challenge) if challenge else ''}.json"
    data: dict[str, Any] = json.loads((work / "ev" / name).read_text(encoding="utf-8"))
    return data


# -- scaffold -------------------------------------------------------------------------------------
def test_scaffold_is_python_with_every_function_raising_not_implemented(cli, work, pack):
    result = cli("scaffold", MODULE_ID, "--claims", str(MODULE))
    assert (result.code, result.err) == (0, "")

    tree = ast.parse(result.out)
    defs = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert [d.name for d in defs] == module_subjects([pack])
    assert {d.name for d in defs} >= FUNCTIONS
    for d in defs:
        assert ast.get_docstring(d), d.name
        last = d.body[-1]
        assert isinstance(last, ast.Raise) and ast.unparse(last) == "raise NotImplementedError"

    module = types.ModuleType("stub")
    exec(compile(result.out, "stub.py", "exec"), module.__dict__)
    for d in defs:
        fn = getattr(module, d.name)
        required = [
            p
            for p in inspect.signature(fn).parameters.values()
            if p.default is inspect.Parameter.empty
        ]
        with pytest.raises(NotImplementedError):
            fn(*[None] * len(required))


def test_scaffold_of_an_unknown_module_exits_2(cli, work):
    result = cli("scaffold", "23-design-tradeofs", "--claims", str(MODULE))

    assert result.code == 2
    assert result.err == f"error: unknown module '23-design-tradeofs'; modules: {MODULE_ID}\n"


def test_the_scaffold_skips_every_claim_as_not_implemented(cli, work):
    stub = work / "my_impl.py"
    stub.write_text(cli("scaffold", MODULE_ID, "--claims", str(MODULE)).out, encoding="utf-8")

    result = run(cli, stub, "-v")  # by default the waiting claims are one summary line

    found = statuses(result.out)
    assert len(found) == N_CLAIMS >= 17
    assert set(found.values()) == {"skipped"}
    for claim_id in found:
        assert re.fullmatch(
            r"my_impl\.py:\d+: \w+\(\) still raises NotImplementedError",
            details(result.out, claim_id)[-1],
        )
    assert f"0 passed, 0 failed, {N_CLAIMS} skipped" in result.out.splitlines()
    assert result.code == 1


def test_the_reference_scaffold_passes_and_writes_learner_evidence(cli, work, reference_file):
    manifest = work / "ev" / "module-manifest-v1.json"
    manifest.parent.mkdir()
    shutil.copyfile(ROOT / "evidence" / "module-manifest-v1.json", manifest)
    before = manifest.read_bytes()

    result = run(cli, reference_file)

    assert result.code == 0, result.out + result.err
    assert set(statuses(result.out).values()) == {"passed"}
    assert f"{N_CLAIMS} passed, 0 failed" in result.out.splitlines()
    assert f"wrote ev/{MODULE_ID}-v{VERSION}.ref.json" in result.out.splitlines()
    assert sorted(p.name for p in (work / "ev").iterdir() if not p.name.startswith(".")) == [
        f"{MODULE_ID}-v{VERSION}.ref.json",
        "module-manifest-v1.json",
    ]
    assert manifest.read_bytes() == before  # a learner's run is not the module's evidence
    doc = evidence(work, "ref")
    assert doc["implementation"] == {
        "kind": "learner",
        "name": "ref.py",
        "sha256": hashlib.sha256(reference_file.read_bytes()).hexdigest(),
    }
    assert doc["summary"]["passed"] == N_CLAIMS


# appended to the reference's scaffold: right in float64, answered in long double
LONG_DOUBLE = """

_causal_masked_attention = causal_masked_attention


def causal_masked_attention(scores):
    return _causal_masked_attention(scores).astype(np.longdouble)
"""
# appended to the reference's scaffold: given long double logits, past float64 or junk
JUNK = """

_softmax_temperature = softmax_temperature


def softmax_temperature(logits, temperature):
    z = np.asarray(logits)
    if z.dtype != np.longdouble:
        return _softmax_temperature(logits, temperature)
    if temperature > 1:
        return np.full(z.shape, np.longdouble(10) ** 4000)
    junk = bytes([1, 0, 0, 0, 0, 0, 0, 0, 1, 0x40, 0, 0, 0, 0, 0, 0])
    return np.frombuffer(junk * z.size, dtype=np.longdouble).reshape(z.shape).copy()
"""
WIDE = np.finfo(np.longdouble).eps < np.finfo(np.float64).eps


@pytest.mark.skipif(not WIDE, reason="a long double is a double on this machine")
def test_a_long_double_answer_is_judged_only_where_one_was_given(cli, work, reference_file):
    """A long double crosses the boundary, as a contract may promise one stays one; given
    long double logits, a learner's long double softmax is judged and recorded (as the
    float64 nearest it). An answer in long double to a call given none is refused: it could
    hold what float64 cannot (future weights of 1e-4000 where they must be 0), and a check
    reading it as float64 would never see them. Nothing of the runner's breaks on a number
    JSON cannot hold, or prints NumPy's warnings on the reader's screen."""
    path = work / "ld.py"
    reference = reference_file.read_text(encoding="utf-8")
    path.write_text(reference + LONG_DOUBLE, encoding="utf-8")

    result = run(cli, path, "--format", "json")

    assert result.code == 1 and json.loads(result.out)["exit_code"] == 1, result.err
    claims = {c["id"]: c for c in evidence(work, "ld")["claims"]}
    assert claims["contract.softmax-temperature"]["status"] == "passed"
    table = claims["temperature.table"]
    assert table["status"] == "passed"  # judged, and recorded as floats
    recorded = {type(p) for m in table["measurements"] for p in np.ravel(m["actual"]).tolist()}
    assert float in recorded and recorded <= {float, int}
    mask = claims["mask.prefix-softmax"]
    assert mask["status"] == "error" and mask["reason"]["params"]["what"] == (
        "a long double, though it was given none"
    )

    path.write_text(reference + JUNK, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "runner", "run", str(MODULE), "--impl", str(path), "--out", "ev",
         "-k", "contract.softmax-temperature", "--format", "json"],
        cwd=work, capture_output=True, text=True, check=False,
        env={**os.environ, "LEARN_LLM_LANG": "en", "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 1 and "Warning" not in done.stderr, done.stderr
    ((judged,),) = [m["claims"] for m in json.loads(done.stdout)["results"]]
    assert judged["status"] == "failed"


# -- a learner's mistakes -------------------------------------------------------------------------
def test_a_function_that_raises_makes_its_claims_error_at_its_line(cli, work, reference_file, pack):
    anchor = "    p = np.asarray(probs, dtype=np.float64)  # (V,)\n"
    broken = variant(reference_file, "broken.py", anchor, anchor + '    raise IndexError("oops")\n')
    line = broken.read_text(encoding="utf-8").splitlines().index('    raise IndexError("oops")') + 1

    result = run(cli, broken)

    affected = claims_needing(pack, "top_k_renormalize")
    assert "topk.renormalize" in affected
    found = statuses(result.out)
    assert {c for c, s in found.items() if s != "passed"} == set(affected)
    for claim_id in affected:
        if claim_id.startswith("contract."):  # it compares outcomes, raising included
            assert found[claim_id] == "FAILED"
            continue
        assert found[claim_id] == "ERROR"
        assert f"broken.py:{line}: top_k_renormalize() raised IndexError: oops" in details(
            result.out, claim_id
        )
    assert result.code == 1


def test_a_function_returning_a_wrong_value_makes_its_claims_fail(cli, work, reference_file, pack):
    wrong = variant(
        reference_file,
        "wrong.py",
        "    return batch * length * vocab * bytes_per_value",
        "    return batch * length * vocab * 2  # FP16 by mistake",
    )

    result = run(cli, wrong)

    affected = claims_needing(pack, "logits_memory_bytes")
    found = statuses(result.out)
    failing = {c for c, s in found.items() if s != "passed"}
    # only claims that call it can fail; a ratio of two of its counts cannot see a factor 2
    assert failing <= set(affected)
    assert {"tokenizer.logits-memory", "contract.logits-memory-bytes"} <= failing
    assert {found[c] for c in failing} == {"FAILED"}
    assert result.code == 1
    doc = evidence(work, "wrong")
    failed = [c for c in doc["claims"] if c["status"] == "failed"]
    assert {c["id"] for c in failed} == failing
    assert any(m["verdict"] == "failed" for c in failed for m in c["measurements"])


def test_a_missing_function_skips_its_claims_and_is_never_filled_in(
    cli, work, reference_file, pack
):
    text = reference_file.read_text(encoding="utf-8")
    start = text.index("def softmax_temperature(")
    end = text.index("\n\n\ndef ", start) + 3
    lacking = work / "lacking.py"
    lacking.write_text(text[:start] + text[end:], encoding="utf-8")
    assert "def softmax_temperature(" not in lacking.read_text(encoding="utf-8")

    result = run(cli, lacking, "-v")

    affected = claims_needing(pack, "softmax_temperature")
    assert {"temperature.table", "temperature.underflow"} <= set(affected)
    found = statuses(result.out)
    assert {c for c, s in found.items() if s != "passed"} == set(affected)
    for claim_id in affected:
        assert found[claim_id] == "skipped"
        assert details(result.out, claim_id)[-1] == "not implemented: softmax_temperature()"
    assert result.code == 1
    doc = evidence(work, "lacking")
    for claim in doc["claims"]:
        if claim["id"] in affected:
            assert (claim["status"], claim["measurements"]) == ("skipped", [])
    measured_by_affected = [m for m in doc["metrics"] if m.get("claim") in affected]
    assert measured_by_affected == []  # no value came from the reference


@pytest.mark.parametrize(
    ("old", "new", "error", "message"),
    [
        (
            "def top_k_renormalize(probs: Array, k: int) -> Array:",
            "def top_k_renormalize(probs: Array, k: int) -> Array",
            "SyntaxError",
            "expected ':'",
        ),
        (
            'Positions = Literal["none", "sinusoidal", "rope", "learned"]',
            'Positions = Literal["none", "sinusoidal", "rope", "learned"]\nVOCAB = {}["gpt2"]',
            "KeyError",
            "'gpt2'",
        ),
    ],
    ids=["syntax-error", "import-time-exception"],
)
def test_a_file_that_cannot_be_imported_exits_2_naming_file_and_line(
    cli, work, reference_file, old, new, error, message
):
    bad = variant(reference_file, "bad.py", old, new)
    last = new.splitlines()[-1]
    line = bad.read_text(encoding="utf-8").splitlines().index(last) + 1

    result = run(cli, bad)

    assert (result.code, result.err) == (2, "")
    assert result.out == f"bad.py:{line}: {error} while importing the file: {message}\n"
    # the evidence folder is the judge's, made before any worker exists; nothing is in it
    assert list((work / "ev").iterdir()) == []


def test_impl_must_be_a_python_file(cli, work):
    (work / "impl.txt").write_text("def f(): pass\n", encoding="utf-8")

    result = run(cli, "impl.txt")

    assert (result.code, result.err) == (
        2,
        "error: impl.txt: --impl needs a Python file (*.py) or a directory of them\n",
    )


# -- the challenge round trip ---------------------------------------------------------------------
def test_a_challenge_run_passes_and_records_its_nonce(cli, work, reference_file):
    ran = run(cli, reference_file, "--challenge", "nonce-one")

    assert ran.code == 0, ran.out + ran.err
    assert f"{N_CLAIMS + len(CHALLENGE_METRICS)} passed, 0 failed" in ran.out.splitlines()
    one = challenge_variant("nonce-one")
    assert one == "challenge-" + hashlib.sha256(b"nonce-one").hexdigest()[:8]
    assert f"wrote ev/{MODULE_ID}-v{VERSION}.ref.{one}.json" in ran.out.splitlines()
    assert evidence(work, "ref", challenge="nonce-one")["challenge"]["nonce"] == "nonce-one"


@VALIDATE
def test_a_challenge_run_validates_under_its_own_nonce_only(cli, work, reference_file):
    ran = run(cli, reference_file, "--challenge", "nonce-one")
    assert ran.code == 0, ran.out + ran.err
    path = f"ev/{MODULE_ID}-v{VERSION}.ref.{challenge_variant('nonce-one')}.json"

    mine = cli("validate", path, "--challenge", "nonce-one", "--claims", str(MODULE))
    assert (mine.code, mine.out) == (0, f"{path}: valid\n")

    other = cli("validate", path, "--challenge", "nonce-two", "--claims", str(MODULE))
    assert other.code == 1
    problems = other.out.splitlines()[1:]
    assert problems[-1] == (
        "  $.challenge.nonce: 'nonce-one' is another challenge's nonce; "
        "this validation's is 'nonce-two'"
    )
    wrong = [p for p in problems[:-1] if re.match(r"  \$\.metrics\[\d+\]\.(expected|actual): ", p)]
    assert wrong == problems[:-1]
    # every challenge value is another nonce's: both its expected and its actual are wrong
    assert len(wrong) == 2 * len(CHALLENGE_METRICS)
    for name in CHALLENGE_METRICS:
        claim_id = name.replace("_", "-")
        assert sum(f"claim {claim_id})" in p for p in wrong) == 1, claim_id


@VALIDATE
def test_a_submission_without_challenge_metrics_lists_each_missing_one(cli, work):
    from tests.test_validate_submissions import GOOD_YAML

    (work / "sub.yaml").write_text(GOOD_YAML, encoding="utf-8")

    result = cli("validate", "sub.yaml", "--challenge", "nonce-one", "--claims", str(MODULE))

    assert result.out.splitlines() == [
        f"sub.yaml: invalid ({1 + len(CHALLENGE_METRICS)} problems)",
        "  $.challenge: missing: this validation's nonce is 'nonce-one'",
    ] + [f"  $.metrics: challenge metric {name!r} is missing" for name in CHALLENGE_METRICS]
    assert result.code == 1


@VALIDATE
def test_the_chapters_own_figures_do_not_pass_a_challenge(cli, work):
    """Values copied from the chapter (expected = actual = the printed figure) are valid
    without a challenge; under one they are missing the challenge's values, and the chapter's
    figures put in their place are wrong."""
    from tests.test_validate_submissions import GOOD_YAML

    copied = GOOD_YAML.replace("actual: 4701.196560612873", "actual: 4701.20")
    (work / "copied.yaml").write_text(copied, encoding="utf-8")
    with_block = copied + "challenge:\n  nonce: nonce-one\n  inputs: {}\n"
    with_block = with_block.replace(
        "artifacts:",
        "  - name: challenge.support\n    expected: 4701.20\n    actual: 4701.20\n"
        "  - name: challenge.logits_bytes\n    expected: 201028000\n    actual: 201028000\n"
        "artifacts:",
    )
    (work / "forged.yaml").write_text(with_block, encoding="utf-8")

    plain = cli("validate", "copied.yaml", "--claims", str(MODULE))
    challenged = cli(
        "validate",
        "copied.yaml",
        "forged.yaml",
        "--challenge",
        "nonce-one",
        "--claims",
        str(MODULE),
    )

    assert (plain.code, plain.out) == (0, "copied.yaml: valid\n")
    lines = challenged.out.splitlines()
    assert lines[0] == f"copied.yaml: invalid ({1 + len(CHALLENGE_METRICS)} problems)"
    header = f"forged.yaml: invalid ({len(CHALLENGE_METRICS) - 2 + 4} problems)"
    forged = lines[lines.index(header) + 1 : -1]
    assert forged[:-4] == [
        f"  $.metrics: challenge metric {name!r} is missing"
        for name in CHALLENGE_METRICS
        if name not in ("challenge.support", "challenge.logits_bytes")
    ]
    assert [p.split(":")[0] for p in forged[-4:]] == [
        "  $.metrics[2].expected",
        "  $.metrics[2].actual",
        "  $.metrics[3].expected",
        "  $.metrics[3].actual",
    ]
    assert lines[-1] == "2 submissions: 0 valid, 2 invalid"
    assert challenged.code == 1


@pytest.mark.parametrize("drop", ["proposition", "check", "expect"])
def test_a_challenge_claim_missing_a_field_is_one_line_naming_the_field(monkeypatch, drop):
    """A pack's challenge whose claim lacks a field ended a learner's run in an internal
    error (KeyError: 'proposition'); it is the pack author's misuse, said in one line."""
    from runner.errors import UsageError

    real = REGISTRY.challenges[PACK.meta.id]

    def broken(rng):
        claims = real(rng)
        claims[0] = {k: v for k, v in claims[0].items() if k != drop}
        return claims

    monkeypatch.setitem(REGISTRY.challenges, PACK.meta.id, broken)
    with pytest.raises(UsageError) as raised:
        challenge_claims(PACK, "any", REGISTRY)
    message = raised.value.message
    assert message.code == "use.bad_challenge"
    # named as its author knows it: by id (its place, counted from 1, when it has none)
    assert message.params["which"] == repr(real(nonce_rng("any"))[0]["id"])
    assert drop in message.params["problem"]


def test_a_challenge_claim_without_an_id_is_named_by_its_place_counted_from_1(monkeypatch):
    from runner.errors import UsageError

    real = REGISTRY.challenges[PACK.meta.id]

    def broken(rng):
        claims = real(rng)
        claims[1] = {k: v for k, v in claims[1].items() if k != "id"}
        return claims

    monkeypatch.setitem(REGISTRY.challenges, PACK.meta.id, broken)
    with pytest.raises(UsageError) as raised:
        challenge_claims(PACK, "any", REGISTRY)
    assert raised.value.message.params["which"] == "#2"


def test_a_challenge_that_raises_is_one_line_naming_the_packs_line(monkeypatch):
    from runner.errors import UsageError

    def broken(rng):
        return [1 / 0]

    monkeypatch.setitem(REGISTRY.challenges, PACK.meta.id, broken)
    with pytest.raises(UsageError) as raised:
        challenge_claims(PACK, "any", REGISTRY)
    message = raised.value.message
    assert message.code == "use.challenge_raised"
    assert message.params["error"] == "ZeroDivisionError"
    assert message.params["where"].startswith("test_learner.py:")


def test_a_challenge_asks_only_the_modules_that_have_one(tmp_path):
    """A course whose other modules have no challenge (the example course's 05-softmax) still
    gets chapter 23's challenge claims; the whole run was refused, naming the other module
    (a pack written from the docs found it). A nonce no module uses is a misuse, said so.
    (In processes of their own: another test of this process may have imported a pack of
    the example course's id from elsewhere, and a pack is imported once per process.)"""
    softmax = ROOT / "examples" / "course" / "claims" / "05-softmax"
    out = str(tmp_path / "ev")

    def cli(*args: str) -> Result:
        done = subprocess.run(
            [sys.executable, "-P", "-m", "runner", *args], capture_output=True, text=True,
            cwd=tmp_path, env={**os.environ, "LEARN_LLM_LANG": "en"}, timeout=300,
        )  # fmt: skip
        return Result(done.returncode, done.stdout, done.stderr)

    both = cli("run", str(MODULE), str(softmax), "--challenge", "n1", "--out", out, "-q")
    plain = cli("run", str(MODULE), str(softmax), "--out", str(tmp_path / "plain"), "-q")
    assert both.code == plain.code == 0, both.out + both.err
    counts = [int(re.search(r"^(\d+) passed, 0 failed$", r.out, re.M)[1]) for r in (both, plain)]
    assert counts[0] - counts[1] == len(challenge_claims(PACK, "n1", PACK.code.registry)) > 0
    saved = json.loads(
        (tmp_path / "ev" / f"{MODULE_ID}-v{VERSION}.{challenge_variant('n1')}.json").read_text()
    )
    assert saved["challenge"]["nonce"] == "n1"
    alone = cli("run", str(softmax), "--challenge", "n1", "--out", out, "-q")
    assert (alone.code, alone.out) == (2, "")
    assert alone.err == (
        "error: no module has a challenge (05-softmax): --challenge has nothing to add\n"
    )


def test_the_cost_of_tracing_a_calls_memory_is_not_taken_for_slow_code(cli, work, reference_file):
    """tracemalloc slows code that makes many Python objects about tenfold: a correct
    pure-Python tiled flash attention (2.7 s at T = 2,048, 34 s traced) timed out on
    beyond.flash-memory and was called WRONG (a correct-learner round, 2026-12-07). A claim
    whose calls are traced has five times its budget (a pure-Python one making a generator
    per dot product took 84.6 s traced: the next round). Here the function spins 1.5 s of
    CPU the first time it is traced, under a budget of 1 s (5 s once traced)."""
    slow = variant(
        reference_file,
        "slow_when_traced.py",
        "def flash_attention(",
        "import time as _time\nimport tracemalloc as _tm\n_SPUN = []\n\n\n"
        "def _spin_once_traced():\n"
        "    if _tm.is_tracing() and not _SPUN:\n"
        "        _SPUN.append(1)\n"
        "        start = _time.process_time()\n"
        "        while _time.process_time() - start < 1.5:\n"
        "            pass\n\n\n"
        "def flash_attention(",
    )
    text = slow.read_text(encoding="utf-8")
    signature_end = text.index('"""', text.index("def flash_attention("))
    body = text.index('"""', signature_end + 3) + 3
    slow.write_text(text[:body] + "\n    _spin_once_traced()" + text[body:], encoding="utf-8")
    result = run(cli, slow, "-k", "beyond.flash-memory", "--timeout", "1")
    assert result.code == 0, result.out
    # an untraced claim keeps its budget: the same spin there times out
    untraced = variant(
        slow, "slow_always.py", "if _tm.is_tracing() and not _SPUN:", "if not _SPUN:"
    )
    result = run(cli, untraced, "-k", "beyond.flash-equals-naive", "--timeout", "1")
    assert result.code == 1 and "timed out: this claim's limit is 1 s of CPU time" in result.out


def test_a_function_not_written_whose_name_the_file_misspells_is_pointed_out(
    cli, work, reference_file
):
    """A learner who wrote ``layernorm`` read "not written yet: layer_norm" with no word of
    the function it did write (a pack author's learner, 2026-12-07)."""
    misnamed = variant(reference_file, "misnamed.py", "def layer_norm(", "def layernorm(")
    for lang, said in (
        ("en", "layer_norm() is not in your file, but layernorm() is: its name must be "
               "layer_norm exactly"),
        ("zh", "你的文件里没有 layer_norm()，但有 layernorm()：函数名必须正好是 layer_norm"),
    ):  # fmt: skip
        result = run(cli, misnamed, "-k", "layer-norm", "--lang", lang)
        assert said in result.out, result.out
    # a name far from every function of the file is not pointed at any of them
    absent = variant(reference_file, "absent.py", "def layer_norm(", "def rescale_rows(")
    result = run(cli, absent, "-k", "layer-norm")
    assert "not written yet: layer_norm" in result.out and "is not in your file" not in result.out


def test_a_written_function_calling_one_not_written_waits_for_that_one(cli, work, reference_file):
    """A written function calling another of the contract that still raises
    NotImplementedError was said to be "not in your file, but <the other> is", and its own
    claims blamed the other's line as its own "still raises" (a pack author's learner,
    2026-12-07): its claims wait for the function not written, named with its line."""
    text = reference_file.read_text(encoding="utf-8")
    path = work / "calls_unwritten.py"
    path.write_text(
        text + "\n\ndef softmax_temperature(logits, temperature):\n"
        "    raise NotImplementedError\n\n\n"
        "def top_k_renormalize(logits, k, temperature=1.0):\n"
        "    return softmax_temperature(logits, temperature)\n",
        encoding="utf-8",
    )
    line = text.count("\n") + 4  # the appended ``raise NotImplementedError``
    for lang, said in (
        ("en", f"calls_unwritten.py:{line}: softmax_temperature() still raises "
               "NotImplementedError, and top_k_renormalize() calls it"),
        ("zh", f"calls_unwritten.py:{line}：softmax_temperature() 仍然抛出 NotImplementedError，"
               "而 top_k_renormalize() 调用了它"),
    ):  # fmt: skip
        result = run(cli, path, "-k", "contract.top-k-renormalize", "-v", "--lang", lang)
        assert result.code == 1 and "FAILED" not in result.out, result.out  # skipped
        assert said in result.out, result.out
        assert "is not in your file" not in result.out and "没有" not in result.out, result.out


def test_what_the_judge_spends_on_a_learners_replies_is_charged_to_its_claim(
    cli, work, reference_file, monkeypatch
):
    """A learner's code that reaches the worker's frames sent one pre-encoded 4 MB reply
    again and again: 45 s of the judge's CPU for one claim, 2 s of the worker's, and a
    whole file held a class's judge for half an hour (an attack round, 2026-12-07). The
    judge's CPU time on each reply counts against the claim's budget: here each reply is
    made to cost the judge 0.2 s, and a claim of 60 calls ends as a timeout at 1 s."""
    import time as clock

    from runner.learner.session import LearnerSession

    decoded = LearnerSession._decoded

    def slow(self, message, name, limit):  # the judge's CPU, not the worker's
        start = clock.process_time()
        while clock.process_time() - start < 0.2:
            pass
        return decoded(self, message, name, limit)

    monkeypatch.setattr(LearnerSession, "_decoded", slow)
    result = run(cli, reference_file, "-k", "contract.sequence-support-log10", "--timeout", "1")
    assert result.code == 1
    assert "timed out: this claim's limit is 1 s of CPU time" in result.out, result.out


@pytest.mark.parametrize(
    ("jobs", "shown_as"), [("2", "visible"), ("1", "visible"), ("2", "after_due_date")]
)
def test_a_hidden_claims_answer_never_changes_what_a_visible_claim_said(
    cli, work, reference_file, jobs, shown_as
):
    """A learner judged alone (as Gradescope judges each submission) ran its hidden claims
    after its visible ones with one diagnoser, and a hidden claim's failure revised the
    visible claims' diagnoses in place: a visible test named a known mistake or not as the
    learner's answer to the hidden call chose, a bit of the hidden input per submission (an
    attack round read 4,242 back, 2026-12-07). The visible phase is final first now: the
    same visible words whatever the file answers the hidden call. So is a phase of claims
    shown after the due date, before any never shown (the next round read 4,242 back from
    an after_due_date test the same way)."""
    claims = work / "claims-h" / MODULE_ID
    shutil.copytree(MODULE, claims)
    # no required metric of the claim made hidden (refused: learners could not report it)
    (claims / "module.yaml").write_text(partial_module_yaml(), "utf-8")
    card = claims / "1-support.yaml"
    text = card.read_text(encoding="utf-8")
    old = "    check: support_orders\n    inputs: {vocab: 50257, length: 1000}\n"
    assert text.count(old) == 1
    # the claim's figures for T = 4,242, so that the reference passes it and a learner's
    # failure is the learner's (diagnosed), not the course's
    text = text.replace(old, "    visibility: hidden\n" + old.replace("1000}", "4242}"))
    for figure, now in (("4701.20", "19942.48"), ("7.70", "8.33")):
        assert text.count(f"value: {figure}\n") == 1
        text = text.replace(f"value: {figure}\n", f"value: {now}\n")
    if shown_as != "visible":
        seen = "  - id: support.gpt2-vocab-32-ctx\n"
        assert text.count(seen) == 1
        text = text.replace(seen, seen + f"    visibility: {shown_as}\n")
    card.write_text(text, "utf-8")
    said = {}
    for answer in ("length * math.log(vocab)", "1.5 * _real(vocab, length)"):
        path = work / f"probe_{len(said)}.py"
        path.write_text(
            reference_file.read_text(encoding="utf-8") + "\n\n_real = sequence_support_log10\n\n\n"
            "def sequence_support_log10(vocab, length):\n"
            "    if (vocab, length) == (50257, 4242):  # the hidden claim's call\n"
            f"        return {answer}\n"
            "    return length * math.log(vocab)  # the natural-log mistake everywhere else\n",
            encoding="utf-8",
        )
        out = work / f"gs_{len(said)}.json"
        result = cli(
            "run", str(claims), "--impl", str(path), "-k", "support.gpt2", "--jobs", jobs,
            "--out", f"ev{len(said)}", "--gradescope-results", str(out), "--lang", "en",
        )  # fmt: skip
        assert result.code == 1, result.out
        shown = json.loads(out.read_text(encoding="utf-8"))
        said[answer] = [t["output"] for t in shown["tests"] if t["visibility"] == shown_as]
    first, second = said.values()
    assert first == second
    assert any("behaves like support-natural-log" in o for o in first), first


def test_a_challenge_claims_inputs_are_checked_as_a_claim_files_are(monkeypatch):
    """A challenge claim with a misspelt input raised the check's own TypeError ("got an
    unexpected keyword argument") with no line of the pack's (a pack author, 2026-12-07):
    its inputs are checked against the check's signature first, and the challenge's line
    is given."""
    from runner.errors import UsageError
    from runner.i18n import catalog

    real = REGISTRY.challenges[PACK.meta.id]

    def misspelt(rng):
        claims = real(rng)
        inputs = dict(claims[0]["inputs"])
        inputs[next(iter(inputs)) + "_"] = inputs.pop(next(iter(inputs)))
        claims[0] = {**claims[0], "inputs": inputs}
        return claims

    monkeypatch.setitem(REGISTRY.challenges, PACK.meta.id, misspelt)
    with pytest.raises(UsageError) as raised:
        challenge_claims(PACK, "any", REGISTRY)
    message = raised.value.message
    assert message.code == "use.bad_challenge" and ".py:" in message.params["where"]
    said = catalog("en").say(message)
    assert "takes no input" in said, said
    assert "没有输入" in catalog("zh").say(message)


def test_what_a_claim_measures_on_the_reference_is_kept_per_claim_inputs_and_seed():
    """A learner's failure is told from the course's bug by the claim's run on the reference,
    kept once computed (every failing learner of a class would compute it again): for the
    same claim, inputs and seed only. A claim edited between two runs of one process, or
    another seed, gets its own."""
    from runner.run import _reference_outcome

    (pack,) = load_packs([MODULE])
    claim = pack.claim("support.gpt2-vocab-32-ctx").claim
    spec = REGISTRY.resolve_check(claim.check)
    seed = pack.meta.seed

    first = _reference_outcome(spec, claim, REGISTRY, seed)
    assert _reference_outcome(spec, claim, REGISTRY, seed) is first  # kept
    other_seed = _reference_outcome(spec, claim, REGISTRY, seed + 1)
    edited = claim.model_copy(update={"inputs": {**claim.inputs, "length": 33}})
    longer = _reference_outcome(spec, edited, REGISTRY, seed)
    assert other_seed is not first and longer is not first
    assert longer != first  # computed on the edited inputs, not handed the kept one


@pytest.mark.parametrize("swapped", ["a folder", "a file"])
def test_a_folder_swapped_for_a_link_after_it_was_listed_is_not_read_through(
    tmp_path, monkeypatch, swapped
):
    """A learner who can write its own folder of a class folder swapped a subfolder for a
    link between the judge's listing and its opening, in a loop: the root judge read the
    link's target (the course's checks, a classmate's file) into the learner's worker (an
    attack round, 2026-12-07). Every folder is now opened by descriptor and every name in
    it relative to that, never following a link: here the swap happens right after each
    listing, deterministically, and the outside file is never read."""
    from runner.learner import staging

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("SECRET = 1\n", encoding="utf-8")
    submission = tmp_path / "bob"
    (submission / "sub").mkdir(parents=True)
    (submission / "my_impl.py").write_text("x = 1\n", encoding="utf-8")
    (submission / "sub" / "helper.py").write_text("y = 2\n", encoding="utf-8")
    real_scandir = os.scandir

    def scandir_then_swap(where: Any) -> Any:
        listed = list(real_scandir(where))
        target = submission / "sub"
        if target.is_dir() and not target.is_symlink():
            if swapped == "a folder":
                target.rename(tmp_path / "moved")
                target.symlink_to(outside, target_is_directory=True)
            else:  # the folder's file swapped for a link to the outside file
                (target / "helper.py").unlink()
                (target / "helper.py").symlink_to(outside / "secret.py")
        return iter(listed)

    monkeypatch.setattr(os, "scandir", scandir_then_swap)
    read = staging.read_submission(submission)

    assert isinstance(read, staging.Submitted), read
    assert "my_impl.py" in read.files
    assert not any(b"SECRET" in data for data in read.files.values())


@pytest.mark.parametrize("slip", ["an-id-taken", "a-value-given"])
def test_a_challenge_claim_with_a_taken_id_or_a_value_is_refused(monkeypatch, slip):
    """A challenge claim whose id was a claim file's ran and wrote evidence validate then
    refused (a duplicate metric); one that gave a value had it replaced silently (a pack
    author, 2026-12-07): both are the author's misuse, said in one line."""
    from runner.errors import UsageError

    real = REGISTRY.challenges[PACK.meta.id]

    def slipped(rng):
        claims = real(rng)
        if slip == "an-id-taken":
            claims[0] = {**claims[0], "id": PACK.claims[0].claim.id}
        else:
            claims[0] = {**claims[0], "expect": [{**claims[0]["expect"][0], "value": 1.0}]}
        return claims

    monkeypatch.setitem(REGISTRY.challenges, PACK.meta.id, slipped)
    with pytest.raises(UsageError) as raised:
        challenge_claims(PACK, "any", REGISTRY)
    message = raised.value.message
    assert message.code == "use.bad_challenge"
    code = "challenge.id_taken" if slip == "an-id-taken" else "challenge.value_given"
    assert message.params["problem"].code == code


def test_a_challenge_under_a_misspelt_module_id_is_refused_naming_both():
    """A challenge registered as ``@pack.challenge("23-design-tradeof")`` left its module with
    no challenge and said nothing (a pack round found the risk); an id far from every loaded
    module may serve a module of the pack not in this run, and is left alone."""
    from types import SimpleNamespace

    from runner.challenges import course_challenges
    from runner.errors import UsageError

    def made(rng):  # pragma: no cover - never called: the run is refused first
        return []

    def pack(module: str, challenges: dict) -> SimpleNamespace:
        registry = SimpleNamespace(challenges=challenges)
        return SimpleNamespace(
            meta=SimpleNamespace(id=module),
            code=SimpleNamespace(registry=registry),
            directory=ROOT / "claims" / module,
        )

    misspelt = pack("23-design-tradeoffs", {"23-design-tradeof": made})
    with pytest.raises(UsageError) as raised:
        course_challenges([misspelt], "n1")
    message = raised.value.message
    assert message.code == "use.challenge_misnamed"
    assert message.params["registered"] == "23-design-tradeof"
    assert message.params["module"] == "23-design-tradeoffs"
    assert message.params["where"].startswith("test_learner.py:")
    elsewhere = pack("23-design-tradeoffs", {"07-optimizers": made})
    with pytest.raises(UsageError) as raised:
        course_challenges([elsewhere], "n1")
    assert raised.value.message.code == "use.no_challenge"


def test_a_challenge_of_a_module_beside_it_not_loaded_is_no_misspelling(tmp_path):
    """A pack serving 23-design-tradeoffs and 24-design-tradeoffs, run on 23 alone: 24's
    challenge was refused as 23's misspelt (review of the change, 2026-12-07)."""
    from types import SimpleNamespace

    from runner.challenges import course_challenges
    from runner.errors import UsageError

    for name in ("23-design-tradeoffs", "24-design-tradeoffs"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "module.yaml").write_text(f"id: {name}\n", encoding="utf-8")

    def made(rng):  # pragma: no cover - never called: the run is refused first
        return []

    registry = SimpleNamespace(challenges={"24-design-tradeoffs": made})
    pack = SimpleNamespace(
        meta=SimpleNamespace(id="23-design-tradeoffs"),
        code=SimpleNamespace(registry=registry),
        directory=tmp_path / "23-design-tradeoffs",
    )
    with pytest.raises(UsageError) as raised:
        course_challenges([pack], "n1")
    assert raised.value.message.code == "use.no_challenge"
