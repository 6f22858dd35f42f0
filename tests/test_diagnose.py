"""Diagnosis by known mistakes (issue 15): a failing learner function is named by the mistake
it makes, correct implementations never are, and a bug outside the library is never misnamed.

Learner files are built the way the issue asks: the reference scaffold with one function (or
two) replaced by a learner's own version of it, from ``tests/learners/mistakes/<twin id>.py``.
Each of those files is written the way a learner writes the mistake, independently of the
twin's code in ``checks/faults.py`` / ``checks/mistakes.py``.

Two claim packs judge them:

* the chapter's own claims, for the mistakes one of them already catches (``CAUGHT_BY``);
* a probe pack, written by :func:`write_probe_pack` into a temporary directory (claim files
  under ``tests/`` would be collected by the pytest plugin): one test-only claim per function
  that compares it with the reference call by call on inputs the chapter's claims do not use
  (several head counts, ``tied=False``, batches, ties at the top-k boundary, extreme scores).
  Its check is registered only in this module's own registry; it stands in for issue 12's
  whole-function claims, so that every mistake in the library can be made to fail and be
  diagnosed.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import math
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner import api
from runner.diagnose import WORK_BUDGET, Diagnoser, _first_gap, same, summarize_inputs
from runner.i18n import catalog
from runner.learner.scaffold import scaffold
from runner.models import ClaimResult
from runner.models.evidence import ClaimRecord
from runner.pack import Pack
from runner.pack.outcome import Raised, attempt
from runner.pack.registry import CallLog, CallRecord, Implementation, Measurements
from runner.record.build import claim_record
from runner.reporters.text import claim_detail_lines
from tests.conftest import MODULE, REGISTRY, ROOT, claims_needing

HERE = ROOT / "tests" / "learners" / "mistakes"
TWIN_FILES = {p.stem: p for p in sorted(HERE.glob("*.py"))}

# The chapter claim that fails for each mistake the chapter's claims already catch. The other
# 19 passed every chapter claim when this was written (they need issue 12's whole-function
# claims) and are run on the probe pack only; once a chapter claim catches one, it can move
# here.
CAUGHT_BY = {
    "vt-as-v-times-t": "support.gpt2-vocab-1000-ctx",
    "support-natural-log": "support.gpt2-vocab-1000-ctx",
    "support-t-to-the-v": "support.gpt2-vocab-1000-ctx",
    "support-float-power": "support.gpt2-vocab-1000-ctx",  # an error: the learner's raise
    "nll-log2": "support.chain-rule-exhaustive",
    "nll-positions-independent": "support.chain-rule-exhaustive",
    "nll-sign": "support.chain-rule-exhaustive",
    "giant-mlp-missing-input-width": "structure.giant-mlp",
    "giant-mlp-widths-added": "structure.giant-mlp",
    "average-whole-sequence": "structure.averaging-model",
    "average-prefix-sum": "structure.averaging-model",
    "average-count-off-by-one": "structure.averaging-model",
    "average-wrong-axis": "structure.averaging-model",
    "params-include-context": "operators.parameter-table",
    "params-ffn-one-matrix": "operators.parameter-table",
    "params-head-counted-twice": "operators.parameter-table",
    "params-fixed-positions-counted": "operators.context-independence-condition",
    "params-layernorm-gain-only": "operators.gpt2-real-config",
    "params-no-final-norm": "operators.gpt2-real-config",
    "heads-as-copies": "multihead.parameter-budget",
    "attention-params-no-output": "multihead.parameter-budget",
    "attention-params-one-head": "multihead.parameter-budget",
    "mask-multiply-zero": "mask.prefix-softmax",
    "mask-no-renormalize": "mask.prefix-softmax",
    "mask-inf-times-zero": "mask.prefix-softmax",
    "mask-hides-diagonal": "mask.prefix-softmax",
    "mask-one-future-visible": "mask.prefix-softmax",
    "mask-hides-past": "mask.prefix-softmax",
    "mask-softmax-wrong-axis": "mask.prefix-softmax",
    "mha-heads-interleaved": "multihead.equals-concatenated-heads",
    "mha-merge-without-transpose": "multihead.equals-concatenated-heads",
    "mha-no-output-projection": "multihead.equals-concatenated-heads",
    "mha-no-mask": "operators.position-dependence",
    "temperature-zero": "temperature.rejects-nonpositive",
    "temperature-multiplied": "temperature.table",
    "low-temperature-underflow": "temperature.table",
    "temperature-no-max-subtraction": "temperature.underflow",
    "temperature-always-float64": "temperature.underflow",
    "topk-no-renormalize": "topk.renormalize",
    "topk-keeps-smallest": "topk.renormalize",
    "topk-softmax-of-probs": "topk.renormalize",
    "topk-strict-threshold": "topk.renormalize",
    "logits-bits-not-bytes": "tokenizer.logits-memory",
    "logits-returns-mib": "tokenizer.logits-memory",
    "flash-no-rescale": "beyond.flash-equals-naive",
    "flash-no-scale": "beyond.flash-equals-naive",
    "flash-no-mask": "beyond.flash-equals-naive",
    "flash-diagonal-tile-unmasked": "beyond.flash-equals-naive",
    "linear-attention-global-sums": "beyond.linear-attention",
    "linear-no-normalizer": "beyond.linear-attention",
    "linear-phi-relu": "beyond.linear-attention",
    "linear-prefix-excludes-self": "beyond.linear-attention",
    "moe-dense-experts": "beyond.moe",
    "moe-gates-not-renormalized": "beyond.moe",
    "moe-params-no-router": "beyond.moe",
    "moe-params-one-expert": "beyond.moe",
    # the mistakes the contract names (checks/mistakes_contract.py): each caught by the
    # whole-function claim of the function it replaces
    "support-t0-shortcut": "contract.sequence-support-log10",
    "support-v1-shortcut": "contract.sequence-support-log10",
    "support-numpy-minimum-unchecked": "contract.sequence-support-log10",
    "nll-nan-for-impossible": "contract.chain-rule-nll",
    "nll-isclose-sum": "contract.chain-rule-nll",
    "nll-shape-from-size": "contract.chain-rule-nll",
    "nll-negative-token-wraps": "contract.chain-rule-nll",
    "nll-divides-by-table-sum": "contract.chain-rule-nll",
    "giant-mlp-with-biases": "contract.giant-mlp-parameter-log10",
    "params-flags-truthy": "contract.transformer-parameter-count",
    "params-positions-case-folded": "contract.transformer-parameter-count",
    "params-positions-aliases": "contract.transformer-parameter-count",
    "params-positions-none-as-default": "contract.transformer-parameter-count",
    "params-n-head-sign-unchecked": "contract.transformer-parameter-count",
    "params-vocab-zero-accepted": "contract.transformer-parameter-count",
    "params-flags-python-bool-only": "contract.transformer-parameter-count",
    "params-n-head-default-12": "contract.transformer-parameter-count",
    "attention-params-sign-unchecked": "contract.attention-parameter-count",
    "attention-params-float": "contract.attention-parameter-count",
    "mask-finfo-min": "contract.causal-masked-attention",
    "mask-fill-minus-1e9": "contract.causal-masked-attention",
    "mha-split-interleaved": "contract.multi-head-attention",
    "mha-scale-by-width": "contract.multi-head-attention",
    "temperature-divides-before-max": "contract.softmax-temperature",
    "temperature-one-max-per-batch": "contract.softmax-temperature",
    "temperature-divides-in-own-dtype": "contract.softmax-temperature",
    "temperature-uint-wraps": "contract.softmax-temperature",
    "temperature-finite-via-sum": "contract.softmax-temperature",
    "topk-divides-by-inf-sum": "contract.top-k-renormalize",
    "topk-finite-via-sum": "contract.top-k-renormalize",
    "topk-numpy-k-unchecked": "contract.top-k-renormalize",
    "topk-answer-in-probs-dtype": "contract.top-k-renormalize",
    "logits-int64-product": "contract.logits-memory-bytes",
    "logits-common-sizes-only": "contract.logits-memory-bytes",
    "logits-sizes-at-least-1": "contract.logits-memory-bytes",
    "flash-max-starts-at-zero": "contract.flash-attention",
    "flash-mask-finfo-min": "contract.flash-attention",
    "flash-dv0-accepted": "contract.flash-attention",
    "linear-scaled-q": "contract.linear-attention",
    "linear-phi-exp": "contract.linear-attention",
    "moe-ties-higher-index": "contract.moe-layer",
    "moe-gates-no-max": "contract.moe-layer",
    "moe-top-k-unchecked": "contract.moe-layer",
    "top-p-drops-crossing-token": "contract.top-p-renormalize",
    "top-p-ties-higher-index": "contract.top-p-renormalize",
    "top-p-sum-minus-self": "contract.top-p-renormalize",
    "top-p-float32-running-sum": "contract.top-p-renormalize",
    "top-p-divides-by-inf-sum": "contract.top-p-renormalize",
    "top-p-zeros-give-uniform": "contract.top-p-renormalize",
    "top-p-fsum-prefix": "contract.top-p-renormalize",
    "top-p-one-by-running-sum": "contract.top-p-renormalize",
    "top-p-finite-via-sum": "contract.top-p-renormalize",
    "greedy-last-of-ties": "contract.greedy-token",
    "greedy-float32-cast": "contract.greedy-token",
    "greedy-float64-cast": "contract.greedy-token",
    "greedy-nan-float64-only": "contract.greedy-token",
    "greedy-nan-via-sum": "contract.greedy-token",
    "layer-norm-unbiased-variance": "contract.layer-norm",
    "layer-norm-one-pass-variance": "contract.layer-norm",
    "layer-norm-eps-outside-sqrt": "contract.layer-norm",
    "layer-norm-broadcasts": "contract.layer-norm",
    "layer-norm-size-not-shape": "contract.layer-norm",
    "embedding-float-ids-cast": "contract.embedding-lookup",
    "embedding-bool-ids-accepted": "contract.embedding-lookup",
    "embedding-scalar-id-accepted": "contract.embedding-lookup",
    "embedding-empty-float-refused": "contract.embedding-lookup",
    "embedding-negative-ids-wrap": "contract.embedding-lookup",
    "embedding-keeps-table-dtype": "contract.embedding-lookup",
    "output-head-width-broadcast": "contract.output-head",
    "sinusoidal-halves": "contract.sinusoidal-positions",
    "rotary-rotate-half": "contract.rotary-embedding",
    "rotary-positions-float32": "contract.rotary-embedding",
    "rotary-numpy-offset-unchecked": "contract.rotary-embedding",
    "kv-cache-keys-only": "contract.kv-cache-bytes",
    "kv-cache-int64-product": "contract.kv-cache-bytes",
    "kv-cache-common-sizes-only": "contract.kv-cache-bytes",
    "kv-cache-sizes-at-least-1": "contract.kv-cache-bytes",
    "bpe-no-early-stop": "contract.bpe-train",
    "bpe-ties-first-seen": "contract.bpe-train",
    "bpe-ties-base-256": "contract.bpe-train",
    "bpe-non-overlapping-counts": "contract.bpe-train",
    "bpe-encode-rank-dict": "contract.bpe-encode",
    "bpe-encode-unvalidated-merges": "contract.bpe-encode",
    "bpe-encode-right-to-left": "contract.bpe-encode",
}
PROBE_OF = {  # the probe claim of each chapter function, and its case of inputs
    "sequence_support_log10": ("probe.support", "sizes"),
    "chain_rule_nll": ("probe.nll", "joint"),
    "giant_mlp_parameter_log10": ("probe.giant-mlp", "sizes"),
    "averaging_model": ("probe.averaging", "random"),
    "position_wise_mlp": ("probe.mlp", "random"),
    "causal_masked_attention": ("probe.mask", "extreme"),
    "multi_head_attention": ("probe.mha", "heads"),
    "attention_parameter_count": ("probe.attention-params", "heads"),
    "transformer_parameter_count": ("probe.params", "configs"),
    "softmax_temperature": ("probe.temperature", "batch"),
    "top_k_renormalize": ("probe.topk", "ties"),
    "logits_memory_bytes": ("probe.logits", "sizes"),
    "flash_attention": ("probe.flash", "random"),
    "linear_attention": ("probe.linear", "random"),
    "moe_layer": ("probe.moe", "top2"),
    "moe_parameter_count": ("probe.moe-params", "sizes"),
}
ONLY_PROBES = sorted(set(TWIN_FILES) - set(CAUGHT_BY))


# -- building learner files -----------------------------------------------------------------
def _base() -> str:
    pack = api.load_claims([MODULE])[0]
    return scaffold(pack, catalog("en"), reference=True)


BASE = _base()


def learner_source(*fragments: Path) -> str:
    """The reference scaffold with each function a fragment defines replaced by the
    fragment's version (in place, so the functions that use it call it); the fragment's
    imports and helpers are added at the end."""
    text = BASE
    extra: list[str] = []
    for fragment in fragments:
        source = fragment.read_text(encoding="utf-8")
        lines = source.splitlines(keepends=True)
        for node in ast.parse(source).body:
            segment = "".join(lines[node.lineno - 1 : node.end_lineno])
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                continue  # the fragment's docstring
            if isinstance(node, ast.FunctionDef):
                base_lines = text.splitlines(keepends=True)
                target = next(
                    (
                        n
                        for n in ast.parse(text).body
                        if isinstance(n, ast.FunctionDef) and n.name == node.name
                    ),
                    None,
                )
                if target is not None:
                    text = (
                        "".join(base_lines[: target.lineno - 1])
                        + segment
                        + "".join(base_lines[target.end_lineno :])
                    )
                    continue
            extra.append(segment)
    return text + "\n\n" + "".join(extra)


def write_learner(directory: Path, name: str, *fragments: Path) -> Path:
    path = directory / f"{name.replace('-', '_')}.py"
    path.write_text(learner_source(*fragments), encoding="utf-8")
    return path


# -- the probe pack -------------------------------------------------------------------------
def _cases(
    subject: str, case: str, rng: np.random.Generator
) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Inputs for one function, across its signature, where the chapter's claims do not go."""
    normal = rng.standard_normal
    if subject == "sequence_support_log10":
        return [((v, t), {}) for v, t in ((50257, 1000), (3, 4), (10, 2), (2, 64))]
    if subject == "chain_rule_nll":
        joint = rng.dirichlet(np.ones(27)).reshape(3, 3, 3)
        return [((joint, list(tokens)), {}) for tokens in ((0, 1, 2), (2, 2, 0), (1, 0, 1))]
    if subject == "giant_mlp_parameter_log10":
        return [((50257, 1000, 4096), {}), ((3, 4, 8), {}), ((2, 10, 100), {})]
    if subject == "averaging_model":
        return [((normal((6, 4)),), {}), ((normal((3, 5)),), {})]
    if subject == "position_wise_mlp":
        return [((normal((6, 8)), normal((8, 32)) / 3, normal((32, 8)) / 6), {}) for _ in range(2)]
    if subject == "causal_masked_attention":
        extreme = normal((5, 5)) * 1e5
        extreme[0, 0], extreme[4, 4] = -5e4, 5e4  # below a -1e4 fill; beyond exp's range
        return [((extreme,), {}), ((normal((2, 5, 5)) * 3,), {})]  # and a batch of heads
    if subject == "multi_head_attention":
        x = normal((6, 8))
        w_q, w_k, w_v, w_o = (normal((8, 8)) / math.sqrt(8) for _ in range(4))
        # and a projection width W = 12 beside d = 8, where √W, √d and √hs all differ
        wide = [normal((8, 12)) / math.sqrt(8) for _ in range(3)] + [normal((12, 8)) / 4]
        return [((x, w_q, w_k, w_v, w_o, h), {}) for h in (1, 2, 4)] + [((x, *wide, 3), {})]
    if subject == "attention_parameter_count":
        return [((d, h), {}) for d, h in ((8, 1), (8, 2), (16, 4), (768, 12))]
    if subject == "transformer_parameter_count":
        configs = [
            {"tied": False},
            {"tied": True, "positions": "learned"},
            {"positions": "rope", "biases": True, "layernorm": True},
            {"positions": "sinusoidal", "tied": False, "layernorm": True},
        ]
        return [((100, 16, 2, 64, 32), {"n_head": 4, **c}) for c in configs]
    if subject == "softmax_temperature":
        batch = normal((3, 5)) * 2
        return [
            ((batch, 0.5), {}),
            ((batch, 2.0), {}),
            ((np.asarray([1000.0, 0.0, -5.0]), 1.0), {}),  # exp(1000) overflows unshifted
            ((np.asarray([2.0, 1.0, -1.0], dtype=np.float16), 0.1), {}),  # float16 underflows
            ((np.asarray([2.0, 1.0, -1.0]), 0.0), {}),  # refused: greedy is another path
        ]
    if subject == "top_k_renormalize":
        return [
            ((np.asarray([0.3, 0.3, 0.2, 0.2]), 1), {}),
            ((np.asarray([0.1, 0.2, 0.2, 0.5]), 2), {}),
            ((np.asarray([0.25, 0.25, 0.25, 0.25]), 2), {}),
            ((np.asarray([0.4, 0.3, 0.15, 0.1, 0.05]), 2), {}),
        ]
    if subject == "logits_memory_bytes":
        return [((2, 16, 100, 2), {}), ((3, 8, 50, 8), {}), ((1, 4, 10), {})]
    if subject == "flash_attention":
        q, k, v = normal((12, 4)), normal((12, 4)), normal((12, 4))
        return [((q, k, v, block), {}) for block in (1, 5, 12)]
    if subject == "linear_attention":
        return [((normal((8, 4)), normal((8, 4)), normal((8, 3))), {}) for _ in range(2)]
    if subject == "moe_layer":
        x = normal((6, 8))
        calls = []
        for n_experts, top_k in ((4, 2), (4, 1), (3, 3)):
            w_router = normal((8, n_experts))
            w_in = normal((n_experts, 8, 16)) / 3
            w_out = normal((n_experts, 16, 8)) / 4
            calls.append(((x, w_router, w_in, w_out, top_k), {}))
        # an expert no token can choose (a constant feature scores it at about -100), its
        # weights NaN: a routed layer never reads them, one running every expert gets 0·NaN
        x_dead, (w_router, w_in, w_out) = x.copy(), (a.copy() for a in calls[0][0][1:4])
        x_dead[:, 0] = 1.0
        w_router[0, 3] = -100.0
        w_in[3], w_out[3] = np.nan, np.nan
        calls.append(((x_dead, w_router, w_in, w_out, 2), {}))
        return calls
    if subject == "moe_parameter_count":
        return [((16, 64, e), {}) for e in (1, 4, 16)]
    raise ValueError(f"no probe for {subject} ({case})")


def agrees_with_reference(
    impl: Implementation, subject: str, case: str, rng: np.random.Generator
) -> Measurements:
    """Test only: how many calls of ``subject`` differ from the reference's on the probe."""
    reference = REGISTRY.reference()[subject]
    fn = impl[subject]
    calls = _cases(subject, case, rng)
    with np.errstate(all="ignore"):
        mismatched = sum(
            not same(attempt(fn, *args, **kwargs), attempt(reference, *args, **kwargs))
            for args, kwargs in calls
        )
    return {"mismatched_calls": mismatched, "calls": len(calls)}


def probe_pack() -> Pack:
    """The real pack's entries, plus the probe check."""
    pack = Pack("probe-diagnosis", code=())
    registry = pack.registry
    registry.subjects = dict(REGISTRY.subjects)
    registry.checks = dict(REGISTRY.checks)
    registry.twins = dict(REGISTRY.twins)
    registry.generators = dict(REGISTRY.generators)
    registry.challenges = dict(REGISTRY.challenges)
    registry.check(
        "agrees_with_reference",
        needs=(),
        measures=("mismatched_calls", "calls"),
        subject_input="subject",
    )(agrees_with_reference)
    return pack


PROBES = probe_pack()
CHAPTER_PACKS = api.load_claims([MODULE])


def write_probe_pack(directory: Path) -> Path:
    """The probe pack: module.yaml, a chapter file, and one claim per function."""
    (directory / "module.yaml").write_text(
        "id: probe-diagnosis\n"
        "title: {zh: 诊断测试用的探针, en: Probes for the diagnosis tests}\n"
        "version: 1\nchapter: chapter.txt\npack: probe-diagnosis\nseed: 0\n",
        encoding="utf-8",
    )
    (directory / "chapter.txt").write_text("测试用，没有正文。Test only, no text.\n", "utf-8")
    claims = [
        "proposition: 1",
        "stage: {zh: 测试, en: test}",
        "title: {zh: 与参考实现逐次比较, en: Call by call against the reference}",
        "claims:",
    ]
    for subject, (claim_id, case) in PROBE_OF.items():
        claims += [
            f"  - id: {claim_id}",
            "    statement:",
            f"      zh: {subject}() 在探针输入（{case}）上的每次调用都与参考实现一致。",
            f"      en: {subject}() agrees with the reference on every call of the {case} probe.",
            "    check: agrees_with_reference",
            f"    inputs: {{subject: {subject}, case: {case}}}",
            "    expect:",
            "      - {measure: mismatched_calls, value: 0, tolerance: {kind: exact},",
            "         unit: count, source: 'test: the reference on the same inputs'}",
        ]
    (directory / "1-probes.yaml").write_text("\n".join(claims) + "\n", encoding="utf-8")
    return directory


@pytest.fixture(scope="module")
def probe_packs(tmp_path_factory: pytest.TempPathFactory) -> list[Any]:
    directory = write_probe_pack(tmp_path_factory.mktemp("probe-pack"))
    return api.load_claims([directory], packs={PROBES.name: PROBES})


def run_learner(path: Path, pattern: str | None = None, probe: list[Any] | None = None) -> api.Run:
    """A learner file's run: on the chapter's claims, or on the probe pack when given."""
    packs = probe if probe is not None else CHAPTER_PACKS
    return api.run_packs(packs, api.LearnerFile(path), api.RunOptions(pattern=pattern))


def named(results: list[ClaimResult]) -> set[str]:
    return {m.id for r in results for d in r.diagnosis for m in d.matches}


def text_of(result: ClaimResult, lang: str) -> str:
    return "\n".join(claim_detail_lines(result, catalog(lang)))


# -- the library ----------------------------------------------------------------------------
def test_the_library_holds_the_chapters_faults_and_the_known_mistakes():
    kinds = [t.kind for t in REGISTRY.twins.values()]
    assert kinds.count("fault") == 12
    assert kinds.count("mistake") == 147
    for twin in REGISTRY.twins.values():
        assert twin.replaces in REGISTRY.subjects, twin.id
        for text in (twin.explanation, twin.where):
            assert set(text) == {"zh", "en"} and all(text.values()), twin.id
            assert re.search(r"[\u4e00-\u9fff]", text["zh"]), twin.id  # Chinese first
        assert twin.where["zh"].startswith(("阶段", "故障表")), twin.id
    # every twin has a learner file that makes its mistake, and nothing else is there
    assert set(TWIN_FILES) == set(REGISTRY.twins)


@pytest.mark.parametrize("twin_id", ONLY_PROBES)
def test_every_twin_the_probes_name_differs_from_the_reference_on_its_probe(twin_id):
    # A twin that behaves like the reference everywhere could never be told apart: its probe
    # must separate them (run in-process on our own code).
    subject = REGISTRY.twins[twin_id].replaces
    case = PROBE_OF[subject][1]
    twin = PROBES.registry.with_fault(twin_id)
    measured = agrees_with_reference(twin, subject, case, np.random.default_rng(0))
    assert measured["mismatched_calls"] >= 1, measured
    clean = agrees_with_reference(
        PROBES.registry.reference(), subject, case, np.random.default_rng(0)
    )
    assert clean["mismatched_calls"] == 0


# -- each mistake, made in a learner file on its own, is named ----------------------------------
@pytest.fixture(scope="module")
def learners(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("learners")
    for twin_id, fragment in TWIN_FILES.items():
        write_learner(directory, twin_id, fragment)
    return directory


@pytest.fixture(scope="module")
def chapter_runs(learners: Path) -> dict[str, api.Run]:
    """Each learner file of CAUGHT_BY, run on the claim that catches it.

    One learner at a time: each is judged on one claim of its own (42 claims for 139
    files), where a class run, one claim pattern for all, would judge each on every one."""
    return {
        twin_id: run_learner(learners / f"{twin_id.replace('-', '_')}.py", claim)
        for twin_id, claim in CAUGHT_BY.items()
    }


def _assert_named(run: api.Run, twin_id: str) -> None:
    results = [r for r in run.results if r.status != "passed"]
    assert results, f"no claim failed for {twin_id}"
    assert named(results) == {twin_id}, [r.diagnosis for r in results]
    twin = REGISTRY.twins[twin_id]
    for r in results:
        mine = [d for d in r.diagnosis if d.matches]
        assert mine, (r.id, r.diagnosis)
        for d in mine:
            assert d.complete and d.calls >= 1
            assert [m.id for m in d.matches] == [twin_id]
            assert d.matches[0].replaces == twin.replaces
        # in the learner's words, both languages
        en, zh = text_of(r, "en"), text_of(r, "zh")
        assert f"behaves like {twin_id}" in en and twin.explanation["en"] in en
        assert twin_id in zh and twin.explanation["zh"] in zh and "诊断" in zh
        # and in the learner's evidence, valid under the evidence model
        record = ClaimRecord.model_validate(claim_record(r, REGISTRY))
        assert {m.id for d in record.diagnosis for m in d.matches} == {twin_id}


@pytest.mark.parametrize("twin_id", sorted(CAUGHT_BY))
def test_a_mistake_the_chapters_claims_catch_is_named(chapter_runs, twin_id):
    _assert_named(chapter_runs[twin_id], twin_id)


@pytest.mark.parametrize("twin_id", ONLY_PROBES)
def test_a_mistake_only_whole_function_claims_catch_is_named_there(learners, probe_packs, twin_id):
    twin = REGISTRY.twins[twin_id]
    path = learners / f"{twin_id.replace('-', '_')}.py"
    run = run_learner(path, PROBE_OF[twin.replaces][0], probe=probe_packs)
    _assert_named(run, twin_id)


def test_a_mistake_in_a_function_is_also_named_where_the_functions_using_it_fail(learners):
    # the learner's multi_head_attention calls their own causal_masked_attention
    run = run_learner(learners / "mask_hides_diagonal.py", "operators.position-dependence")
    (result,) = run.results
    (diagnosis,) = result.diagnosis
    assert diagnosis.function == "multi_head_attention"
    assert [m.id for m in diagnosis.matches] == ["mask-hides-diagonal"]
    assert "a mistake in causal_masked_attention()" in text_of(result, "en")
    assert "causal_masked_attention() 中的错误" in text_of(result, "zh")


def test_a_raised_exception_is_diagnosed_as_the_mistake_that_raises_it(chapter_runs):
    (result,) = chapter_runs["support-float-power"].results
    assert result.status == "error" and result.reason is not None
    assert result.reason.code == "claim.learner_raised"
    assert named([result]) == {"support-float-power"}


# -- correct implementations are never diagnosed ---------------------------------------------
ALTERNATIVES = HERE / "correct" / "alternatives.py"


def test_correct_alternatives_pass_every_claim_and_get_no_diagnosis(tmp_path, probe_packs):
    path = write_learner(tmp_path, "alternatives", ALTERNATIVES)
    for run in (run_learner(path), run_learner(path, probe=probe_packs)):
        assert run.counts()["failed"] == run.counts()["error"] == 0, [
            (r.id, r.status) for r in run.results if r.status != "passed"
        ]
        assert not any(r.diagnosis for r in run.results)


def test_only_the_wrong_function_is_diagnosed_beside_correct_alternatives(tmp_path):
    # operators.position-dependence calls both the MLP (a correct alternative whose GELU is
    # written as x·sigmoid, equal to the reference only to rounding) and the attention (wrong)
    path = write_learner(tmp_path, "mixed", ALTERNATIVES, TWIN_FILES["mha-no-mask"])
    run = run_learner(path, "operators.position-dependence")
    (result,) = run.results
    assert result.status == "failed"
    assert [(d.function, [m.id for m in d.matches]) for d in result.diagnosis] == [
        ("multi_head_attention", ["mha-no-mask"])
    ]


def test_the_reference_gets_no_diagnosis(tmp_path):
    path = tmp_path / "reference.py"
    path.write_text(BASE, encoding="utf-8")
    run = run_learner(path)
    assert run.counts()["passed"] == len(run.results)
    assert not any(r.diagnosis for r in run.results)


# -- two mistakes in two functions ----------------------------------------------------------
def test_two_mistakes_in_two_functions_are_both_named(tmp_path):
    path = write_learner(
        tmp_path,
        "two",
        TWIN_FILES["temperature-multiplied"],
        TWIN_FILES["topk-keeps-smallest"],
    )
    run = run_learner(path, "t*")  # temperature.*, topk.*, topp.* (and tokenizer, which passes)
    # every name given, over all the claims; a claim whose inputs come from the wrong
    # softmax may name nothing for top-k (its mistake then raises where the file gives NaN)
    by_function: dict[str, set[str]] = {}
    for r in run.results:
        for d in r.diagnosis:
            by_function.setdefault(d.function, set()).update(m.id for m in d.matches)
    assert by_function == {
        "softmax_temperature": {"temperature-multiplied"},
        "top_k_renormalize": {"topk-keeps-smallest"},
    }


def test_two_mistakes_in_one_claims_functions_are_named_apart(tmp_path, probe_packs):
    # mlp and attention are both called by operators.position-dependence
    path = write_learner(tmp_path, "both", TWIN_FILES["mha-no-mask"], TWIN_FILES["mlp-relu"])
    run = run_learner(
        path, "probe.m", probe=probe_packs
    )  # probe.mlp, probe.mha, probe.mask, probe.moe*
    by_claim = {r.id: named([r]) for r in run.results if r.status != "passed"}
    assert by_claim["probe.mlp"] == {"mlp-relu"}
    assert by_claim["probe.mha"] == {"mha-no-mask"}
    # MoE uses the learner's own (ReLU) MLP: the MLP's mistake explains it
    assert by_claim["probe.moe"] == {"mlp-relu"}


# -- bugs that are not in the library ---------------------------------------------------------
UNKNOWN = sorted((HERE / "unknown").glob("*.py"))


# structure.py's averaging_model (a median of each prefix) passes averaging-cost, whose
# traced calls up to its largest T take it 12 s (a median sorts every prefix again): a
# claim that passes names nothing, and its other claims judge the function
SLOW_AND_PASSED = {"structure.averaging-cost"}


def claims_reaching(functions: set[str]) -> list[Any]:
    """The chapter's claims that call one of ``functions`` or a function using one: the
    others call only the reference scaffold's code, the same as in a file that passes every
    claim (test_correct_alternatives), and judging them would only cost time."""
    reached = set().union(*(REGISTRY.reaching(f) for f in functions & set(REGISTRY.subjects)))
    packs = [claims_needing(pack, reached) for pack in CHAPTER_PACKS]
    return [
        dataclasses.replace(
            p, claims=tuple(c for c in p.claims if c.claim.id not in SLOW_AND_PASSED)
        )
        for p in packs
    ]


@pytest.mark.parametrize("fragment", UNKNOWN, ids=[p.stem for p in UNKNOWN])
def test_a_bug_outside_the_library_is_never_misnamed(tmp_path, probe_packs, fragment):
    path = write_learner(tmp_path, fragment.stem, fragment)
    functions = {
        n.name for n in ast.parse(fragment.read_text()).body if isinstance(n, ast.FunctionDef)
    }
    failed = []
    for packs in (claims_reaching(functions), probe_packs):
        failed += [r for r in run_learner(path, probe=packs).results if r.status != "passed"]
    assert failed
    assert named(failed) == set()
    diagnosed = set()
    for r in failed:
        for d in r.diagnosis:
            assert d.complete and d.first_difference is not None
            diagnosed.add(d.function)
            en = text_of(r, "en")
            assert "no known mistake reproduces what your" in en and "first difference, call" in en
            assert "没有任何已知错误能重现" in text_of(r, "zh")
    assert diagnosed >= functions


def test_a_mistake_is_named_only_for_claims_on_whose_every_call_it_matches(tmp_path, probe_packs):
    # temperature multiplied, except at T = 10: temperature.table calls T = 10, so the known
    # mistake fails one of its calls there and is not named; the probe never calls T = 10,
    # and on every call it does make the learner is that mistake. The embedding counted twice
    # has the total of the head counted twice, not its rows.
    path = write_learner(tmp_path, "near_miss", HERE / "near" / "near-miss.py")
    table = run_learner(path, "temperature.table").results
    assert table[0].status == "failed" and named(table) == set()
    (diagnosis,) = table[0].diagnosis
    assert diagnosis.first_difference is not None and diagnosis.first_difference["call"] == 0
    assert named(run_learner(path, "probe.temperature", probe=probe_packs).results) == {
        "temperature-multiplied"
    }
    counts = run_learner(path, "operators.parameter-table").results
    assert counts[0].status == "failed" and named(counts) == set()


def test_two_mistakes_that_explain_the_outputs_equally_are_both_named():
    # A second twin that multiplies by T too, written another way: on temperature.table's
    # calls nothing can tell the two apart, so the diagnosis names both and lets the learner
    # read both explanations.
    import dataclasses

    registry = probe_pack().registry
    original = registry.twins["temperature-multiplied"]

    def scaled_logits(logits: Any, temperature: float) -> Any:
        z = np.asarray(logits, dtype=np.float64) * temperature
        e = np.exp(z - z.max())
        return e / e.sum()

    registry.twins["temperature-multiplied-again"] = dataclasses.replace(
        original, id="temperature-multiplied-again", fn=scaled_logits
    )
    loaded, log = _log_of("temperature-multiplied", "temperature.table")
    (diagnosis,) = Diagnoser(registry)(loaded, log, REGISTRY.reference())
    assert [m.id for m in diagnosis.matches] == [
        "temperature-multiplied",
        "temperature-multiplied-again",
    ]
    result = ClaimResult.model_validate({**_blank(), "diagnosis": [diagnosis]})
    assert "behaves like temperature-multiplied or temperature-multiplied-again" in text_of(
        result, "en"
    )
    assert "temperature-multiplied 或 temperature-multiplied-again" in text_of(result, "zh")


# -- when outcomes are the same ----------------------------------------------------------------
def test_same_compares_values_the_stated_way():
    a = np.array([0.5, 0.25, 0.25])
    assert same(a + 1e-12, a)  # float64 rounding
    assert not same(a + 1e-6, a)
    assert not same(a + 5e-9, a)  # within sqrt(eps), beyond the whole-function claims' 1e-9
    half = a.astype(np.float16)
    assert same(half + np.float16(1e-3), half)  # within a float16 claim's 8e-3 of the largest
    assert not same(half + np.float16(0.01), half)
    assert not same(half, a) and not same(a, half)  # a float array keeps its dtype
    assert not same(np.array([0.5, 0.5, 0.0]), np.array([0.5, 0.5, 1e-20]))  # exact zeros
    assert same(np.array([np.nan, np.inf]), np.array([np.nan, np.inf]))
    assert not same(np.array([np.nan]), np.array([np.inf]))
    assert not same(np.array([-np.inf]), np.array([np.inf]))
    assert same(123532032, 123532032) and not same(123532031, 123532032)  # counts exactly
    assert not same(123532032.0, 123532032)  # a count returned as a float is not a count
    assert same(7, 7.0) and same(np.int64(7), 7)  # an integer for a real number, as claimed
    assert not same(np.arange(3.0), np.arange(3))  # integer ids returned as floats
    assert same(np.arange(3, dtype=np.int32), np.arange(3))  # any integer dtype
    assert not same(np.zeros((2, 3)), np.zeros((3, 2)))
    assert same([[1.0, 2.0]], np.array([[1.0, 2.0]]))  # a list stands for a float64 array
    assert not same([1, 2], np.array([1, 2]))  # but not for an integer array
    assert same(np.array([1, 2]), [1, 2]) and same(np.float64(0.5), np.array(0.5))
    assert same((a.copy(), {"n": 3}), (a, {"n": 3}))
    assert not same((a, {"n": 3}), (a, {"n": 4}))
    assert not same({"m": 3}, {"n": 3})
    raised = attempt(math.log10, 0.0)
    assert isinstance(raised, Raised)
    assert same(Raised("ValueError", "another message", ("ValueError",)), raised)
    subclass = Raised("DomainError", "", ("DomainError", "ValueError", "Exception"))
    assert same(subclass, raised) and not same(raised, subclass)  # a subclass of ours only
    assert not same(Raised("OverflowError", "", ("OverflowError",)), raised)
    assert not same(0.0, raised)
    # cancellation: a value near 0 in an array of ones may differ by a few ulps of the ones
    assert same(np.array([1.0, 3e-17]), np.array([1.0, -2e-17]))


def test_a_difference_of_type_is_shown_with_the_types():
    # the values may be equal: the learner sees what differs
    gap = _first_gap(np.array([], dtype=np.int64), [], "")
    assert gap is not None and gap.kind == "type"
    assert (gap.expected, gap.actual) == ("int64 []", "list []")
    gap = _first_gap(2359296, 2359296.0, "")
    assert gap is not None and (gap.expected, gap.actual) == ("int 2359296", "float 2359296.0")
    ours = np.array([0.25, 0.75])
    gap = _first_gap(ours, ours.astype(np.float32), "")
    assert gap is not None and (gap.expected, gap.actual) == (
        "float64 [0.25, 0.75]",
        "float32 [0.25, 0.75]",
    )
    gap = _first_gap(ours, ours * 2, "")  # a difference of values shows the values
    assert gap is not None and (gap.kind, gap.at, gap.expected, gap.actual) == (
        "value",
        "[0]",
        0.25,
        0.5,
    )


_FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64)


def _half(values: list[float]) -> Any:
    with np.errstate(over="ignore"):  # large values become inf in float16, as they would
        return np.asarray(values, dtype=np.float16)


_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | _FLOATS
    | st.text(max_size=5)
    | st.lists(_FLOATS, max_size=6).map(np.asarray)
    | st.lists(st.integers(-5, 5), max_size=6).map(lambda v: np.asarray(v, dtype=np.int64))
    | st.lists(_FLOATS, max_size=6).map(lambda v: _half(v))
)
_PLAIN = st.recursive(
    _LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(_PLAIN, _PLAIN)
def test_same_answers_for_any_plain_data_and_every_value_is_itself(a, b):
    # what crosses the worker boundary is plain data: comparing it, or showing where two
    # values differ, never raises, and a value always reproduces itself (NaN included)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow or invalid-value warnings either
        assert same(a, a) and same(b, b)
        for ours, theirs in ((a, b), (b, a)):
            gap = _first_gap(ours, theirs, "")
            assert (gap is None) == same(theirs, ours)
            assert isinstance(
                summarize_inputs(lambda x: x, CallRecord("f", (theirs,), {}, None)), str
            )


def test_a_call_is_summarized_by_parameter_name():
    log = CallLog()
    log.add("softmax_temperature", (np.array([2.0, 1.0, -1.0]), 0.1), {}, None)
    log.add("causal_masked_attention", (np.zeros((8, 8)),), {}, None)
    ref = REGISTRY.reference()
    assert summarize_inputs(ref["softmax_temperature"], log.calls[0]) == (
        "logits=float64 [2, 1, -1], temperature=0.1"
    )
    assert summarize_inputs(ref["causal_masked_attention"], log.calls[1]) == (
        "scores=float64 (8, 8)"
    )


# -- bounded work ----------------------------------------------------------------------------
def _log_of(twin_id: str, claim_id: str) -> tuple[Any, CallLog]:
    """The call log a chapter claim makes to a twin, recorded in-process."""
    from runner.run import run_claim

    loaded = CHAPTER_PACKS[0].claim(claim_id)
    assert loaded is not None
    captured: list[CallLog] = []

    def keep(loaded: Any, log: CallLog, impl: Implementation) -> list[Any]:
        captured.append(log)
        return []

    run_claim(loaded, REGISTRY.with_fault(twin_id), REGISTRY, 0, None, keep)
    return loaded, captured[0]


def test_out_of_budget_a_diagnosis_names_only_what_it_compared_on_every_call():
    loaded, log = _log_of("temperature-multiplied", "temperature.underflow")
    impl = REGISTRY.reference()
    full = Diagnoser(REGISTRY)(loaded, log, impl)
    assert [m.id for d in full for m in d.matches] == ["temperature-multiplied"]
    assert all(d.complete for d in full)
    for budget in (10, len(log.calls) * 3):  # before the reference disagrees / mid-way
        short = Diagnoser(REGISTRY, budget=budget)(loaded, log, impl)
        assert short and not any(d.complete for d in short)
        assert not [m for d in short for m in d.matches]
    assert len(log.calls) * 100 <= WORK_BUDGET  # the real budget is far from binding here


HUGE_PROBABILITIES = """
_softmax, _top_p = softmax_temperature, top_p_renormalize


def softmax_temperature(logits, temperature):
    z = np.asarray(logits)
    if z.shape == (3,) and float(temperature) == 0.1 and z.tolist() == [2.0, 1.0, -1.0]:
        v = np.random.default_rng(0).random(200_000) + 0.5  # a valid distribution, and huge
        return v / v.sum()
    return _softmax(logits, temperature)


def top_p_renormalize(probs, p):
    return np.zeros(3) if np.asarray(probs).size > 1000 else _top_p(probs, p)
"""


def test_a_diagnosis_of_the_learners_own_values_stays_within_the_claims_cpu_time(tmp_path):
    """An outside attack: its softmax returned 540,000 probabilities, which the check feeds to
    its top-p, and the failed claim's diagnosis replayed them on a quadratic twin (an fsum of
    every prefix) in the judge, for hours, outside every cap. The diagnosis now has the CPU
    time the learner's claim has; past it no diagnosis of the run is made."""
    import resource

    source = scaffold(CHAPTER_PACKS[0], catalog("en"), reference=True)
    path = tmp_path / "my_impl.py"
    path.write_text(source + HUGE_PROBABILITIES, encoding="utf-8")
    options = api.RunOptions(
        pattern="topp.*", limits=dataclasses.replace(api.RunOptions().limits, timeout_s=1.0)
    )
    before = resource.getrusage(resource.RUSAGE_SELF)
    run = api.run_packs(CHAPTER_PACKS, api.LearnerFile(path), options)
    after = resource.getrusage(resource.RUSAGE_SELF)
    (adapts,) = [r for r in run.results if r.id == "topp.adapts-to-temperature"]
    assert adapts.status == "failed"
    assert adapts.diagnosis and not any(d.complete for d in adapts.diagnosis), adapts.diagnosis
    # the judge's own time: the quadratic twin alone ran over 5 minutes at this size
    assert after.ru_utime - before.ru_utime < 30


def test_a_learners_long_text_costs_the_log_and_the_record_what_it_weighs():
    """An outside attack returned dicts of 1,000 keys of 1,000 characters: the log counted a
    key as nothing, the run's diagnoser kept every failed claim's calls, and the judge grew
    by gigabytes claim after claim; the record kept every key (10 MB a claim)."""
    from runner.diagnose import POOL_BUDGET
    from runner.pack import CallLog
    from runner.pack.contract import MAPPING, TEXT, _summary

    keys = {"\U000e0041" * 1000 + str(i): 1 for i in range(1000)}
    log = CallLog()
    for _ in range(40):
        log.add("transformer_parameter_count", (1,), {}, keys)
    assert not log.complete  # 40 × 1,000 keys × 125 scalars: past the log's 4,000,000
    assert _summary(keys) == {"mapping": 1000}
    few = {"k" * 500: "v" * 500}
    assert _summary(few) == {"k" * TEXT + "…": "v" * TEXT + "…"}
    assert len(_summary({str(i): i for i in range(MAPPING)})) == MAPPING
    loaded, real = _log_of("temperature-multiplied", "temperature.underflow")
    diagnoser = Diagnoser(REGISTRY, kept=POOL_BUDGET)  # a run that has kept its fill
    (diagnosis,) = diagnoser(loaded, real, REGISTRY.reference())
    assert not diagnosis.complete and diagnoser.stopped


def test_a_log_that_stopped_recording_gives_an_incomplete_diagnosis():
    loaded, log = _log_of("temperature-multiplied", "temperature.table")
    log.complete, log.calls = False, []
    (diagnosis,) = Diagnoser(REGISTRY)(loaded, log, REGISTRY.reference())
    assert diagnosis.function == "softmax_temperature" and not diagnosis.complete
    line = text_of(ClaimResult.model_validate({**_blank(), "diagnosis": [diagnosis]}), "en")
    assert "called too often to compare every call" in line


def test_a_diagnosis_stopped_by_the_judges_cap_still_shows_the_first_differing_call(
    monkeypatch,
):
    """The cap on a learner's diagnosis (its claim's CPU time) stopped a bpe_train that raised
    on the chapter's text while four BPE twins replayed 768 merges: the learner got "called
    too often" and no call at all, in that claim and every later one. The replay on the
    reference, which found the first differing call, comes before the twins: it is kept."""
    from runner.learner.cost import Overrun
    from runner.run import _diagnosed

    loaded, log = _log_of("temperature-multiplied", "temperature.table")

    def over(self: Diagnoser, *args: Any) -> None:
        raise Overrun("cpu")  # as the judge's timer firing while a twin is replayed

    monkeypatch.setattr(Diagnoser, "_reproduces", over)

    class Session:
        def diagnosing(self) -> Any:
            import contextlib

            return contextlib.nullcontext()

    diagnoser = Diagnoser(REGISTRY)
    (diagnosis,) = _diagnosed(diagnoser, loaded, log, REGISTRY.reference(), Session())  # type: ignore[arg-type]
    assert diagnoser.stopped and not diagnosis.complete and not diagnosis.matches
    assert diagnosis.function == "softmax_temperature" and diagnosis.first_difference
    for lang, said in (("en", "ran out of its CPU time"), ("zh", "CPU 时间")):
        text = text_of(ClaimResult.model_validate({**_blank(), "diagnosis": [diagnosis]}), lang)
        assert said in text and ("first difference" in text or "第一处不同" in text), text
    (later,) = diagnoser(loaded, log, REGISTRY.reference())  # a later claim: none is made
    assert not later.complete and later.first_difference is None


def _blank() -> dict[str, Any]:
    return {
        "id": "x",
        "proposition": 1,
        "stage": {"zh": "阶段", "en": "stage"},
        "statement": {"zh": "陈述", "en": "statement"},
        "check": "c",
        "status": "failed",
        "duration_ms": 0.0,
    }


# -- everywhere a learner looks ----------------------------------------------------------------
def test_the_diagnosis_is_in_json_junit_evidence_and_the_html_report(cli, tmp_path):
    learner = write_learner(
        tmp_path, "two", TWIN_FILES["mask-hides-diagonal"], TWIN_FILES["logits-bits-not-bytes"]
    )
    out, xml = tmp_path / "evidence", tmp_path / "junit.xml"
    result = cli(
        "run",
        str(MODULE),
        "--impl",
        str(learner),
        "--out",
        str(out),
        "--junit-xml",
        str(xml),
        "--format",
        "json",
    )
    assert result.code == 1, result.err
    payload = json.loads(result.out)
    claims = {c["id"]: c for m in payload["results"] for c in m["claims"]}
    mask = claims["mask.prefix-softmax"]["diagnosis"]
    assert [m["id"] for d in mask for m in d["matches"]] == ["mask-hides-diagonal"]
    assert claims["tokenizer.logits-memory"]["diagnosis"][0]["matches"][0]["id"] == (
        "logits-bits-not-bytes"
    )
    # JUnit failure text carries the text reporter's lines
    junit = xml.read_text(encoding="utf-8")
    assert "behaves like logits-bits-not-bytes" in junit
    # the learner's evidence: schema-valid, with claims[].diagnosis
    (evidence_file,) = out.glob("*.json")
    from runner.record.schema import schema_problems

    doc = json.loads(evidence_file.read_text(encoding="utf-8"))
    assert schema_problems(doc) == []
    recorded = {c["id"]: c.get("diagnosis", []) for c in doc["claims"]}
    assert recorded["mask.prefix-softmax"][0]["matches"][0]["replaces"] == (
        "causal_masked_attention"
    )
    assert all(not recorded[c["id"]] for c in doc["claims"] if c["status"] == "passed")
    html = tmp_path / "report.html"
    shown = cli("report", str(evidence_file), "--html", str(html), "--lang", "zh")
    assert shown.code == 0, shown.err
    page = html.read_text(encoding="utf-8")
    assert "诊断：你的 causal_masked_attention()" in page and "mask-hides-diagonal" in page


def test_a_first_difference_is_shown_with_its_call_inputs_and_place(tmp_path, cli):
    path = write_learner(tmp_path, "unknown_temperature", HERE / "unknown" / "sampling.py")
    result = cli("run", str(MODULE), "--impl", str(path), "-k", "temperature.table")
    assert result.code == 1
    assert (
        "first difference, call 1 (logits=float64 [2, 1, -1], temperature=0.1): at [0] the "
        "reference gives 0.999955, yours gives"
    ) in result.out
