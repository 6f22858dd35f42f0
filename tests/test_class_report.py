"""A class run reports each learner as it is judged and keeps none of their runs (issue 20):
the parts it writes at the end are the documents it would have written whole."""

from __future__ import annotations

import dataclasses
import gc
import io
import json
import weakref
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from runner import api
from runner.i18n import catalog
from runner.reporters import json_out, junit
from runner.reporters.class_report import ClassReport
from tests.conftest import MODULE
from tests.test_boundary import claims_calling, scaffold_reference

(PACK,) = api.load_claims([MODULE])
TOUCHED = dataclasses.replace(  # the claims that call one function: a short run
    PACK,
    claims=tuple(c for c in PACK.claims if c.claim.id in claims_calling("logits_memory_bytes")),
    complete=False,
)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(
    entries=st.lists(st.dictionaries(st.text(), JSON_VALUES, max_size=4), max_size=4),
    written=st.lists(st.text(), max_size=2),
    indent=st.sampled_from([None, 2]),
)
def test_the_class_document_in_parts_is_what_json_writes_whole(entries, written, indent):
    rest = {"written": written, "notes": [], "exit_code": 1}
    whole = json.dumps({"learners": entries, **rest}, ensure_ascii=False, indent=indent)
    assert "".join(json_out.class_document(iter(entries), rest, indent)) == whole


def _suites() -> list[junit.Suite]:
    case = junit.Case
    return [
        junit.Suite("m v1 · a <&> b", [case("x", "m.s", "passed", 0.25)]),
        junit.Suite(
            "m v1 · c",
            [
                case("y", "m.s", "failure", 1.0, 'said "no"\r', "line 1\r\nline 2\rend"),
                case("z", "m.s", "skipped"),
                case("w", "m.s", "error", 0.0, "boom", ""),
            ],
        ),
    ]


def test_junit_in_parts_is_the_document_written_whole(tmp_path: Path):
    suites = _suites()
    totals = junit.Totals()
    parts = [junit.suite_xml(s, totals) for s in suites]
    junit.write_parts(tmp_path / "parts.xml", iter(parts), totals, "class")
    junit.write(tmp_path / "whole.xml", suites, "class")
    assert (tmp_path / "parts.xml").read_text() == (tmp_path / "whole.xml").read_text()
    root = ET.parse(tmp_path / "parts.xml").getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("4", "1", "1")


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, api.Run]]:
    """Three learners, one wrong, judged on the claims that call one function."""
    folder = tmp_path_factory.mktemp("class")
    reference = scaffold_reference()
    wrong = reference + (
        "\n\ndef logits_memory_bytes(batch, length, vocab, bytes_per_value=4):\n"
        "    return batch * length * vocab * 2\n"
    )
    paths = []
    for name, source in (("a", reference), ("b", wrong), ("c", reference)):
        paths.append(folder / f"{name}.py")
        paths[-1].write_text(source, encoding="utf-8")
    return [(p.name, run) for p, run in api.run_class([TOUCHED], paths, jobs=2)]


def test_the_report_spooled_is_the_report_of_every_run_kept(runs, tmp_path: Path):
    words = catalog("en")
    report = ClassReport(words, width=3, as_json=True, as_junit=True)
    for name, run in runs:
        report.add(name, run)
    out = io.StringIO()
    report.emit_json(out, ["ev.json"], 1, ["a note"])
    junit.write_parts(tmp_path / "parts.xml", report.junit_parts(), report.junit_totals, "c")
    report.close()

    entries = [json_out.class_entry(name, run, words) for name, run in runs]
    rest = {"written": ["ev.json"], "notes": ["a note"], "exit_code": 1}
    assert out.getvalue() == json.dumps({"learners": entries, **rest}, ensure_ascii=False) + "\n"
    suites = [s for name, run in runs for s in junit.run_suites(run, words, label=name)]
    junit.write(tmp_path / "whole.xml", suites, "c")
    assert (tmp_path / "parts.xml").read_text() == (tmp_path / "whole.xml").read_text()
    assert [r.split()[0] for r in report.lines()[1:]] == ["a.py", "b.py", "c.py"]
    assert not report.all_ok  # b is wrong


def test_a_class_run_lets_go_of_each_run_once_it_is_yielded(tmp_path: Path):
    """The runs yielded are the only lasting references to them: once the reader drops one,
    it is gone when the next is yielded (nothing in the class run grows with the class)."""
    reference = scaffold_reference()
    paths = []
    for name in ("a", "b", "c"):
        paths.append(tmp_path / f"{name}.py")
        paths[-1].write_text(reference, encoding="utf-8")
    seen: list[weakref.ref[api.Run]] = []
    for _, run in api.run_class([TOUCHED], paths, jobs=2):
        assert run.load_failure is None, run.load_failure
        gc.collect()
        assert [r() is None for r in seen] == [True] * len(seen)
        seen.append(weakref.ref(run))
        del run
    gc.collect()
    assert [r() is None for r in seen] == [True] * 3
