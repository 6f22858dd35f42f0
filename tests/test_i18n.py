"""Both languages, everywhere: one catalogue per language, every message in both, plural
forms where counts are shown, and no language held as global state."""

from __future__ import annotations

import ast
import json
import re
import string
from pathlib import Path

import pytest

from runner import i18n
from runner.i18n import LANGS, Msg, catalog, resolve_language
from tests.conftest import CLAIMS, ROOT

pytest_plugins = ("pytester",)
LOCALES = ROOT / "runner" / "locales"
CJK = re.compile(r"[\u3400-\u9fff]")
CODE = re.compile(r"[a-z_]+(\.[a-z0-9_]+)+|[a-z_]+")
# codes built from a prefix at run time (status.<status>, help.<command>, pydantic.<type>, ...)
FAMILIES = (
    "status.",
    "impl.",
    "help.",
    "pydantic.",
    "problem.",
    "html.",
    "load.",
    "judge.",
    "feedback.verdict.",
    "feedback.kind.",
    "list.visibility.",
)
# entries that are the same in both languages: notation, not words
LANGUAGE_NEUTRAL = {"use.argument"}


def entries(lang: str) -> dict:
    return json.loads((LOCALES / f"{lang}.json").read_text("utf-8"))


def fields(template: str | dict) -> set[str]:
    forms = template.values() if isinstance(template, dict) else [template]
    return {
        name.split(".")[0].split("[")[0]
        for form in forms
        for _, name, _, _ in string.Formatter().parse(form)
        if name
    }


def test_both_catalogues_have_the_same_messages_with_the_same_fields():
    zh, en = entries("zh"), entries("en")
    assert sorted(zh) == sorted(en)
    for code in zh:
        assert fields(zh[code]) == fields(en[code]), code


def test_plural_entries_have_exactly_their_forms():
    for lang in LANGS:
        for code, entry in entries(lang).items():
            if isinstance(entry, dict):  # chosen by the parameter n, shown or not
                assert set(entry) == {"one", "other"}, (lang, code)


def test_english_counts_are_plural_aware():
    words = catalog("en")
    assert words("validate.problems", n=1) == "1 problem"
    assert words("validate.problems", n=2) == "2 problems"
    assert words("validate.problems", n=12345) == "12,345 problems"
    assert catalog("zh")("validate.problems", n=1) == "1 个问题"


def test_every_chinese_message_is_chinese():
    for code, entry in entries("zh").items():
        forms = entry.values() if isinstance(entry, dict) else [entry]
        for form in forms:
            words = re.sub(r"\{[^}]*\}", "", form)
            if code in LANGUAGE_NEUTRAL or not re.search("[A-Za-z]{4,}", words):
                continue
            assert CJK.search(words), (code, form)


def codes_in_source() -> dict[str, str]:
    """Every message code the code names literally, and where."""
    found: dict[str, str] = {}
    callers = {
        "msg",
        "of",
        "UsageError",
        "EvidenceError",
        "BoundaryError",
        "LoadFailure",
        "words",
        "_problem",
        "say",
        "Msg",
    }
    for path in [*ROOT.joinpath("runner").rglob("*.py"), *ROOT.joinpath("checks").rglob("*.py")]:
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            first = node.args[0]
            literal = isinstance(first, ast.Constant) and isinstance(first.value, str)
            if name in callers and literal and CODE.fullmatch(first.value):
                found.setdefault(first.value, str(path.relative_to(ROOT)))
    return found


def test_every_message_the_code_names_exists_in_both_languages():
    en = entries("en")
    missing = {code: where for code, where in codes_in_source().items() if code not in en}
    assert missing == {}


def test_no_catalogue_entry_is_dead():
    used = set(codes_in_source())
    text = "\n".join(p.read_text("utf-8") for p in ROOT.joinpath("runner").rglob("*.py"))
    dead = [
        code
        for code in entries("en")
        if code not in used
        and not code.startswith(FAMILIES)
        and f'"{code}"' not in text
        and not code.startswith(("sub.", "yaml.", "validate.", "use."))  # the validate rooms
    ]
    assert dead == []


def test_the_language_is_never_global():
    """No module keeps a current language: every renderer is given its words."""
    assert not hasattr(i18n, "set_language") and not hasattr(i18n, "language")
    for path in ROOT.joinpath("runner").rglob("*.py"):
        text = path.read_text("utf-8")
        assert "LEARN_LLM_LANG" not in text or path.name in ("i18n.py", "pytest_plugin.py"), path


@pytest.mark.parametrize(
    ("choice", "env", "lang"),
    [
        ("en", {"LEARN_LLM_LANG": "zh"}, "en"),
        (None, {"LEARN_LLM_LANG": "en_US"}, "en"),
        (None, {"LANG": "zh_CN.UTF-8"}, "zh"),
        (None, {"LC_ALL": "en_GB.UTF-8", "LANG": "zh_CN"}, "en"),
        (None, {}, "zh"),
        ("fr", {}, "zh"),
    ],
)
def test_the_language_comes_from_the_command_then_the_environment(choice, env, lang):
    assert resolve_language(choice, env) == lang


def test_messages_are_data_until_shown():
    message = Msg("judge.outside", {"bad": 1, "n": 3, "first": 2})
    assert Msg.from_data(message.as_data()) == message
    assert catalog("en").say(message) == "1 of 3 elements outside (first at index 2)"
    assert catalog("zh").say(message) == "3 个元素中 1 个超出，第一个在索引 2"


def test_nested_messages_render_in_the_same_language():
    hint = Msg("claim.closest", {"names": "top_k_support"})
    outer = Msg("claim.unknown_check", {"check": "top_k_suport", "hint": hint})
    assert catalog("en").say(outer) == "unknown check 'top_k_suport'; closest: top_k_support"
    assert "最接近" in catalog("zh").say(outer)


def test_help_is_for_users_in_their_language(cli):
    en = cli("--help", "--lang", "en")
    assert en.code == 0
    assert "judge a whole class" in en.out and "exit codes" in en.out
    zh = cli("run", "--help", "--lang", "zh")
    assert zh.code == 0 and "学习者代码每条断言可用的 CPU 秒数" in zh.out


def test_pytest_claims_follow_learn_llm_lang(pytester, monkeypatch):
    """`LEARN_LLM_LANG=en pytest claims/` prints English failure text (it was Chinese)."""
    import shutil

    from tests.conftest import MODULE, partial_module_yaml

    module = pytester.path / "claims" / "demo"
    module.mkdir(parents=True)
    (module / "module.yaml").write_text(partial_module_yaml(), encoding="utf-8")
    shutil.copy(MODULE / "chapter.zh.txt", module / "chapter.zh.txt")
    text = (MODULE / "7-top-k.yaml").read_text(encoding="utf-8").replace("value: 2\n", "value: 3\n")
    (module / "7-top-k.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("LEARN_LLM_LANG", "en")
    result = pytester.runpytest("claims/")
    result.stdout.fnmatch_lines(["*kept: expected = 3, actual 2*"])
    monkeypatch.setenv("LEARN_LLM_LANG", "zh")
    result = pytester.runpytest("claims/")
    result.stdout.fnmatch_lines(["*kept：期望 = 3，实际 2*"])


def test_locale_files_are_package_data():
    text = (ROOT / "pyproject.toml").read_text("utf-8")
    assert 'runner = ["locales/*.json"' in text
    assert Path(i18n.__file__).parent.joinpath("locales", "zh.json").is_file()


def test_the_systems_reasons_are_in_the_readers_language(cli, tmp_path):
    """strerror is English only: a common reason (here ENOTDIR) is a message of ours."""
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    out = str(blocker / "ev")
    zh = cli("run", str(CLAIMS), "--out", out, "--lang", "zh")
    en = cli("run", str(CLAIMS), "--out", out, "--lang", "en")
    assert (zh.code, en.code) == (2, 2)
    assert zh.err.splitlines()[-1].endswith("无法写入：路径中有一部分不是目录")
    assert en.err.splitlines()[-1].endswith("cannot write: a part of the path is not a directory")
    assert "Not a directory" not in zh.err


def test_lang_given_before_the_command_is_the_commands(cli):
    """An outside pack author wrote `python -m runner --lang zh run`: it was read as a command
    named zh (exit 2). It means what `run ... --lang zh` means; alone it asks for a command."""
    first = cli("--lang", "zh", "inject", "--list")
    last = cli("inject", "--list", "--lang", "zh")
    assert first.code == last.code == 0 and first.out == last.out
    assert cli("--lang=en", "inject", "--list").out == cli("inject", "--list", "--lang", "en").out
    alone = cli("--lang", "zh")
    assert alone.code == 2 and "缺少：COMMAND" in alone.err


@pytest.mark.parametrize(
    ("text", "zh", "en"),
    [
        ("", "这里应当是一个值", "a value was expected"),
        ('{"a" 1}', "这里应当是 ':'", "':' was expected"),
        ('{"a": 1} x', "JSON 值后面还有多余的内容", "more text after the JSON value"),
        ('{"a": "b', "字符串没有结束", "a string is not closed"),
    ],
)
def test_why_a_text_is_not_json_is_said_in_the_readers_language(text, zh, en):
    """Python's json module says why in English; a Chinese run said 不是有效的 JSON：Expecting
    value (an outside pack author's report)."""
    import json

    from runner.i18n import catalog, json_reason

    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        reason = json_reason(exc)
    assert catalog("zh").say(reason) == zh and catalog("en").say(reason) == en


@pytest.mark.parametrize("unit", ["MiB", "ratio", "bytes", "log10"])
def test_a_values_unit_never_reaches_the_counts_and_indices_beside_them(unit):
    """A failing list measure with ``unit: ratio`` read "3.000× of 3.000× elements outside;
    first at index 0.000×" (found by a pack author, 2026-12-07): the unit is the values'."""
    for lang, said in (("en", "1,200 of 5,000 elements outside; first at index 4: "),
                       ("zh", "5,000 个元素中 1,200 个超出；第一个在索引 4：")):  # fmt: skip
        line = catalog(lang)(
            "judge.outside_at", bad=1200, n=5000, first=4, expected=0.5, got=0.25, unit=unit
        )
        assert line.startswith(said), line
        assert catalog(lang)("judge.outside", bad=2, n=3, first=0, unit=unit) in (
            "2 of 3 elements outside (first at index 0)",
            "3 个元素中 2 个超出，第一个在索引 0",
        )
