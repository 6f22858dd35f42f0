"""What people read: JUnit XML, the HTML report, the pytest plugin, list, the pre-commit hook."""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from tests.conftest import (
    CLAIMS,
    EVIDENCE_NAME,
    MODULE,
    N_CLAIMS,
    ROOT,
    VERSION,
    partial_module_yaml,
)

pytest_plugins = ["pytester"]


# -- JUnit XML --------------------------------------------------------------------------------
def assert_jenkins_junit(root: ET.Element) -> None:
    """The rules of Jenkins' junit-10.xsd that CI viewers rely on."""
    assert root.tag == "testsuites"
    for suite in root:
        assert suite.tag == "testsuite"
        for attr in ("name", "tests", "failures", "errors"):
            assert attr in suite.attrib, attr
        assert suite.get("time", "0").replace(".", "", 1).isdigit()
        cases = list(suite)
        assert all(c.tag == "testcase" and "name" in c.attrib for c in cases)
        assert int(suite.get("tests")) == len(cases)
        for kind, attr in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            assert int(suite.get(attr, "0")) == sum(c.find(kind) is not None for c in cases)
        for case in cases:
            assert len([child for child in case]) <= 1
            assert all(child.tag in ("failure", "error", "skipped") for child in case)


def test_junit_for_a_run_has_one_case_per_claim_with_the_failure_text(cli, tmp_path):
    module = tmp_path / "claims" / "23-design-tradeoffs"
    shutil.copytree(MODULE, module)
    topk = module / "7-top-k.yaml"
    topk.write_text(topk.read_text(encoding="utf-8").replace("value: 2\n", "value: 3\n"))
    xml_path = tmp_path / "junit.xml"
    result = cli("run", str(module), "--out", str(tmp_path / "ev"), "--junit-xml", str(xml_path))
    assert result.code == 1
    assert f"wrote {xml_path}" in result.out.splitlines()  # said, as evidence is
    root = ET.parse(xml_path).getroot()
    assert_jenkins_junit(root)
    [suite] = list(root)
    assert suite.get("name") == f"23-design-tradeoffs v{VERSION}"
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == (
        str(N_CLAIMS),
        "1",
        "0",
    )
    cases = {c.get("name"): c for c in suite}
    failure = cases["topk.renormalize"].find("failure")
    assert failure is not None
    assert failure.get("message") == "kept: expected = 3, actual 2"
    assert "kept: expected = 3, actual 2" in (failure.text or "")
    assert cases["mask.prefix-softmax"].find("failure") is None


def test_junit_for_faults_and_submissions(cli, tmp_path):
    faults = tmp_path / "faults.xml"
    injected = cli("inject", "--all", str(CLAIMS), "--junit-xml", str(faults))
    assert injected.code == 0
    assert injected.out.splitlines()[-1] == f"wrote {faults}"  # said where it is
    root = ET.parse(faults).getroot()
    assert_jenkins_junit(root)
    assert [c.get("name") for c in root.iter("testcase")][:2] == [
        "vt-as-v-times-t",
        "giant-mlp-missing-input-width",
    ]
    bad = tmp_path / "bad.yaml"
    bad.write_text("schema: learn-llm.evidence.v1\n", encoding="utf-8")
    subs = tmp_path / "subs.xml"
    validated = cli("validate", str(bad), "--junit-xml", str(subs), "--claims", str(CLAIMS))
    assert validated.code == 1
    assert validated.out.splitlines()[-1] == f"wrote {subs}"
    root = ET.parse(subs).getroot()
    assert_jenkins_junit(root)
    [case] = list(root.iter("testcase"))
    failure = case.find("failure")
    assert failure is not None and failure.get("message", "").endswith("problems)")
    assert "$: 'module' is a required property" in (failure.text or "")


# -- the HTML report --------------------------------------------------------------------------
class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.svgs = 0
        self.external: list[str] = []
        self.tags: list[str] = []
        self.text: list[str] = []
        self.folded = 0  # how many <details> the parser is inside
        self.open_claims: list[str] = []  # claims shown without opening anything

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        values = dict(attrs)
        if tag == "details":
            self.folded += 1
        if tag == "section" and "claim" in (values.get("class") or "") and not self.folded:
            self.open_claims.append(values.get("id") or "")
        if tag == "svg":
            self.svgs += 1
        if values.get("id"):
            self.ids.append(values["id"] or "")
        for name in ("src", "href", "xlink:href"):
            link = values.get(name) or ""
            if link and not link.startswith("#") and not link.startswith("data:"):
                self.external.append(f"{tag} {name}={link}")
        if tag in ("link", "script", "iframe", "img") and tag != "img":
            self.external.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "details":
            self.folded -= 1

    def handle_data(self, data: str) -> None:
        self.text.append(data)


@pytest.fixture(scope="module")
def evidence_doc(tmp_path_factory) -> dict:
    from runner.cli import main

    out = tmp_path_factory.mktemp("ev")
    assert main(["run", str(CLAIMS), "--out", str(out)]) == 0
    return json.loads((out / EVIDENCE_NAME).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def learner_doc(tmp_path_factory) -> dict:
    """A learner's evidence: the reference scaffold whose softmax_temperature computes in
    float16 (the chapter's low-temperature-underflow mistake), judged for real."""
    from runner.cli import main

    out = tmp_path_factory.mktemp("learner")
    source = io.StringIO()
    with contextlib.redirect_stdout(source):
        assert main(["scaffold", MODULE.name, "--reference", "--claims", str(CLAIMS)]) == 0
    mine = out / "mine.py"
    mine.write_text(
        source.getvalue() + "\n\n_right_softmax = softmax_temperature\n\n\n"
        "def softmax_temperature(logits, temperature):\n"
        "    return _right_softmax(np.asarray(logits).astype(np.float16), temperature)\n",
        encoding="utf-8",
    )
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["run", str(CLAIMS), "--impl", str(mine), "--out", str(out)]) == 1
    (path,) = out.glob(f"{MODULE.name}-v*.mine.json")
    return json.loads(path.read_text(encoding="utf-8"))


def report_page(
    cli, folder: Path, doc: dict, *args: str, name: str = "ev.json"
) -> tuple[str, Page]:
    evidence = folder / name
    evidence.write_text(json.dumps(doc), encoding="utf-8")
    page_path = folder / "report.html"
    result = cli("report", str(evidence), "--html", str(page_path), "--claims", str(CLAIMS), *args)
    assert result.code == 0, result.err
    text = page_path.read_text(encoding="utf-8")
    page = Page()
    page.feed(text)
    return text, page


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_report_is_self_contained_with_every_claim_and_four_figures(
    cli, tmp_path, evidence_doc, lang
):
    pytest.importorskip("matplotlib")
    _, page = report_page(cli, tmp_path, evidence_doc, "--lang", lang)
    claim_ids = [c["id"] for c in evidence_doc["claims"]]
    assert set(claim_ids) <= set(page.ids)
    for name in ("temperature", "mask", "memory", "faults"):
        assert f"figure-{name}" in page.ids
    assert page.svgs == 4
    assert page.external == []
    text = " ".join(page.text)
    other = "zh" if lang == "en" else "en"
    for claim in evidence_doc["claims"]:  # in the reader's language, and only in it
        assert claim["statement"][lang] in text
        assert claim["statement"][other] not in text
    assert ("12/12 caught" if lang == "en" else "12 个中捕获 12 个") in text


def test_report_of_failing_evidence_shows_the_failures_first(cli, tmp_path, evidence_doc):
    pytest.importorskip("matplotlib")
    doc = json.loads(json.dumps(evidence_doc))
    last = doc["claims"][-1]
    last["status"] = "failed"
    _, page = report_page(cli, tmp_path, doc)
    claim_ids = [i for i in page.ids if i in {c["id"] for c in doc["claims"]}]
    assert claim_ids[0] == last["id"]


def test_a_learners_figures_are_drawn_beside_the_references(
    cli, tmp_path, evidence_doc, learner_doc
):
    """The reference's evidence found beside the learner's (by its file name) is drawn in the
    figures: its curves in the temperature plot, its weights beside the learner's."""
    pytest.importorskip("matplotlib")
    (tmp_path / EVIDENCE_NAME).write_text(json.dumps(evidence_doc), encoding="utf-8")
    failed = {c["id"] for c in learner_doc["claims"] if c["status"] == "failed"}
    assert {"temperature.table", "contract.softmax-temperature"} <= failed

    html_text, page = report_page(cli, tmp_path, learner_doc, "--lang", "en")

    text = " ".join(page.text)
    assert f"{EVIDENCE_NAME}: drawn beside this run in the figures" in text
    figures = {name: _figure_svg(html_text, name) for name in ("temperature", "mask", "memory")}
    for svg in figures.values():
        assert ">reference<" in svg
    assert ">yours<" in figures["mask"] and ">reference<" in figures["mask"]
    assert "rel. diff." in figures["temperature"]  # float16's rounding, against the reference's
    assert "figure-faults" not in page.ids  # a learner's evidence has no faults
    # the diagnosis is not the chapter's erratum, and each is labelled as what it is
    assert html_text.count("class='diagnosis'") >= len(failed) - 1
    assert "class='erratum'" in html_text
    assert "diagnosis of your code" in text and "the chapter's text and the run" in text


def _figure_svg(page: str, name: str) -> str:
    start = page.index(f"<figure id='figure-{name}'")
    return page[start : page.index("</figure>", start)]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (None, "no reference evidence found"),
        ("other-pack", "is evidence of another claim pack"),
        ("not-reference", "is evidence of another claim pack"),
    ],
)
def test_without_a_usable_reference_the_figures_show_the_learner_alone(
    cli, tmp_path, evidence_doc, learner_doc, change, said, monkeypatch
):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)  # no evidence/ here: only what the test puts down
    if change is not None:
        reference = json.loads(json.dumps(evidence_doc))
        if change == "other-pack":
            reference["claim_pack"]["expectations_sha256"] = "0" * 64
        else:
            reference["implementation"] = learner_doc["implementation"]
        (tmp_path / "elsewhere").mkdir()
        (tmp_path / "elsewhere" / "ref.json").write_text(json.dumps(reference), encoding="utf-8")
        extra = ("--reference", str(tmp_path / "elsewhere" / "ref.json"))
    else:
        extra = ()

    html_text, page = report_page(cli, tmp_path, learner_doc, "--lang", "en", *extra)

    assert said in " ".join(page.text)
    assert ">reference<" not in _figure_svg(html_text, "mask")


def test_report_page_is_not_needlessly_tall(cli, tmp_path, evidence_doc, learner_doc):
    """Passing claims fold by proposition; measurements that passed fold under a failed
    claim: the page's open text is what needs reading (the reference's page was over
    16,000 px tall in Chromium with every claim open)."""
    pytest.importorskip("matplotlib")
    for doc in (evidence_doc, learner_doc):
        _, page = report_page(cli, tmp_path, doc, "--lang", "en")
        failing = {c["id"] for c in doc["claims"] if c["status"] != "passed"}
        assert set(page.open_claims) == failing
        assert len(page.open_claims) == len(failing)


def test_report_without_matplotlib_says_how_to_install_it(cli, tmp_path, evidence_doc, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    evidence = tmp_path / "ev.json"
    evidence.write_text(json.dumps(evidence_doc), encoding="utf-8")
    result = cli("report", str(evidence), "--html", str(tmp_path / "r.html"))
    assert result.code == 2
    assert "pip install 'learn-llm-claims[report]'" in result.err
    assert not (tmp_path / "r.html").exists()


def test_report_refuses_a_file_that_is_not_evidence(cli, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "something else"}', encoding="utf-8")
    result = cli("report", str(bad), "--html", str(tmp_path / "r.html"))
    assert result.code == 2
    assert "not valid evidence" in result.err


def test_report_refuses_evidence_holding_a_lone_surrogate(cli, tmp_path, evidence_doc):
    """ "\\ud800" is valid JSON and no Unicode text: one line, not an internal error."""
    bad = tmp_path / "ev.json"
    text = json.dumps(evidence_doc).replace(
        json.dumps(evidence_doc["module"]), json.dumps(evidence_doc["module"] + "\ud800")
    )
    bad.write_text(text, encoding="utf-8")

    result = cli("report", str(bad), "--html", str(tmp_path / "r.html"))

    assert result.code == 2
    assert result.err.endswith(
        "holds a lone surrogate escape (\\ud800…\\udfff), which is not Unicode text\n"
    )
    assert not (tmp_path / "r.html").exists()


# -- the pytest plugin ------------------------------------------------------------------------
def test_pytest_leaves_the_engines_asserts_alone_and_rewrites_the_tests():
    """The plugin's distribution has a pytest11 entry point, so pytest would rewrite the
    asserts of every module of it, compiled from source in every pytest process (bytecode
    is not written here): the engine's and the pack's are left as they are."""

    def rewritten(name: str) -> bool:
        loader = getattr(sys.modules[name], "__loader__", None)
        return type(loader).__name__ == "AssertionRewritingHook"

    loaded = [n for n in list(sys.modules) if n.split(".")[0] in ("runner", "checks")]
    assert len(loaded) > 20
    assert [n for n in loaded if rewritten(n)] == []
    assert rewritten(__name__)  # this test's own module still is


def test_pytest_collects_claims_with_one_passing_and_one_failing(pytester):
    module = pytester.path / "claims" / "demo"
    module.mkdir(parents=True)
    (module / "module.yaml").write_text(partial_module_yaml(), encoding="utf-8")
    shutil.copy(MODULE / "chapter.zh.txt", module / "chapter.zh.txt")
    text = (MODULE / "7-top-k.yaml").read_text(encoding="utf-8")
    (module / "7-top-k.yaml").write_text(text, encoding="utf-8")
    wrong = text.replace("id: topk.renormalize", "id: topk.wrong").replace(
        "value: 2\n", "value: 3\n"
    )
    (module / "8-wrong.yaml").write_text(wrong.replace("proposition: 7", "proposition: 8"))
    result = pytester.runpytest("claims/", "-v")  # the plugin loads by its entry point
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*7-top-k.yaml::topk.renormalize PASSED*",
            "*8-wrong.yaml::topk.wrong FAILED*",
            "*kept: expected = 3, actual 2*",
        ]
    )


def test_pytest_reports_a_claim_id_used_in_two_files_as_run_does(pytester):
    """Each file alone is valid; the module is not: the second file's collection fails
    naming the duplicate, the first file's claim still runs."""
    module = pytester.path / "claims" / "demo"
    module.mkdir(parents=True)
    (module / "module.yaml").write_text(partial_module_yaml(), encoding="utf-8")
    shutil.copy(MODULE / "chapter.zh.txt", module / "chapter.zh.txt")
    text = (MODULE / "7-top-k.yaml").read_text(encoding="utf-8")
    (module / "7-top-k.yaml").write_text(text, encoding="utf-8")
    (module / "8-again.yaml").write_text(text.replace("proposition: 7", "proposition: 8"))
    result = pytester.runpytest_subprocess(  # its own process: NumPy loads once per process
        "claims/", "-v", "--claims-lang", "en", "--continue-on-collection-errors"
    )
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*7-top-k.yaml::topk.renormalize PASSED*", "*duplicate claim id*"])


# -- list and the pre-commit hook -------------------------------------------------------------
def test_list_text_and_json(cli):
    text = cli("list", str(CLAIMS))
    assert text.code == 0
    lines = text.out.splitlines()
    assert lines[0].startswith(f"23-design-tradeoffs v{VERSION} · The skeleton of trade-offs")
    assert "    support.gpt2-vocab-1000-ctx  [stage 1] · 1 point" in lines
    zh = cli("list", str(CLAIMS), "--lang", "zh")
    assert "    support.gpt2-vocab-1000-ctx  [阶段一] · 1 分" in zh.out.splitlines()
    doc = json.loads(cli("list", str(CLAIMS), "--format", "json").out)
    [module] = doc["modules"]
    assert module["id"] == "23-design-tradeoffs"
    assert len(module["claims"]) == N_CLAIMS
    assert {"id", "proposition", "stage", "statement", "check"} <= set(module["claims"][0])
    assert len(module["faults"]) == 12


def test_pre_commit_hook_validates_evidence(cli):
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    [hook] = hooks
    assert hook["id"] == "validate-evidence"
    # a course repository's evidence folder holds its own reference and fault runs
    assert hook["entry"] == "learn-llm-claims validate --course-evidence"
    assert hook["pass_filenames"] is True
    import re

    assert re.search(hook["files"], "evidence/23-design-tradeoffs-v1.json")
    assert re.search(hook["exclude"], "evidence/module-manifest-v1.json")
    # what the hook runs, on the committed evidence
    result = cli(
        "validate", str(ROOT / current_evidence()), "--claims", str(CLAIMS), "--course-evidence"
    )
    assert result.code == 0, result.out


def test_console_script_is_declared():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'learn-llm-claims = "learn_llm_claims:main"' in text
    assert 'learn_llm_claims = "learn_llm_claims.pytest_plugin"' in text
    assert 'design-tradeoffs = "checks:pack"' in text
    # the scripts folder of this interpreter's environment, whether or not it is activated
    where = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    script = shutil.which("learn-llm-claims", path=where)
    assert Path(script or "").name == "learn-llm-claims"
    done = subprocess.run(
        [str(script), "list", "--format", "json"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "23-design-tradeoffs" in done.stdout


@pytest.mark.parametrize(("preset", "expected"), [(None, "__all__"), ("logfire", "logfire")])
def test_entry_point_skips_pydantic_plugin_discovery(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], preset, expected
):
    from runner.__main__ import run

    # set first, so that monkeypatch restores the variable run() writes
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "restored after the test")
    if preset is None:
        monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS")
    else:
        monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", preset)
    monkeypatch.setattr(sys, "argv", ["learn-llm-claims", "list"])
    # run() is a process's entry: it ignores Ctrl-C once done and freezes what it imported;
    # this test's process goes on, and a subprocess it starts later inherits an ignored SIGINT
    handlers = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        with pytest.raises(SystemExit) as exit_:
            run()
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
        gc.unfreeze()
        gc.enable()
    assert exit_.value.code == 0
    assert os.environ["PYDANTIC_DISABLE_PLUGINS"] == expected  # a user's own value is kept
    assert "23-design-tradeoffs" in capsys.readouterr().out


def current_evidence() -> str:
    """The committed evidence the manifest names for the module."""
    manifest = json.loads((ROOT / "evidence" / "module-manifest-v1.json").read_text("utf-8"))
    return str(manifest["modules"]["23-design-tradeoffs"]["evidence"])


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("stream", "indented"), [(io.StringIO, False), (_Terminal, True)])
def test_json_output_is_indented_only_for_a_terminal(stream, indented):
    from runner.reporters.json_out import emit

    out = stream()
    emit({"claims": [{"id": "a", "verdict": "passed"}], "text": "中文"}, out)

    text = out.getvalue()
    assert json.loads(text) == {"claims": [{"id": "a", "verdict": "passed"}], "text": "中文"}
    assert (text.count("\n") > 1) is indented
    assert "中文" in text  # not \\u escapes, in either form


def test_run_json_for_a_script_is_one_line(cli, tmp_path):
    result = cli("run", str(CLAIMS), "--out", str(tmp_path), "-k", "support.*", "--format", "json")

    assert result.out.count("\n") == 1
    assert json.loads(result.out)["results"][0]["claims"]


@pytest.mark.parametrize(
    "args",
    [["run", "claims/", "--out", "{tmp}"], ["list"], ["--version"]],
    ids=["run", "list", "version"],
)
def test_a_command_imports_nothing_it_does_not_use(tmp_path, args):
    """Start-up: no importlib.metadata (entry points, versions and licences are read from
    the dist-info files; pydantic's plugin loader, with plugins disabled, is stood in for)
    and no numpy.ma (np.unique's and np.setdiff1d's first call import it)."""
    argv = [a.replace("{tmp}", str(tmp_path)) for a in args]
    done = entry_point(
        argv,
        after="print(sorted(m for m in ('importlib.metadata', 'numpy.ma') if m in sys.modules),"
        " file=sys.stderr)\n",
    )
    assert done.stderr.strip().splitlines()[-1] == "[]", done.stderr[-2000:]


def entry_point(
    argv: list[str], before: str = "", after: str = "", timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``python -m runner ARGV`` in a fresh process, through the entry point, with
    ``before`` run first and ``after`` once it has exited (its SystemExit caught); Ctrl-C
    as a terminal's shell gives it (a parent that ignores SIGINT hands that on)."""
    script = (
        "import os, signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import runner.__main__ as entry\n"
        f"{before}"
        f"sys.argv[1:] = {argv!r}\n"
        "try:\n"
        "    entry.run()\n"
        "except SystemExit as exit_:\n"
        f"    {after.strip() or 'pass'}\n"
        "    raise\n"
    )
    return subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.parametrize(("signal_name", "code"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_an_interruption_python_swallows_in_a_finalizer_is_said_once(signal_name, code):
    """A Ctrl-C or SIGTERM landing while a finalizer runs (an object's __del__) is not
    raised where the run is: Python prints "Exception ignored" and goes on. The command says
    it was interrupted, in its one line, and exits as interrupted."""
    before = (
        "import runner.cli as cli\n"
        "class Finalized:\n"
        "    def __del__(self):\n"
        f"        os.kill(os.getpid(), signal.{signal_name})\n"
        "        signal.pthread_sigmask(signal.SIG_UNBLOCK, [])  # the handler runs here\n"
        "real = cli._main\n"
        "def main(argv, words, *more):\n"
        "    code = real(argv, words, *more)\n"
        "    Finalized()  # dropped at once: its __del__ runs, and the signal lands in it\n"
        "    return code\n"
        "cli._main = main\n"
    )
    done = entry_point(["list", "--lang", "en"], before=before)
    assert done.returncode == code, done.stderr[-2000:]
    assert done.stderr.splitlines() == [
        "interrupted; files listed as written are complete, and none is half-written"
    ]


def test_an_interruption_caught_inside_generated_code_exits_130_under_python_m(tmp_path):
    """A Ctrl-C that lands in code run from a string (what dataclasses and namedtuple write
    and exec), and that the command catches and says, ends the process with 130. CPython
    notes such an interruption as unhandled, and under `python -m` it then killed itself
    with SIGINT at exit (-2, after the 'interrupted' line): a third of Ctrl-Cs in the first
    0.2 s of a run did."""
    (tmp_path / "interrupting.py").write_text(
        "import signal, sys\n"
        "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "import runner.cli as cli\n"
        "def main(argv, words, *more):\n"
        "    try:\n"
        "        exec('raise KeyboardInterrupt')  # as in a dataclass's generated __init__\n"
        "    except KeyboardInterrupt as exc:\n"
        "        return cli.interrupted(exc, words)\n"
        "cli._main = main\n"
        "import runner.__main__ as entry\n"
        "sys.argv[1:] = ['list', '--lang', 'en']\n"
        "entry.run()\n",
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(tmp_path)])}
    done = subprocess.run(
        [sys.executable, "-m", "interrupting"], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 130, done.stderr[-2000:]
    assert done.stderr.splitlines() == [
        "interrupted; files listed as written are complete, and none is half-written"
    ]


def test_a_ctrl_c_while_the_runner_starts_is_acted_on_once_it_has():
    """A Ctrl-C that comes while the runner's own modules are imported is held until they
    are, then stops the command as any other: raised inside an import, it could leave a
    module half made (pydantic_core panicked over a half-imported datetime) and showed a
    traceback instead of the one line."""
    before = (
        "real = entry._without_plugin_loader\n"
        "def interrupted_while_starting():\n"
        "    os.kill(os.getpid(), signal.SIGINT)  # after run() began, before any import\n"
        "    real()\n"
        "entry._without_plugin_loader = interrupted_while_starting\n"
    )
    done = entry_point(["list", "--lang", "en"], before=before)
    assert done.returncode == 130, done.stderr[-2000:]
    assert done.stderr.splitlines() == [
        "interrupted; files listed as written are complete, and none is half-written"
    ]
    assert "23-design-tradeoffs" not in done.stdout  # stopped before it did the work


@pytest.mark.parametrize("signal_name", ["SIGINT", "SIGTERM"])
def test_a_signal_after_the_command_finished_leaves_its_exit_code(signal_name):
    """Once the command has done its work and said so, a late signal (while the interpreter
    shuts down) changes nothing: the command's own exit code, nothing more on stderr (it was
    a traceback, or a death by the signal with nothing said: -2, -15)."""
    before = (
        "import atexit, time\n"
        "def late():\n"
        f"    os.kill(os.getpid(), signal.{signal_name})\n"
        "    time.sleep(0.2)\n"
        "atexit.register(late)\n"
    )
    done = entry_point(["list", "--lang", "en"], before=before)
    assert (done.returncode, done.stderr) == (0, "")
    assert "23-design-tradeoffs" in done.stdout


def test_saying_an_interruption_keeps_nothing_of_it_alive(capsys):
    """The interruption said (and one Python swallowed in a finalizer) is remembered as a
    flag, not as the exception: its traceback held every frame it passed, and so a fault
    run's process pool, until the interpreter tore its modules down; the pool's finalizer
    then failed ("Exception ignored in ... weakref_cb") after the "interrupted" line."""
    import types
    import weakref

    from runner import cli
    from runner.i18n import catalog

    class Held:
        """Stands for the pool a frame of the interrupted run holds."""

    refs: list[weakref.ref[Held]] = []

    def interrupted_here(kind: type[KeyboardInterrupt]) -> None:
        held = Held()  # a local of a frame the traceback keeps
        refs.append(weakref.ref(held))
        raise kind

    try:
        for kind in (cli.Terminated, KeyboardInterrupt):
            try:
                interrupted_here(kind)
            except KeyboardInterrupt as exc:
                assert cli.interrupted(exc, catalog("en")) == (
                    143 if kind is cli.Terminated else 130
                )
            try:
                interrupted_here(kind)
            except KeyboardInterrupt as exc:
                info = types.SimpleNamespace(exc_value=exc)
                cli._kept_interruptions(info)
                del info
        assert [r() for r in refs] == [None] * 4
        assert [type(e) for e in cli._SWALLOWED] == [cli.Terminated, KeyboardInterrupt]
    finally:
        cli._SAID.clear()
        cli._SWALLOWED.clear()
    assert capsys.readouterr().err.count("interrupted") == 1


def test_a_process_a_cut_short_cleanup_left_does_not_hold_the_exit():
    """A second Ctrl-C that lands while the first one's cleanup runs can leave a learner's
    worker unkilled; multiprocessing then joined it at exit, for ever (a sweep of double
    Ctrl-Cs over learners' runs hung 2 in 30). Once the command has returned, what it
    started is ended: the run exits with its own code, at once."""
    before = (
        "import multiprocessing, time\n"
        "left = multiprocessing.get_context('fork').Process(target=time.sleep, args=(600,))\n"
        "left.start()  # not a daemon: multiprocessing waits for it at exit\n"
    )
    after = "print('left alive' if left.is_alive() else 'left ended', flush=True)"
    started = time.monotonic()
    done = entry_point(["list", "--lang", "en"], before=before, after=after)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-1] == "left ended"
    assert time.monotonic() - started < 60


def test_a_pool_a_cut_short_stop_left_reading_half_a_result_does_not_hold_the_exit():
    """Ctrl-C then SIGTERM: the second cut the pool's stopping short, and its manager thread
    lived on, reading half a result a killed worker had sent ("Bad file descriptor" from
    Python's exit hook, 2 in 40 such runs, or a hang for ever). Once the command has
    returned, such a thread is ended and joined: the run exits with its own code, at once."""
    before = (
        "import multiprocessing, struct, time\n"
        "from concurrent.futures import ProcessPoolExecutor\n"
        "def half(writer, said):\n"
        "    os.write(writer, struct.pack('!i', 1 << 20) + b'\\x80')\n"
        "    os.write(said, b'!')\n"
        "    time.sleep(600)\n"
        "pool = ProcessPoolExecutor(1, multiprocessing.get_context('fork'))\n"
        "started, said = os.pipe()\n"
        "pool.submit(half, pool._result_queue._writer.fileno(), said)\n"
        "os.read(started, 1)\n"
        "manager = pool._executor_manager_thread\n"
    )
    after = "print('alive' if manager.is_alive() else 'ended', flush=True)"
    done = entry_point(["list", "--lang", "en"], before=before, after=after, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[-1] == "ended"


def test_a_pool_thread_that_never_ends_does_not_hold_the_exit():
    """Python 3.11's pool manager has been seen spinning for ever on workers already gone,
    after a double Ctrl-C in the first milliseconds of a validation's pool; the interpreter
    waits for it at exit. A command that has done its work exits with its own code, after
    a few seconds at most."""
    before = (
        "import threading\n"
        "from concurrent.futures import process\n"
        "stuck = threading.Thread(target=threading.Event().wait)  # a manager without end\n"
        "stuck.start()\n"
        "process._threads_wakeups[stuck] = process._ThreadWakeup()\n"
        "entry.THREADS_S = 0.5  # not the 5 s a real pool's thread gets\n"
    )
    done = entry_point(["list", "--lang", "en"], before=before, timeout=60)
    assert (done.returncode, done.stderr) == (0, "")
    assert "23-design-tradeoffs" in done.stdout


def test_report_says_when_it_leaves_the_figures_out_and_refuses_a_missing_claims_folder(
    cli, tmp_path, evidence_doc, monkeypatch
):
    """A pack written from the docs found both: a report made where the module's pack could
    not be found had no figures and said nothing, and `--claims /nonexistent` was taken."""
    pytest.importorskip("matplotlib")
    evidence = tmp_path / "ev.json"
    evidence.write_text(json.dumps(evidence_doc), encoding="utf-8")
    page = str(tmp_path / "r.html")
    missing = cli("report", str(evidence), "--html", page, "--claims", str(tmp_path / "none"))
    assert (missing.code, missing.err) == (
        2,
        f"error: {tmp_path / 'none'}: no such file or directory\n",
    )
    assert not Path(page).exists()
    # elsewhere than the course, with an evidence of a pack named by path: no pack to draw with
    doc = {**evidence_doc, "claim_pack": {**evidence_doc["claim_pack"], "pack": "./pack"}}
    evidence.write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    done = cli("report", str(evidence), "--html", page)
    assert done.code == 0, done.err
    assert done.out.splitlines()[0] == (
        f"figures left out: the pack of module {MODULE.name} was not found "
        "(--claims names the folder of the course's claims)"
    )
    with_claims = cli("report", str(evidence), "--html", page, "--claims", str(CLAIMS))
    assert with_claims.code == 0 and "figures left out" not in with_claims.out
