"""The byte-level BPE behind the tokenizer's bill (stage 7, chapter 6's tokenizer).

The reference is lossless, keeps its documented rules (overlapping counts, left-to-right
merges, ties to the smallest pair, early stop), refuses bad arguments; the claim's check
reads only a text inside the project and fails tokenizers that merge nothing or too little.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checks.measure.tokenizer import read_corpus
from runner.load import load_packs
from runner.pack.registry import Implementation
from runner.run import run_claim
from tests.conftest import MODULE, REGISTRY

REF = REGISTRY.reference()
bpe_train, bpe_encode = REF["bpe_train"], REF["bpe_encode"]
(PACK,) = load_packs([MODULE])
[BILL] = [c for c in PACK.claims if c.claim.id == "tokenizer.bpe-bill"]


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=0, max_size=300), st.integers(256, 300))
def test_bpe_is_lossless_and_leaves_no_mergeable_pair(raw, vocab):
    data = np.frombuffer(raw, dtype=np.uint8)
    merges = bpe_train(data, vocab)
    assert len(merges) <= vocab - 256
    ids = np.asarray(bpe_encode(data, merges))
    pieces = [bytes([i]) for i in range(256)]
    for a, b in merges:
        pieces.append(pieces[a] + pieces[b])
    assert b"".join(pieces[i] for i in ids) == raw
    pairs = set(zip(ids[:-1].tolist(), ids[1:].tolist(), strict=True))
    assert not pairs & {tuple(m) for m in merges}


def test_bpe_counts_overlapping_pairs_and_merges_left_to_right():
    data = np.frombuffer(b"aaaaa", dtype=np.uint8)
    assert bpe_train(data, 300) == [(97, 97)]  # then (256, 256) and (256, 97) occur once each
    assert bpe_encode(data, [(97, 97)]).tolist() == [256, 256, 97]


def test_bpe_breaks_ties_by_the_smallest_pair():
    data = np.frombuffer(b"abab cdcd", dtype=np.uint8)  # (a, b) and (c, d) twice each
    assert bpe_train(data, 257) == [(97, 98)]


def test_bpe_refuses_bad_arguments():
    with pytest.raises(ValueError):
        bpe_train(np.zeros(3, dtype=np.uint8), 255)
    with pytest.raises(ValueError):
        bpe_encode(np.zeros(3, dtype=np.uint8), [(256, 0)])  # names a token not made yet
    with pytest.raises(ValueError):
        bpe_encode(np.array([1.5]), [])


def test_the_corpus_is_the_packs_chapter_byte_for_byte():
    [name] = [c.claim.inputs["corpus"] for c in PACK.claims if c.claim.id == "tokenizer.bpe-bill"]
    assert read_corpus(name) == (MODULE / PACK.meta.chapter).read_bytes()


@pytest.mark.parametrize("name", ["../reference/tokenizer.py", "/etc/passwd", "", ".hidden"])
def test_the_corpus_is_a_file_name_in_the_corpus_folder(name):
    with pytest.raises(ValueError):
        read_corpus(name)


def bill(**replaced):
    functions = dict(REF.functions)
    functions.update(replaced)
    return run_claim(BILL, Implementation("learner", "t", functions), REGISTRY, PACK.meta.seed)


def test_a_tokenizer_that_merges_nothing_fails_the_bill():
    result = bill(bpe_encode=lambda data, merges: np.asarray(data, dtype=np.int64))
    failed = {m.name for m in result.measurements if m.verdict == "failed"}
    assert result.status == "failed"
    assert {"token_count_increases", "mergeable_pairs_left"} <= failed


def test_a_trainer_that_stops_early_fails_the_bill():
    result = bill(bpe_train=lambda data, vocab_size: REF["bpe_train"](data, 600))
    assert result.status == "failed"
    assert "vocab_reached" in {m.name for m in result.measurements if m.verdict == "failed"}


def test_the_bill_records_what_the_chapter_argues_and_what_it_does_not():
    result = bill()
    measured = {m.name: m.actual for m in result.measurements} | result.observations
    tokens, logits = measured["tokens"], measured["logits_bytes_per_text"]
    assert tokens[0] == 22391 and all(b < a for a, b in itertools.pairwise(tokens))
    assert all(b > a for a, b in itertools.pairwise(logits))  # finer (smaller V) costs less
    kv = measured["kv_bytes_per_text"]
    assert [k / kv[0] for k in kv] == pytest.approx([t / tokens[0] for t in tokens])
