"""How ``matches_reference`` compares a result with the reference's: a list of numbers is
the array it writes out, and ids stay integers (a list of ints is an integer array)."""

from __future__ import annotations

import numpy as np
import pytest

from runner.pack.contract import _differ, agreement

TOL = agreement(1e-9, 0.0, {})
IDS = np.array([97, 256, 300], dtype=np.int64)


@pytest.mark.parametrize(
    "actual", [[97, 256, 300], [np.int32(97), np.int64(256), 300], IDS.astype(np.int32)]
)
def test_ids_as_a_list_of_ints_or_any_integer_array_agree(actual):
    assert _differ(IDS, actual, TOL) is None


@pytest.mark.parametrize("actual", [[97.0, 256.0, 300.0], [97, 256, 300.5], [True, 256, 300]])
def test_ids_with_a_float_or_a_bool_do_not(actual):
    assert _differ(IDS, actual, TOL)["why"] in ("dtype", "value")


def test_a_wrong_id_in_a_list_is_named():
    assert _differ(IDS, [97, 257, 300], TOL) == {
        "why": "value",
        "at": [1],
        "expected_at": 256,
        "actual_at": 257,
    }


def test_floats_written_out_as_a_list_still_agree():
    expected = np.array([[0.5, 0.25], [1.0, 2.0]])
    assert _differ(expected, [[0.5, 0.25], [1, 2]], TOL) is None
    assert _differ(expected, [[0.5], [1.0, 2.0]], TOL) == {
        "why": "type",
        "expected": "array",
        "got": "a list that is not an array",
    }
