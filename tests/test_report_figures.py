"""The report's figures can be read: no axis label overlaps another, in either language, on
the reference's page, on a learner's (drawn beside the reference's), and for a fault matrix
far larger than chapter 23's. Checked twice: with matplotlib's own text extents (always), and
on the written page in headless Chromium (where it is installed), measuring the SVG's text
as the browser draws it."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import urllib.parse
import zlib
from itertools import combinations
from pathlib import Path

import pytest

from runner.i18n import catalog
from tests.test_outputs import learner_doc, report_page  # noqa: F401 - fixtures reused

pytest.importorskip("matplotlib")

from runner.reporters import html_figures

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def overlaps(figure) -> list[str]:
    """Pairs of axis texts (tick labels and the axis' label) whose boxes intersect by more
    than half a pixel, axis by axis."""
    with html_figures._style():  # the page's fonts, as the report measures them
        figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    found = []
    for ax in figure.axes:
        for axis in (ax.xaxis, ax.yaxis):
            texts = [t for t in axis.get_ticklabels() if t.get_visible() and t.get_text()]
            if axis.label.get_text():
                texts.append(axis.label)
            boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts]
            for (a, box_a), (b, box_b) in combinations(boxes, 2):
                width = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
                height = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
                if width > 0.5 and height > 0.5:
                    found.append(f"{a!r} / {b!r}")
    return found


def page_figures(evidence: dict, lang: str, reference: dict | None = None) -> list:
    from checks.pack import pack

    words = catalog(lang)
    figures = [f for _, _, f in html_figures.drawn(evidence, words, list(pack.figures.values()),
                                                   reference)]  # fmt: skip
    with html_figures._style():
        figures.append(html_figures.fault_matrix(evidence, words))
    return [f for f in figures if f is not None]


@pytest.fixture(scope="module")
def evidence_doc(tmp_path_factory) -> dict:
    from runner.cli import main
    from tests.conftest import CLAIMS, EVIDENCE_NAME

    out = tmp_path_factory.mktemp("ev")
    assert main(["run", str(CLAIMS), "--out", str(out)]) == 0
    return json.loads((out / EVIDENCE_NAME).read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_axis_label_overlaps_on_the_references_page(evidence_doc, lang):
    figures = page_figures(evidence_doc, lang)
    assert len(figures) == 4
    for figure in figures:
        assert overlaps(figure) == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_axis_label_overlaps_on_a_learners_page(evidence_doc, learner_doc, lang):  # noqa: F811
    figures = page_figures(learner_doc, lang, reference=evidence_doc)
    assert len(figures) == 3  # a learner's evidence has no faults
    assert len(figures[0].axes) == 2  # the temperature plot and its difference from the reference
    for figure in figures:
        assert overlaps(figure) == []


def big_module_evidence(propositions: int, per: int, faults: int) -> dict:
    claims = [
        {"id": f"p{p}.claim-with-a-long-name-{i}", "proposition": p, "status": "passed"}
        for p in range(1, propositions + 1)
        for i in range(per)
    ]
    matrix = {
        f"fault-with-a-descriptive-name-{f}": {
            c["id"]: ("failed" if (zlib.crc32(c["id"].encode()) + f) % 7 == 0 else "passed")
            for c in claims
        }
        for f in range(faults)
    }
    return {"claims": claims, "faults": {"matrix": matrix}}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_fault_matrix_stays_readable_far_beyond_65_claims(lang):
    evidence = big_module_evidence(propositions=30, per=6, faults=40)  # 180 claims
    with html_figures._style():
        figure = html_figures.fault_matrix(evidence, catalog(lang))
    assert overlaps(figure) == []
    assert [t.get_text() for t in figure.axes[0].get_xticklabels()][:2] == ["1\n(6)", "2\n(6)"]


def test_a_fault_matrix_no_reader_could_read_is_not_drawn():
    """A hand-in's evidence may hold any number of faults and propositions: 4,000 × 4,000
    took 7 GB and 45 s to draw (an outside attack on `report`)."""
    from runner.reporters.html_figures import MAX_FAULT_ROWS

    evidence = big_module_evidence(propositions=3, per=2, faults=MAX_FAULT_ROWS + 1)
    assert html_figures.fault_matrix(evidence, catalog("en")) is None
    assert html_figures.matrix_svg(evidence, catalog("en")) is None


def test_the_overlap_check_sees_crowded_labels():
    """What the page once drew: a label per claim, 65 of them, on one axis."""
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots(figsize=(8, 3))
    ax.set_xticks(range(65), [f"claim.number-{i}" for i in range(65)], fontsize=7)
    assert len(overlaps(figure)) > 30
    plt.close(figure)


# -- the page as Chromium draws it -------------------------------------------------------------
PROBE = """<script>window.addEventListener('load', () => {
  const found = [];
  document.querySelectorAll('svg g[id^="matplotlib.axis_"]').forEach(axis => {
    const boxes = [...axis.querySelectorAll('text')]
      .map(t => [t.textContent.trim(), t.getBoundingClientRect()]).filter(b => b[0]);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i][1], b = boxes[j][1];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0.5 && h > 0.5) found.push(boxes[i][0] + ' / ' + boxes[j][0]);
    }
  });
  const axes = document.querySelectorAll('svg g[id^="matplotlib.axis_"]').length;
  document.title = 'PROBE ' + encodeURIComponent(JSON.stringify(
    {axes, found, height: document.documentElement.scrollHeight}));
});</script></body>"""


def in_chromium(page: Path) -> dict:
    probe = page.with_name("probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE), encoding="utf-8")
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={profile}", "--window-size=1280,1000",
             "--virtual-time-budget=5000", "--dump-dom", probe.as_uri()],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    title = done.stdout.split("<title>PROBE ", 1)[1].split("</title>", 1)[0]
    return json.loads(urllib.parse.unquote(title))


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium is not installed")
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_in_chromium_no_axis_label_overlaps(cli, tmp_path, evidence_doc, learner_doc, lang):  # noqa: F811
    from tests.conftest import EVIDENCE_NAME

    (tmp_path / EVIDENCE_NAME).write_text(json.dumps(evidence_doc), encoding="utf-8")
    for name, doc in (("reference", evidence_doc), ("learner", learner_doc)):
        folder = tmp_path / name
        folder.mkdir()
        if name == "learner":
            (folder / EVIDENCE_NAME).write_text(json.dumps(evidence_doc), encoding="utf-8")
        report_page(cli, folder, doc, "--lang", lang)
        seen = in_chromium(folder / "report.html")
        assert seen["axes"] >= 8, seen
        assert seen["found"] == [], (name, seen["found"])
        # the reference's page was 16,000 px tall with every claim open, then 44,000
        assert seen["height"] < (4000 if name == "reference" else 8000), (name, seen["height"])


def test_a_figure_the_packs_code_cannot_draw_is_said_on_the_page_which_is_written(evidence_doc):
    """A pack's figure that raises, returns what is no Figure, or names a claim the evidence
    does not have (a misspelt id in ``claims=``): each is said where the figure would be, at
    the pack's line where there is one; the page and the other figures are still drawn (a
    pack written from the docs alone, 2026-12-07, got 'internal error' and no page)."""
    from checks.pack import pack
    from runner.pack import FigureSpec
    from runner.reporters import html

    def raises(data):
        return data.claims["no-such-claim"]

    broken = [
        FigureSpec("raises", {"zh": "甲", "en": "a"}, raises),
        FigureSpec("returns-text", {"zh": "乙", "en": "b"}, lambda data: "oops"),
        FigureSpec("misspelt", {"zh": "丙", "en": "c"}, lambda data: None, ("no.such-claim",)),
    ]
    page = html.build(evidence_doc, catalog("en"), [*pack.figures.values(), *broken])
    assert (
        "the raises figure could not be drawn: KeyError: &#x27;no-such-claim&#x27; (test_" in page
    )
    assert "the returns-text figure could not be drawn: its function returned str" in page
    assert "the misspelt figure draws from claim &#x27;no.such-claim&#x27;" in page
    assert page.count("<figure id='figure-") == len(pack.figures) + 1  # theirs and the matrix
