"""``Implementation.modifies``: a call, and the arguments it changed (none, under the contract).

In-process for our own functions (a copy before the call, compared after), in the learner's
worker for a learner's (the same comparison, where the learner's code ran; the judge only
receives which arguments changed, and names them by the function's signature).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from runner.learner.limits import WorkerLimits
from runner.learner.session import LearnerSession
from runner.pack.registry import Implementation
from tests.conftest import REGISTRY

LEARNER = """
import numpy as np

def top_k_renormalize(probs, k):
    probs[np.argsort(-probs, kind="stable")[k:]] = 0.0  # written into the caller's array
    probs /= probs.sum()
    return probs

def layer_norm(x, gain, bias, eps=1e-5):
    bias[0] = 7.0  # a keyword argument's array, changed
    return np.zeros_like(x)

def bpe_encode(data, merges):
    merges.pop()  # a list argument, shortened
    return np.asarray(data, dtype=np.int64)

def softmax_temperature(logits, temperature):
    return logits  # the caller's array, returned unchanged: not a modification
"""


def in_process(**functions: object) -> Implementation:
    return Implementation("learner", "t", {**REGISTRY.reference().functions, **functions})


def test_the_reference_modifies_none_of_its_arguments():
    probs = np.array([0.1, 0.6, 0.3])
    value, changed = REGISTRY.reference().modifies("top_k_renormalize", probs, 2)
    assert changed == []
    assert probs.tolist() == [0.1, 0.6, 0.3]
    assert value.tolist() == pytest.approx([0.0, 2 / 3, 1 / 3])


def test_an_in_process_function_writing_into_an_argument_is_named():
    def top_k(probs, k):
        probs[np.argsort(-probs)[k:]] = 0.0
        return probs / probs.sum()

    _, changed = in_process(top_k_renormalize=top_k).modifies(
        "top_k_renormalize", np.array([0.1, 0.6, 0.3]), 2
    )
    assert changed == ["probs"]


def test_nan_in_an_untouched_array_is_not_a_change():
    _, changed = in_process(greedy_token=lambda z: 0).modifies(
        "greedy_token", np.array([np.nan, 1.0])
    )
    assert changed == []


@pytest.fixture(scope="module")
def learner(tmp_path_factory: pytest.TempPathFactory):
    path = Path(tmp_path_factory.mktemp("learner")) / "inplace.py"
    path.write_text(LEARNER, encoding="utf-8")
    names = ["top_k_renormalize", "layer_norm", "bpe_encode", "softmax_temperature"]
    with LearnerSession(path, names, WorkerLimits(timeout_s=30)) as session:
        assert session.open() is None
        session.begin_claim()
        yield session.implementation()
        session.end_claim()


def test_a_learner_writing_into_an_array_is_named_from_its_worker(learner):
    probs = np.array([0.1, 0.6, 0.3])
    value, changed = learner.modifies("top_k_renormalize", probs, 2)
    assert changed == ["probs"]
    assert probs.tolist() == [0.1, 0.6, 0.3]  # the judge's own array never left the judge
    assert np.asarray(value).tolist() == pytest.approx([0.0, 2 / 3, 1 / 3])


def test_keyword_arguments_and_lists_are_watched_too(learner):
    x, g, b = np.ones((2, 3)), np.ones(3), np.zeros(3)
    _, changed = learner.modifies("layer_norm", x, g, bias=b)
    assert changed == ["bias"]
    _, changed = learner.modifies("bpe_encode", np.array([97, 98], dtype=np.uint8), [[97, 98]])
    assert changed == ["merges"]


def test_returning_an_argument_unchanged_is_not_a_modification(learner):
    _, changed = learner.modifies("softmax_temperature", np.array([1.0, 2.0]), 1.0)
    assert changed == []
    assert learner.measured("softmax_temperature", np.array([1.0]), 1.0)[1] is not None


def test_the_helpers_the_reference_scaffold_hands_a_learner_leave_their_arguments(cli):
    """A learner who calls a private helper of the reference scaffold on their own array (a
    softmax on the scores they were given) keeps that array: a helper that wrote into it made
    a correct-looking function fail the contract's unchanged-arguments rule."""
    scaffold = cli("scaffold", "23-design-tradeoffs", "--reference", "--lang", "en")
    assert scaffold.code == 0
    namespace: dict[str, object] = {}
    exec(compile(scaffold.out, "scaffold.py", "exec"), namespace)  # our own reference's text
    softmax = namespace["_softmax_last"]
    scores = np.array([[0.5, -1.0], [2.0, 3.0]])
    kept = scores.copy()
    weights = softmax(scores)  # type: ignore[operator]
    assert np.array_equal(scores, kept)
    assert np.allclose(weights.sum(axis=-1), 1.0)
    mask = namespace["causal_masked_attention"]
    assert np.array_equal(mask(scores), [[1.0, 0.0], weights[1]])  # type: ignore[operator]
    assert np.array_equal(scores, kept)


def test_a_refilled_buffer_handed_out_as_a_subclass_is_still_seen():
    """A file returning one buffer per function refilled at each call, as a view of a
    subclass whose ``nbytes`` is 0, was never held, and passed every contract claim (an
    attack round, 2026-12-07): results are read through ndarray's own view."""
    import numpy as np

    from runner.returned import LastResults

    class Held(np.ndarray):
        nbytes = property(lambda self: 0)  # type: ignore[assignment]

        def tobytes(self, *args, **kwargs):  # type: ignore[override]
            return b""

    buffer = np.zeros(4)

    def refill(x):
        buffer[:] = x
        return buffer.view(Held)

    results = LastResults()
    assert not results.changed_by(refill, refill(1.0))
    assert results.changed_by(refill, refill(2.0))
