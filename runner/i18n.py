"""The runner's words in both of the course's languages.

The language is chosen once per command (``--lang``, else ``LEARN_LLM_LANG``, else the
locale, else Chinese). Only words change: JSON paths, ids, file names and numbers are the
same in both languages. Evidence files never depend on the language.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # only for annotations: the words must not wait for the models to build
    from runner.models import Text

Lang = Literal["zh", "en"]
LANGS: tuple[Lang, ...] = ("zh", "en")
_current: list[Lang] = ["zh"]


def default_language() -> Lang:
    """``LEARN_LLM_LANG``, then the locale variables; Chinese when none says otherwise."""
    for var in ("LEARN_LLM_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "").lower()
        if value.startswith("zh"):
            return "zh"
        if value.startswith("en"):
            return "en"
    return "zh"


def set_language(lang: Lang) -> None:
    _current[0] = lang


def language() -> Lang:
    return _current[0]


def pick(text: Text) -> str:
    """A bilingual text in the current language."""
    return text.zh if language() == "zh" else text.en


def t(message_id: str, /, **values: object) -> str:
    """The message ``message_id`` in the current language, filled with ``values``."""
    entry = CATALOG[message_id]
    return entry[0 if language() == "zh" else 1].format(**values)


def plural(n: int, word: str) -> str:
    """'1 problem' / '2 problems' in English; Chinese has no plural."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


# key: (Chinese, English)
CATALOG: dict[str, tuple[str, str]] = {
    # statuses
    "status.passed": ("通过", "passed"),
    "status.failed": ("失败", "FAILED"),
    "status.error": ("出错", "ERROR"),
    "status.skipped": ("跳过", "skipped"),
    "status.survived": ("漏网", "SURVIVED"),
    "status.caught": ("已捕获", "caught"),
    # implementations
    "impl.reference": ("参考实现", "the reference implementation"),
    "impl.fault": ("故障 {name}", "fault {name}"),
    "impl.learner": ("学习者文件 {name}", "learner file {name}"),
    # run
    "run.expected_actual": (
        "{name}：期望 {expected}，实际 {actual}",
        "{name}: expected {expected}, actual {actual}",
    ),
    "run.totals": ("通过 {passed}，失败 {failed}", "{passed} passed, {failed} failed"),
    "run.totals.errors": ("，出错 {n}", ", {n} error{s}"),
    "run.totals.skipped": ("，跳过 {n}", ", {n} skipped"),
    "run.wrote": ("已写入 {path}", "wrote {path}"),
    "run.no_drift": (
        "无漂移：已提交的证据与本次运行一致",
        "no drift: the committed evidence matches this run",
    ),
    "run.drift": ("漂移：{line}", "drift: {line}"),
    "run.drift_more": ("漂移：……另有 {n} 处", "drift: ... and {n} more"),
    "run.not_written.git": (
        "未写入证据：没有任何 git 提交包含被测文件（不是 git 仓库，或尚未提交）",
        "evidence not written: no git commit holds the measured files "
        "(not a git checkout, or nothing committed yet)",
    ),
    "run.not_written.partial": (
        "未写入证据：只运行了部分声明（-k 或单个文件）",
        "evidence not written: only some claims ran (-k or single files)",
    ),
    "run.no_evidence": ("没有已提交的证据", "no committed evidence"),
    # claim files
    "claims.problems": (
        "声明文件中有 {n} 个问题；没有运行，也没有写入任何文件",
        "{n} problem{s} in claim files; nothing was run or written",
    ),
    "error": ("错误：{message}", "error: {message}"),
    "interrupted": ("已中断；没有写入任何文件", "interrupted; nothing was written"),
    # inject
    "fault.header": ("故障 {id} · {title}", "fault {id} · {title}"),
    "fault.replaces": (
        "替换 {module} v{version} 中的 {function}()",
        "replaces {function}() in {module} v{version}",
    ),
    "fault.catcher": ("捕获者", "catcher"),
    "fault.also_broke": ("也被打破", "also broke"),
    "fault.expected_signal": ("本章预期信号：{signal}", "chapter's signal: {signal}"),
    "fault.observed_signal": ("实测信号：", "observed signal:"),
    "fault.differs_yaml": ("与 faults.yaml 不符：{detail}", "differs from faults.yaml: {detail}"),
    "fault.differs_chapter": ("与正文不同：{text}", "differs from the chapter: {text}"),
    "fault.caught": (
        "已捕获：全部 {n} 个捕获者都失败了（{catchers}）",
        "caught: all {n} catchers broke ({catchers})",
    ),
    "fault.survived": (
        "漏网：{n} 个捕获者中有 {k} 个在故障下仍然通过（{survivors}）；这些声明发现不了这个错误",
        "SURVIVED: {k} of {n} catchers still pass under the fault ({survivors}); "
        "the claims would not notice this mistake",
    ),
    "fault.summary_header": (
        "{module} v{version} · 故障注入",
        "{module} v{version} · fault injection",
    ),
    "fault.breaks": ("打破 {claims}", "breaks {claims}"),
    "fault.breaks_nothing": ("什么也没打破", "breaks nothing"),
    "fault.still_passing": ("仍然通过：{claims}", "still passing: {claims}"),
    "fault.score": (
        "得分：{total} 个故障中捕获 {caught} 个",
        "score: {caught}/{total} faults caught",
    ),
    "fault.list_replaces": (
        "替换 {function}()；捕获者：{catchers}",
        "replaces {function}(); caught by {catchers}",
    ),
    # list
    "list.claims": ("声明（{n}）：", "claims ({n}):"),
    "list.faults": ("故障（{n}）：", "faults ({n}):"),
    # validate
    "validate.valid": ("{file}：有效", "{file}: valid"),
    "validate.invalid": ("{file}：无效（{n} 个问题）", "{file}: invalid ({n} problem{s})"),
    "validate.summary": (
        "共 {n} 份提交：{valid} 份有效，{invalid} 份无效",
        "{n} submissions: {valid} valid, {invalid} invalid",
    ),
    "validate.progress": ("已验证 {n}/{total}", "{n}/{total} validated"),
    # submission problems (the JSON path is printed before each, unchanged)
    "sub.read": ("无法读取文件：{reason}", "cannot read the file: {reason}"),
    "sub.not_regular": ("不是普通文件", "not a regular file"),
    "sub.size": (
        "文件有 {size} 字节；上限是 {limit}",
        "file is {size} bytes; the limit is {limit}",
    ),
    "sub.not_mapping": (
        "应为映射（证据模板），实际是{kind}",
        "expected a mapping (the evidence template), got {kind}",
    ),
    "sub.placeholder": ("未填写的占位符 {placeholder}", "unfilled placeholder {placeholder}"),
    "sub.nonfinite": ("{value} 不是有限数", "{value} is not a finite number"),
    "sub.unknown_module": (
        "未知模块 {module!r}（已知：{known}）",
        "unknown module {module!r} (known: {known})",
    ),
    "sub.duplicate_metric": (
        "重复的指标 {name!r}（另见 {other}）",
        "duplicate metric {name!r} (also {other})",
    ),
    "sub.unknown_metric": (
        "{module} v{version} 没有指标 {name!r}",
        "unknown metric {name!r} for {module} v{version}",
    ),
    "sub.no_metrics": (
        "没有指标：证据至少需要一个实测值",
        "no metrics: evidence needs at least one measured value",
    ),
    "sub.expected": (
        "{value} 不是声明包的期望值 {expected}（{version}，声明 {claim}）",
        "{value} is not the claim pack's expectation {expected} ({version}, claim {claim})",
    ),
    "sub.nan_actual": ("NaN 或无穷大永远不能通过声明", "NaN or infinity never passes a claim"),
    "sub.outside": ("{actual} 超出 {expected}{why}", "{actual} is outside {expected}{why}"),
    "sub.challenge_missing": (
        "缺失：本次验证的 nonce 是 {nonce!r}",
        "missing: this validation's nonce is {nonce!r}",
    ),
    "sub.challenge_other": (
        "{nonce!r} 是另一次挑战的 nonce；本次验证的是 {expected!r}",
        "{nonce!r} is another challenge's nonce; this validation's is {expected!r}",
    ),
    "sub.challenge_metric": ("缺少挑战指标 {name!r}", "challenge metric {name!r} is missing"),
    "sub.commit": ("{commit} 不是 {repo} 中的提交", "{commit} is not a commit in {repo}"),
    "sub.time_format": (
        "{value!r} 不是 ISO 8601 日期或时间",
        "{value!r} is not an ISO 8601 date or time",
    ),
    "sub.future": ("{value} 在未来", "{value} is in the future"),
    "sub.env_key": (
        "{key!r} 指向用户、主机或目录；请删去",
        "{key!r} names a user, host or directory; leave it out",
    ),
    "sub.env_path": (
        "{value!r} 含有路径；环境信息必须脱敏",
        "{value!r} contains a path; environment must be sanitized",
    ),
    "sub.env_email": (
        "{value!r} 含有电子邮件地址；环境信息必须脱敏",
        "{value!r} contains an e-mail address; environment must be sanitized",
    ),
    "sub.env_host": (
        "{value!r} 像是主机名；环境信息必须脱敏",
        "{value!r} looks like a host name; environment must be sanitized",
    ),
    "sub.artifact_nul": ("含有 NUL 字节", "contains a NUL byte"),
    "sub.artifact_absolute": (
        "{item!r} 是绝对路径；产物应是相对仓库的路径",
        "{item!r} is absolute; artifacts are paths relative to the repository",
    ),
    "sub.artifact_escape": ("{item!r} 离开了仓库", "{item!r} leaves the repository"),
    "sub.artifact_symlink": (
        "{item!r} 是指向仓库之外的符号链接",
        "{item!r} is a symlink that points outside the repository",
    ),
    "sub.artifact_not_file": (
        "{item!r} 不是文件；产物是这次运行写出的文件",
        "{item!r} is not a file; artifacts are files the run wrote",
    ),
    "sub.artifact_git": (
        "{item!r} 在 .git 里面，不是产物",
        "{item!r} is inside .git, not an artifact",
    ),
    "sub.artifact_missing": ("仓库中不存在 {item!r}", "{item!r} does not exist in the repository"),
    "sub.claim_status": ("声明 {claim} {status}{why}", "claim {claim} {status}{why}"),
    "sub.not_utf8": ("不是 UTF-8 文本（第 {byte} 字节）", "not UTF-8 text (byte {byte})"),
    "sub.json_syntax": (
        "第 {line} 行：不是有效的 JSON：{message}",
        "line {line}: not valid JSON: {message}",
    ),
    "sub.too_deep": ("嵌套太深", "nesting is too deep"),
    "sub.duplicate_key": ("重复的键 {key!r}", "duplicate key {key!r}"),
    "sub.yaml_line": ("第 {line} 行：{message}", "line {line}: {message}"),
    # claim files
    "claim.no_files": ("模块里没有声明文件", "no claim files in module"),
    "claim.missing": ("缺失（必填）", "missing (required)"),
    "claim.unknown_key": (
        "未知的键（不属于格式；请检查拼写）",
        "unknown key (not part of the format; check the spelling)",
    ),
    "claim.bad_kind": ("kind {kind!r} 不是 {kinds} 之一", "kind {kind!r} is not one of {kinds}"),
    "claim.no_kind": (
        "需要 kind：'exact'、'close'、'range'、'raises' 之一",
        "needs a kind: one of 'exact', 'close', 'range', 'raises'",
    ),
    "claim.not_mapping": ("应为映射，实际是 {got}", "expected a mapping, got {got}"),
    "claim.pattern": ("{got!r} 不符合 {pattern}", "{got!r} does not match {pattern}"),
    "claim.too_short": ("至少需要 {n} 项，实际是 {got}", "needs at least {n} {entries}, got {got}"),
    "claim.metric_twice": (
        "指标 {metric!r} 也被声明 {other} 使用",
        "metric {metric!r} is also named by claim {other}",
    ),
    "claim.not_exception": (
        "{error!r} 不是内置异常类型{hint}",
        "{error!r} is not a built-in exception type{hint}",
    ),
    "claim.did_you_mean": ("未知的键；是否想写 {key!r}？", "unknown key; did you mean {key!r}?"),
    "claim.no_inputs": ("没有输入", "no inputs"),
    "claim.cannot_read": ("无法读取：{reason}", "cannot read: {reason}"),
    "claim.top_not_mapping": ("{empty}顶层应为映射", "{empty}expected a mapping at the top"),
    "claim.empty_file": ("文件是空的；", "the file is empty; "),
    "fault.duplicate_id": ("重复的故障 id", "duplicate fault id"),
    "fault.no_twin": (
        "没有以此 id 注册的错误实现{hint}",
        "no broken twin is registered under this id{hint}",
    ),
    "fault.wrong_subject": (
        "该错误实现替换的是 {twin}()，不是 {declared}()",
        "the twin replaces {twin}(), not {declared}()",
    ),
    "fault.no_claim": (
        "模块 {module} 中没有声明 {claim!r}",
        "no claim {claim!r} in module {module}",
    ),
    "fault.no_measure": (
        "检查 {check} 不返回测量 {measure!r}",
        "check {check} returns no measurement {measure!r}",
    ),
    "fault.bad_ref": ("{ref} 不是本模块的任何测量", "{ref} names no measurement of the module"),
    "problem.claim": ("声明", "claim"),
    "fault.measured_no": ("{claim} 没有测出 {measure}", "{claim} measured no {measure}"),
    # why a measurement failed (the evidence keeps the English)
    "run.detail": ("（{detail}）", " ({detail})"),
    "judge.returned": ("却返回了 {value}", "returned {value}"),
    "judge.raises": ("应抛出 {error}，{got}", "expected to raise {error}, {got}"),
    "judge.list": ("应为列表", "expected a list"),
    "judge.single": ("应为单个值", "expected a single value"),
    "judge.length": ("应有 {n} 个元素，实际 {got} 个", "expected {n} elements, got {got}"),
    "judge.at_index": ("索引 {i} 处：{inner}", "at index {i}: {inner}"),
    "judge.outside": (
        "{n} 个元素中 {bad} 个超出，第一个在索引 {first}",
        "{bad} of {n} elements outside (first at index {first})",
    ),
    "judge.outside_at": (
        "{n} 个元素中 {bad} 个超出；第一个在索引 {first}：应为 {expected}，实际 {got}",
        "{bad} of {n} elements outside; first at index {first}: expected {expected}, got {got}",
    ),
    "problem.fault": ("故障", "fault"),
    # the tolerance rules of runner.models
    "tol.close_bound": (
        "close 容差需要 abs、rel 或两者",
        "a close tolerance needs abs, rel or both",
    ),
    "tol.finite_bound": ("{name} 必须是有限数且 >= 0", "{name} must be finite and >= 0"),
    "tol.range_bound": (
        "range 容差需要 min、max 或两者",
        "a range tolerance needs min, max or both",
    ),
    "tol.range_order": ("min {min} 大于 max {max}", "min {min} is greater than max {max}"),
    "tol.range_finite": ("range 的边界必须是有限数", "range bounds must be finite"),
    "tol.no_value": ("{kind} 容差不接受 value", "a {kind} tolerance takes no value"),
    "tol.needs_value": ("{kind} 容差需要 value", "an {kind} tolerance needs a value"),
    "tol.close_value": (
        "close 容差需要一个有限数或由有限数组成的列表",
        "a close tolerance needs a finite number or a list of them",
    ),
    "tol.per_element": (
        "tolerance.{name} 需要与 value 的元素一一对应",
        "tolerance.{name} has one entry per element of value",
    ),
    # pydantic's own errors, as claim files meet them: in English its words ({msg}), as before
    "pydantic.string_type": ("应为字符串，实际是 {got}", "{msg}, got {got}"),
    "pydantic.string_too_short": ("不能为空，实际是 {got}", "{msg}, got {got}"),
    "pydantic.int_type": ("应为整数，实际是 {got}", "{msg}, got {got}"),
    "pydantic.int_parsing": ("应为整数，实际是 {got}", "{msg}, got {got}"),
    "pydantic.int_from_float": ("应为整数（不能有小数部分），实际是 {got}", "{msg}, got {got}"),
    "pydantic.float_type": ("应为数字，实际是 {got}", "{msg}, got {got}"),
    "pydantic.float_parsing": ("应为数字，实际是 {got}", "{msg}, got {got}"),
    "pydantic.finite_number": ("应为有限数，实际是 {got}", "{msg}, got {got}"),
    "pydantic.bool_type": ("应为 true 或 false，实际是 {got}", "{msg}, got {got}"),
    "pydantic.bool_parsing": ("应为 true 或 false，实际是 {got}", "{msg}, got {got}"),
    "pydantic.list_type": ("应为列表，实际是 {got}", "{msg}, got {got}"),
    "pydantic.literal_error": ("应为 {expected} 之一，实际是 {got}", "{msg}, got {got}"),
    "pydantic.greater_than_equal": ("应 >= {ge}，实际是 {got}", "{msg}, got {got}"),
    "pydantic.greater_than": ("应 > {gt}，实际是 {got}", "{msg}, got {got}"),
    "claim.duplicate_id": (
        "重复的声明 id（首次出现在 {where}）",
        "duplicate claim id (first in {where})",
    ),
    "claim.closest": ("；最接近的：{names}", "; closest: {names}"),
    "claim.unknown_check": ("未知检查 {check!r}{hint}", "unknown check {check!r}{hint}"),
    "claim.unknown_measure": (
        "检查 {check} 不返回测量 {measure!r}；它返回 {measures}",
        "check {check} returns no measurement {measure!r}; it returns {measures}",
    ),
    "claim.injected_input": (
        "{name!r} 由运行器提供，不由声明提供",
        "{name!r} is supplied by the runner, not the claim",
    ),
    "claim.unknown_input": (
        "检查 {check} 没有输入 {name!r}（它接受 {expected}）",
        "check {check} takes no input {name!r} (it takes {expected})",
    ),
    "claim.missing_input": ("缺失；检查 {check} 需要它", "missing; check {check} requires it"),
    "claim.input_type": ("应为 {type}，实际是 {got!r}", "expected {type}, got {got!r}"),
    # YAML
    "yaml.size": (
        "文件有 {size} 字节；上限是 {limit}",
        "file is {size} bytes; the limit is {limit}",
    ),
    "yaml.syntax": ("YAML 语法错误：{what}", "YAML syntax error: {what}"),
    "yaml.too_deep": ("嵌套太深", "nesting is too deep"),
    "yaml.tag": ("不允许标签 {tag}（只接受纯数据）", "tag {tag} is not allowed (plain data only)"),
    "yaml.cycle": (
        "别名指向包含它的节点（循环）",
        "an alias refers to the node that contains it (a cycle)",
    ),
    "yaml.expands": (
        "文档展开后超过 {n} 个值（别名？）",
        "the document expands to more than {n} values (aliases?)",
    ),
    "yaml.duplicate_key": (
        "重复的键 {key!r}（首次在第 {first} 行）",
        "duplicate key {key!r} (first on line {first})",
    ),
    # usage
    "use.no_such_path": ("{path}：没有这个文件或目录", "{path}: no such file or directory"),
    "use.not_claim_file": ("{path}：不是声明文件（*.yaml）", "{path}: not a claim file (*.yaml)"),
    "use.no_module_beside": ("{path}：旁边没有 module.yaml", "{path}: no module.yaml beside it"),
    "use.no_module_in": (
        "{path}：里面没有模块（module.yaml）",
        "{path}: no module (module.yaml) in it",
    ),
    "use.no_match": ("没有声明匹配 -k {pattern!r}", "no claim matches -k {pattern!r}"),
    "use.unknown_fault": (
        "未知故障 {fault!r}；可用的（最接近的在前）：{valid}",
        "unknown fault {fault!r}; valid (closest first): {valid}",
    ),
    "use.unknown_module": (
        "未知模块 {module!r}；已有模块：{modules}",
        "unknown module {module!r}; modules: {modules}",
    ),
    "use.no_submissions": (
        "没有要验证的 *.yaml、*.yml 或 *.json 文件",
        "no *.yaml, *.yml or *.json files to validate",
    ),
    # report
    "report.wrote": ("已写入 {path}", "wrote {path}"),
}
