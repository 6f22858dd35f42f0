"""Feedback by function (issue 19): what a learner with part of the chapter written sees.

Learner files are made from the reference scaffold: four of the chapter's functions kept
(one of them broken the way people break it), every other body replaced by ``raise
NotImplementedError``, as a learner's file is halfway through. Runs go through the command
line in ``tmp_path``; the label tests render hand-made results, since the chapter's own labels
are plain strings until its generators give both languages.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from runner import api
from runner.cli import main
from runner.feedback import pack_feedback
from runner.i18n import Msg, catalog
from runner.models import ClaimResult, MeasurementResult
from runner.reporters import gradescope, json_out, junit, text
from runner.run import functions_of
from tests.conftest import MODULE, REGISTRY, ROOT

MODULE_ID = "23-design-tradeoffs"
(PACK,) = api.load_claims([MODULE])
WRITTEN = ("sequence_support_log10", "attention_parameter_count", "softmax_temperature")
WRONG = "logits_memory_bytes"
FP16 = "    return batch * length * vocab * 2  # FP16 by mistake"
RIGHT_BYTES = "    return batch * length * vocab * bytes_per_value"
STATUS_LINE = re.compile(r"^  (passed|FAILED|ERROR|skipped)\s+(\S+)\s")


def calling(function: str) -> list[str]:
    return [c.claim.id for c in PACK.claims if function in functions_of(c, REGISTRY)]


def functions() -> list[str]:
    from runner.learner.scaffold import module_subjects

    return module_subjects([PACK])


def partly_written(reference: str, keep: set[str]) -> str:
    """``reference`` with the body of every public function not in ``keep`` replaced by
    ``raise NotImplementedError`` (docstrings and helpers kept)."""
    tree = ast.parse(reference)
    lines = reference.splitlines(keepends=True)
    cuts = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or node.name.startswith("_"):
            continue
        if node.name in keep:
            continue
        first = node.body[1] if ast.get_docstring(node) else node.body[0]
        cuts.append((first.lineno, node.end_lineno))
    for start, end in reversed(cuts):
        lines[start - 1 : end] = ["    raise NotImplementedError\n"]
    return "".join(lines)


@pytest.fixture(scope="module")
def reference_text() -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["scaffold", MODULE_ID, "--reference", "--claims", str(MODULE)]) == 0
    return out.getvalue()


@pytest.fixture
def work(tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def learner(work: Path, reference_text: str, name: str, old: str = FP16, new: str = "") -> Path:
    """Four functions written, ``logits_memory_bytes`` with ``RIGHT_BYTES`` turned into
    ``old`` (FP16 by mistake, by default); ``new`` replaces ``old`` in the result."""
    source = partly_written(reference_text, {*WRITTEN, WRONG})
    assert source.count(RIGHT_BYTES) == 1
    source = source.replace(RIGHT_BYTES, old)
    if new:
        assert source.count(old) == 1
        source = source.replace(old, new)
    path = work / name
    path.write_text(source, encoding="utf-8")
    return path


def run(cli, path: Path, *extra: str):
    return cli("run", str(MODULE), "--impl", path.name, "--out", "ev", *extra)


# -- the done-when of the issue -------------------------------------------------------------
def test_four_of_the_functions_written_one_wrong_is_a_short_report_naming_it(
    cli, work, reference_text
):
    path = learner(work, reference_text, "mine.py")
    written = [f for f in functions() if f in {*WRITTEN, WRONG}]
    unwritten = [f for f in functions() if f not in written]
    assert len(written) == 4 and len(unwritten) == len(functions()) - 4 >= 20

    en, zh = run(cli, path, "--lang", "en"), run(cli, path, "--lang", "zh")

    assert en.code == zh.code == 1
    for result in (en, zh):
        assert len(result.out.splitlines()) < 40, result.out
        assert result.err == ""
    lines = en.out.splitlines()
    # the claim lines: what ran; a claim that only waits for an unwritten function is not one
    shown = {m[2]: m[1] for line in lines if (m := STATUS_LINE.match(line))}
    assert "skipped" not in shown.values()
    assert {c for c, s in shown.items() if s == "FAILED"} == {
        "tokenizer.logits-memory",
        "contract.logits-memory-bytes",
    }
    # the summary by function
    start = lines.index(f"by function (4 of {len(functions())} written):")
    summary = lines[start + 1 :]
    assert summary[0].split()[:2] == ["WRONG", WRONG]
    assert summary[0].endswith(
        "2 claims do not pass: tokenizer.logits-memory, contract.logits-memory-bytes"
    )
    assert summary[1].strip() == (
        f"first differing call {WRONG}(batch=1, length=1000, vocab=50257, bytes_per_value=4): "
        "the reference gives 201,028,000, yours gives 100,514,000"
    )
    rights = [line.split()[1] for line in summary if line.split()[:1] == ["right"]]
    assert rights == [f for f in written if f != WRONG]
    (waiting,) = [line for line in summary if line.startswith("  not written yet: ")]
    skipped = sum(1 for c in PACK.claims if set(functions_of(c, REGISTRY)) - set(written))
    assert waiting == (
        f"  not written yet: {', '.join(unwritten)} — {skipped} claims wait for them"
    )
    kinds = [line for line in summary if "points" in line]
    assert kinds[0].startswith("  the chapter's propositions: ")
    assert kinds[1].startswith("  the functions' contract (robustness): 3 passed, 1 failed, ")
    ran = len(PACK.claims) - skipped  # the claims whose functions are all written
    assert lines[-2] == f"{ran - 2} passed, 2 failed, {skipped} skipped"

    zh_lines = zh.out.splitlines()
    start = zh_lines.index(f"按函数（已写 4/{len(functions())} 个）：")
    assert zh_lines[start + 1].split()[:2] == ["错误", WRONG]
    assert zh_lines[start + 2].strip() == (
        f"第一个不一致的调用 {WRONG}(batch=1, length=1000, vocab=50257, bytes_per_value=4)："
        "参考实现给出 201,028,000，你的给出 100,514,000"
    )
    assert f"  尚未写：{', '.join(unwritten)} —— {skipped} 条断言在等它们" in zh_lines


def test_verbose_still_shows_every_claim_and_every_function(cli, work, reference_text):
    path = learner(work, reference_text, "mine.py")

    result = run(cli, path, "-v", "--lang", "en")

    shown = [m[2] for line in result.out.splitlines() if (m := STATUS_LINE.match(line))]
    assert shown == [c.claim.id for c in PACK.claims]
    rows = [line.split()[:3] for line in result.out.splitlines() if line.startswith("  not ")]
    assert [r[2] for r in rows] == [f for f in functions() if f not in {*WRITTEN, WRONG}]
    assert not any(line.startswith("  not written yet: ") for line in result.out.splitlines())


def test_math_right_and_argument_checks_missing_reads_as_such(cli, work, reference_text):
    """The function's sums are right; it never checks its arguments: every proposition that
    ran passes, and only its contract claim fails."""
    path = learner(
        work,
        reference_text,
        "unchecked.py",
        old="    return int(batch) * int(length) * int(vocab) * int(bytes_per_value)",
    )
    text_ = path.read_text(encoding="utf-8")
    start = text_.index(f"def {WRONG}(")
    body = text_[start:].split("\n\n\n", 1)[0]
    checks = [line for line in body.splitlines() if "_integer(" in line]
    assert checks
    path.write_text(
        text_.replace(body, "\n".join(x for x in body.splitlines() if x not in checks)),
        encoding="utf-8",
    )

    result = run(cli, path, "--lang", "en")

    lines = result.out.splitlines()
    (propositions,) = [line for line in lines if "the chapter's propositions: " in line]
    (contract,) = [line for line in lines if "the functions' contract" in line]
    assert " 0 failed" in propositions and "error" not in propositions
    assert "1 failed" in contract
    (row,) = [line for line in lines if line.split()[:2] == ["WRONG", WRONG]]
    assert row.endswith("1 claim does not pass: contract.logits-memory-bytes")
    after = lines[lines.index(row) + 1]
    assert after.strip().startswith("first differing call ")
    assert "the reference raises ValueError" in after  # the check it does not make
    assert "gives raises" not in after


def test_a_function_that_raises_is_wrong_with_its_line(cli, work, reference_text):
    path = learner(work, reference_text, "raises.py", old='    raise IndexError("oops")')
    line = path.read_text(encoding="utf-8").splitlines().index('    raise IndexError("oops")') + 1

    result = run(cli, path, "--lang", "en")

    lines = result.out.splitlines()
    (row,) = [x for x in lines if x.split()[:2] == ["WRONG", WRONG]]
    assert f"raises.py:{line}: {WRONG}() raised IndexError: oops" in result.out
    assert "first differing call" in lines[lines.index(row) + 1]  # the contract saw it raise


def test_a_function_both_wrong_and_changing_its_argument_is_told_both(cli, work, reference_text):
    """Two mistakes in one function: its first differing call, and the argument it changes
    in place (only the first was said)."""
    path = work / "both.py"
    path.write_text(
        reference_text
        + "\n\n_softmax_temperature = softmax_temperature\n\n\n"
        + "def softmax_temperature(logits, temperature):\n"
        + "    out = _softmax_temperature(logits, temperature) * 1.01\n"
        + "    if isinstance(logits, np.ndarray) and logits.size and logits.flags.writeable:\n"
        + "        logits[...] = 0\n"
        + "    return out\n",
        encoding="utf-8",
    )

    result = run(cli, path, "-k", "softmax_temperature", "--lang", "en")

    lines = result.out.splitlines()
    (row,) = [x for x in lines if x.split()[:2] == ["WRONG", "softmax_temperature"]]
    told = lines[lines.index(row) + 1 : lines.index(row) + 4]
    assert any("first differing call" in x for x in told), told
    assert any("changes its argument logits in place" in x for x in told), told


def test_a_wrong_function_using_another_wrong_one_is_told_to_mend_that_first(
    cli, work, reference_text
):
    """The diagnosis replays twins with the reference's functions: a learner's
    multi_head_attention calling its own wrong mask fits no known mistake. The summary says
    which function it uses is wrong too (an outside pack author read "no known mistake")."""
    path = work / "mask.py"
    path.write_text(
        reference_text
        + "\n\ndef causal_masked_attention(scores):\n"
        + "    scores = 0.99 * np.asarray(scores, dtype=np.float64)  # no known mistake\n"
        + "    scores = np.where(np.tri(scores.shape[-1]) > 0, scores, -np.inf)\n"
        + "    e = np.exp(scores - scores.max(axis=-1, keepdims=True))\n"
        + "    return e / e.sum(axis=-1, keepdims=True)\n",
        encoding="utf-8",
    )

    en = run(cli, path, "--lang", "en").out.splitlines()
    zh = run(cli, path, "--lang", "zh").out.splitlines()

    (row,) = [x for x in en if x.split()[:2] == ["WRONG", "multi_head_attention"]]
    told = en[en.index(row) + 1 : en.index(row) + 5]
    assert any(
        "the reference's multi_head_attention() uses causal_masked_attention, wrong here too" in x
        for x in told
    ), told
    (mask_row,) = [x for x in en if x.split()[:2] == ["WRONG", "causal_masked_attention"]]
    after = en[en.index(mask_row) + 1 : en.index(mask_row) + 4]
    assert not any("uses" in x for x in after), after  # it uses nothing of the chapter's
    # (a known mistake of the mask is named through its twin instead, without this line)
    assert any("参考实现的 multi_head_attention() 用到 causal_masked_attention" in x for x in zh)


# -- -k by function ----------------------------------------------------------------------------
@pytest.mark.parametrize("pattern", ["softmax_temperature", "SOFTMAX_TEMP*"])
def test_k_selects_the_claims_that_call_a_function(cli, work, pattern):
    result = cli("run", str(MODULE), "-k", pattern, "--lang", "en", "--out", "ev")

    shown = [m[2] for line in result.out.splitlines() if (m := STATUS_LINE.match(line))]
    assert shown == calling("softmax_temperature")
    assert "contract.softmax-temperature" in shown and len(shown) > 3
    assert result.code == 0


def test_k_by_claim_id_is_unchanged(cli, work):
    result = cli("run", str(MODULE), "-k", "temperature.table", "--lang", "en", "--out", "ev")

    shown = [m[2] for line in result.out.splitlines() if (m := STATUS_LINE.match(line))]
    assert shown == ["temperature.table"]


@pytest.mark.parametrize(
    "patterns",
    [
        ("-k", "temperature.table", "-k", "sampling.greedy"),
        ("-k", "temperature.table or sampling.greedy"),
    ],
)
def test_k_twice_or_an_or_chooses_the_claims_either_matches(cli, work, patterns):
    """``-k a -k b`` ran b's claims only, without a word (a pack author, 2026-12-07)."""
    result = cli("run", str(MODULE), *patterns, "--lang", "en", "--out", "ev")

    shown = [m[2] for line in result.out.splitlines() if (m := STATUS_LINE.match(line))]
    assert shown == ["temperature.table", "sampling.greedy"], result.out


# -- labels in both languages ------------------------------------------------------------------
LABEL = {"zh": "标签甲：极小的温度", "en": "label A: a tiny temperature"}
OTHER = {"zh": "标签乙", "en": "label B"}


def contract_failure() -> api.PackRun:
    """The result of a contract claim that found mismatches on inputs labelled in both
    languages, as a generator of a pack may label its cases."""
    loaded = PACK.claim("contract.softmax-temperature")
    assert loaded is not None
    claim = loaded.claim
    first = {
        "case": 7,
        "label": LABEL,
        "inputs": {"args": [{"array": [2.0, 1.0], "shape": [2], "dtype": "float16"}, 1e-5]},
        "expected": {"array": [1.0, 0.0], "shape": [2], "dtype": "float16"},
        "actual": {"array": ["nan", 0.0], "shape": [2], "dtype": "float16"},
        "why": {"why": "not_finite"},
    }
    result = ClaimResult(
        id=claim.id,
        proposition=loaded.proposition,
        stage=loaded.stage,
        statement=claim.statement,
        check=claim.check,
        status="failed",
        duration_ms=1.0,
        kind=claim.kind,
        measurements=[
            MeasurementResult(
                name="mismatch_labels",
                metric="m",
                expected=[],
                actual=[LABEL, OTHER, "plain"],
                tolerance={"kind": "exact"},
                verdict="failed",
                source="s",
            )
        ],
        observations={"first_mismatch": first},
    )
    return api.PackRun(PACK, [result], 1.0)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_labels_in_both_languages_are_shown_in_the_readers(lang):
    words = catalog(lang)
    other = "en" if lang == "zh" else "zh"
    pack_run = contract_failure()
    run_ = api.Run(
        {"kind": "learner", "name": "x.py", "sha256": None}, [pack_run], api.RunOptions()
    )

    shown = "\n".join(text.run_lines(run_, words))
    results = gradescope.results(run_, words)
    case = junit.run_suites(run_, words)[0].cases[0]

    for rendered in (shown, results["tests"][0]["output"], results["output"], case.text):
        assert LABEL[lang] in rendered and LABEL[other] not in rendered, rendered
        assert "'zh'" not in rendered and '"zh"' not in rendered
    assert f"{LABEL[lang]}, {OTHER[lang]}, plain" in shown  # the measured list of labels
    feedback = pack_feedback(pack_run)
    (wrong,) = feedback.having("wrong")
    assert wrong.first_call is not None and wrong.first_call.label == LABEL  # data stays data
    # a message with a label among its parameters (JSON's rendered "message")
    message = Msg("run.first_mismatch", {"case": 7, "label": LABEL, "expected": 1, "actual": 2})
    assert LABEL[lang] in words.say(message)
    data = json_out.claims_data(run_, words)
    assert data[0]["claims"][0]["observations"]["first_mismatch"]["label"] == LABEL


def test_gradescope_numbers_are_distinct_and_sort_in_run_order(cli, work, reference_text):
    path = learner(work, reference_text, "mine.py")

    result = run(cli, path, "--lang", "en", "--gradescope-results", "results.json")

    data = json.loads((work / "results.json").read_text(encoding="utf-8"))
    numbers = [t["number"] for t in data["tests"]]
    assert len(set(numbers)) == len(numbers) == len(PACK.claims)
    props = [c.proposition for c in PACK.claims]
    assert [int(n.split(".")[0]) for n in numbers] == props
    by_prop: dict[int, list[str]] = {}
    for n in numbers:
        by_prop.setdefault(int(n.split(".")[0]), []).append(n)
    for group in by_prop.values():  # within a proposition: as decimals, as text, as versions
        assert group == sorted(group) == sorted(group, key=float)
        assert group == sorted(group, key=lambda n: tuple(int(p) for p in n.split(".")))
    big = max(by_prop.values(), key=len)
    assert len(big) >= 10 and big[0].endswith(".01")
    assert f"WRONG  {WRONG}" in data["output"]  # the summary by function, for the learner
    assert result.code == 1


def test_claim_numbers():
    assert gradescope.claim_numbers([1, 1, 2, 13, 13]) == ["1.1", "1.2", "2.1", "13.1", "13.2"]
    assert gradescope.claim_numbers([3] * 10)[::9] == ["3.01", "3.10"]
    assert gradescope.claim_numbers([1, 13], module=2) == ["2.1.1", "2.13.1"]


def test_where_two_returned_values_part_names_which_value_of_a_tuple_or_dict():
    from runner.feedback import where_they_part

    inside = {"why": "value", "at": [1, 2], "expected_at": 1.0, "actual_at": 7.0, "index": 1}
    assert where_they_part({"why": inside}) == ("[1][1, 2]", 1.0, 7.0)
    keyed = {**inside, "key": "loss"}
    del keyed["index"]
    assert where_they_part({"why": keyed})[0] == "['loss'][1, 2]"
    whole = {"why": {"why": "type"}, "expected": "a", "actual": "b"}
    assert where_they_part(whole) == ("", "a", "b")


def test_a_correct_function_beside_a_wrong_one_in_a_claim_is_not_called_wrong(tmp_path):
    """operators.position-code calls sinusoidal_positions and rotary_embedding. With a wrong
    rotary and the base's correct sinusoidal (which computes its angles another way: the
    last bits of a sine near a zero crossing at T = 100,000 differ), only the rotary was to
    blame; the diagnosis called the sinusoidal "differing" too, at a tolerance far below the
    contract's, and the summary said WRONG with two equal numbers."""
    from tests.conftest import handed_in

    mutant = ROOT / "tests" / "learners" / "mutants" / "adv4_rotary_positions_from_one.py"
    folder = handed_in(mutant, tmp_path)
    options = api.RunOptions(pattern="operators.position-code")
    run_ = api.run_packs([PACK], api.LearnerFile(folder), options)
    assert [r.status for r in run_.results] == ["failed"]
    verdicts = {f.name: f.verdict for f in pack_feedback(run_.packs[0]).functions}
    # not wrong: the claim waits on rotary_embedding, the function that failed it
    assert verdicts == {"sinusoidal_positions": "unjudged", "rotary_embedding": "wrong"}, verdicts


def test_a_memory_claim_is_laid_at_the_function_whose_memory_failed(tmp_path):
    """A flash attention that builds the whole (T, T) matrix fails the memory claims; the
    mask and linear attention beside it in those claims are right, and were called WRONG
    (no call of theirs differs, so nothing narrowed the blame). The check says which
    function each memory figure is of."""
    from tests.conftest import handed_in

    mutant = ROOT / "tests" / "learners" / "mutants" / "flash_full_matrix.py"
    folder = handed_in(mutant, tmp_path)
    options = api.RunOptions(pattern="beyond.flash-memory")
    run_ = api.run_packs([PACK], api.LearnerFile(folder), options)
    assert [r.status for r in run_.results] == ["failed"]
    verdicts = {f.name: f.verdict for f in pack_feedback(run_.packs[0]).functions}
    # the mask's only claim failed for flash's memory: it was not judged (it waits for nothing)
    assert verdicts == {"flash_attention": "wrong", "causal_masked_attention": "unjudged"}


def test_two_numbers_that_part_are_never_shown_as_the_same_number():
    """A first differing call shows each value in a few digits; two that differ further
    down are shown in full, never as "the reference gives -1.52157, yours gives -1.52157"."""
    from runner.reporters.text import outcome_text, parted_texts

    words = catalog("en")
    for render in (None, outcome_text):
        shown = parted_texts(-1.5215719210000001, -1.5215719210000004, words, render)
        assert shown["expected"] != shown["actual"], shown
        assert float(shown["expected"].removeprefix("gives ")) == -1.5215719210000001
        assert parted_texts(1.0, 2.0, words, render) == {"expected": "gives 1", "actual": "gives 2"}
    raised = {"raised": "ValueError"}
    assert parted_texts(raised, 2.0, words, outcome_text)["expected"] == "raises ValueError"
    assert parted_texts(raised, 2.0, catalog("zh"))["expected"] == "抛出 ValueError"


def test_a_claim_id_two_modules_share_is_named_with_its_module():
    from runner.reporters.gradescope import _name, _shared_ids

    shared = _shared_ids([["a.x", "a.y"], ["a.y", "b.z"], ["a.x", "a.x"]])
    assert shared == {"a.x", "a.y"}
    assert _name("05-softmax", "a.y", shared) == "05-softmax · a.y"
    assert _name("05-softmax", "b.z", shared) == "b.z"


def _claim_result(status, measurements=(), reason=None, diagnosis=()):
    from runner.models import Detail, Diagnosis, Text

    text = Text(zh="断言", en="claim")
    failing = [
        MeasurementResult(
            name=name, metric=f"c/{name}", expected=0, actual=1, tolerance={"kind": "exact"},
            verdict=verdict, source="derived",
        )
        for name, verdict in measurements
    ]  # fmt: skip
    found = [Diagnosis(function=f, calls=1, first_difference={"call": 0}) for f in diagnosis]
    return ClaimResult(
        id="c", proposition=1, stage=text, statement=text, check="chk", status=status,
        duration_ms=1.0, measurements=failing, reason=reason and Detail.of(reason, check="chk"),
        diagnosis=found,
    )  # fmt: skip


def test_a_function_found_wrong_is_not_blamed_for_measures_the_check_lays_elsewhere():
    """A learner's layer_norm and rms_norm both wrong; a claim whose failing measures are all
    rms_norm's (the check's blames) was laid at layer_norm too, because its diagnosis found
    layer_norm's calls leaving the reference (a pack written from the docs found it)."""
    from runner.feedback import blame

    calls = ("layer_norm", "rms_norm")
    blames = {"rms_shift": ("rms_norm",), "ln_shift": ("layer_norm",)}
    both = _claim_result(
        "failed", [("rms_shift", "failed"), ("ln_shift", "passed")],
        diagnosis=("layer_norm", "rms_norm"),
    )  # fmt: skip
    assert blame(both, calls, set(), blames) == ("rms_norm",)
    only_other = _claim_result("failed", [("rms_shift", "failed")], diagnosis=("layer_norm",))
    assert blame(only_other, calls, set(), blames) == ("rms_norm",)
    # without blames for every failing measure, the diagnosis decides as before
    unlaid = _claim_result("failed", [("other", "failed")], diagnosis=("layer_norm",))
    assert blame(unlaid, calls, set(), blames) == ("layer_norm",)


@pytest.mark.parametrize(
    "reason", ["claim.not_measurements", "claim.undeclared", "claim.no_measure", "claim.not_data"]
)
def test_a_check_that_returns_no_measurements_blames_no_function(reason):
    """A check that returns a list, an undeclared measure or none of its measures is the
    course's bug, whatever it judged: a learner's correct function was called WRONG for it."""
    from runner.feedback import blame

    result = _claim_result("error", reason=reason)
    assert blame(result, ("layer_norm",), set(), {}) == ()
    params = {"check": "chk", "measure": "m", "measures": ["m"], "type": "complex", "where": "c.py:1",
              "declared": "n", "closest": "-"}  # fmt: skip
    assert "not of the code judged" in catalog("en")(reason, **params)
    assert "不是被评判代码的问题" in catalog("zh")(reason, **params)


def test_a_function_another_module_of_the_run_asks_for_is_no_misspelling(tmp_path):
    """Judged with a second module beside chapter 23, a learner's correctly named
    norm_parameter_count (the other module's, passing its claims) was said to be
    attention_parameter_count misspelt, three ways (a pack author, 2026-12-07)."""
    source = (
        "def norm_parameter_count(d_model, n_layer):\n    return 2 * d_model * (2 * n_layer + 1)\n"
    )
    (tmp_path / "my_impl.py").write_text(source, encoding="utf-8")
    options = api.RunOptions(pattern="contract.attention-parameter-count")
    run_ = api.run_packs([PACK], api.LearnerFile(tmp_path / "my_impl.py"), options)
    alone = {f.name: f.near for f in pack_feedback(run_.packs[0]).functions}
    assert alone["attention_parameter_count"] == "norm_parameter_count"  # a file of one module
    beside = pack_feedback(run_.packs[0], course={"norm_parameter_count"})
    assert {f.name: f.near for f in beside.functions}["attention_parameter_count"] is None
