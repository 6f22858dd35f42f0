"""`validate` against the adversarial tester's findings: hostile repositories (pack bombs,
dangling commits, unreadable files), misuse that once passed (``--repo ""``, a JUnit report
over a submission), interrupts, and text shown escaped once."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from runner.i18n import catalog
from runner.load import load_packs
from tests.conftest import MODULE, ROOT, partial_module_yaml
from tests.test_boundary import _descendants
from tests.test_validate_submissions import (
    ARTIFACT,
    GOOD_YAML,
    LEARNER_HEAD,
    MODULE_ID,
    PARAMS,
    SUPPORT,
    git,
    good_data,
    learner_repo,
    submit,
    validate,
)


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """As in test_validate_submissions: the learner's repository ``repo/`` in the current
    directory (its commit is LEARNER_HEAD)."""
    learner_repo(tmp_path, "repo")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_an_empty_repo_is_misuse_not_the_current_directory(cli, work):
    (work / "sub.yaml").write_text(GOOD_YAML, encoding="utf-8")

    result = validate(cli, "sub.yaml", "--repo", "")

    assert (result.code, result.out) == (2, "")
    assert result.err == "error: --repo: an empty path names no repository\n"


def test_a_junit_report_never_overwrites_a_submission(cli, work):
    sub = work / "sub.yaml"
    sub.write_text(GOOD_YAML, encoding="utf-8")
    (work / "link.xml").symlink_to(sub)

    for target in ("sub.yaml", "./sub.yaml", str(sub), "link.xml"):
        result = validate(cli, "sub.yaml", "--junit-xml", target)

        assert (result.code, result.out) == (2, "")
        assert "is one of this command's inputs" in result.err
        assert sub.read_text(encoding="utf-8") == GOOD_YAML


def test_a_junit_report_over_a_file_of_a_folder_is_refused(cli, work):
    (work / "subs").mkdir()
    sub = work / "subs" / "a.yaml"
    sub.write_text(GOOD_YAML, encoding="utf-8")

    result = validate(cli, "subs", "--junit-xml", "subs/a.yaml")

    assert result.code == 2
    assert sub.read_text(encoding="utf-8") == GOOD_YAML
    assert not Path("subs/b.xml").exists()


# -- objects are judged by the size they declare before they are inflated ----------------------
def bomb_commit(size: int) -> tuple[str, bytes]:
    """(the sha, the contents) of a well-formed commit padded with NULs to ``size`` bytes."""
    head = (
        b"tree 4b825dc642cb6eb9a060e54bf8d69288fbccfd4b\n"
        b"author a <a> 0 +0000\ncommitter a <a> 0 +0000\n\n"
    )
    body = head + b"\0" * (size - len(head))
    return hashlib.sha1(b"commit %d\0" % size + body).hexdigest(), body


def write_pack(repo: Path, entries: list[tuple[str, bytes]]) -> None:
    """A pack of (sha, raw entry) at consecutive offsets, and its index."""
    from dulwich.pack import write_pack_index_v2

    data = b"PACK" + struct.pack(">LL", 2, len(entries))
    index = []
    for sha, entry in entries:
        index.append((bytes.fromhex(sha), len(data), zlib.crc32(entry)))
        data += entry
    checksum = hashlib.sha1(data).digest()
    folder = repo / ".git" / "objects" / "pack"
    folder.mkdir(exist_ok=True)
    (folder / "pack-hostile.pack").write_bytes(data + checksum)
    with (folder / "pack-hostile.idx").open("wb") as fh:
        write_pack_index_v2(fh, sorted(index), checksum)


def entry_header(type_num: int, size: int) -> bytes:
    out = bytearray()
    byte = (type_num << 4) | (size & 15)
    size >>= 4
    while size:
        out.append(byte | 0x80)
        byte = size & 0x7F
        size >>= 7
    out.append(byte)
    return bytes(out)


def peak_memory_of(work: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """``validate ARGS`` in a child; (its result, its peak resident memory in bytes)."""
    code = (
        "import sys\n"
        "from runner.cli import main\n"
        "code = main(sys.argv[1:])\n"
        "sys.stdout.flush()\n"
        # VmHWM, not ru_maxrss: Linux carries the parent's high-water mark into a child
        # across vfork and exec, so ru_maxrss reports pytest's own size once it is larger
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')]\n"
        "print(hwm[0].split()[1], file=sys.stderr)\n"
        "sys.exit(code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, "validate", *args, "--claims", str(MODULE)],
        cwd=work,
        env={**os.environ, "PYTHONPATH": str(ROOT), "LEARN_LLM_LANG": "en"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done, int(done.stderr.split()[-1]) * 1024


def test_a_packed_commit_declaring_a_gigabyte_is_refused_before_it_is_inflated(work):
    size = 1 << 30
    sha, _ = bomb_commit(64)  # the name does not matter: the size is judged first
    stream = zlib.compressobj(9)
    compressed = stream.compress(b"\0" * (1 << 24)) * 64 + stream.flush()  # 1 GiB of NULs
    write_pack(work / "repo", [(sha, entry_header(1, size) + compressed)])

    done, peak = peak_memory_of(work, submit(work, sha), "--repo", "repo")

    assert done.stdout.splitlines()[1:] == [
        f"  $.commit: could not check {sha} in repo: a commit object of {size:,} bytes is "
        "beyond the limit for its kind; it was not read"
    ]
    assert done.returncode == 1
    assert peak < 400 << 20


def test_a_packed_commit_whose_stream_outgrows_its_declared_size_is_malformed(work):
    sha, body = bomb_commit(200)
    write_pack(work / "repo", [(sha, entry_header(1, 200) + zlib.compress(body + b"\0" * 10**7))])

    done, peak = peak_memory_of(work, submit(work, sha), "--repo", "repo")

    assert done.stdout.splitlines()[1:] == [
        f"  $.commit: could not check {sha} in repo: an object in its database is malformed "
        "(size-not-as-declared)"
    ]
    assert peak < 400 << 20


def test_a_delta_whose_result_is_a_gigabyte_is_refused(work):
    _, base = bomb_commit(100)
    base_sha = hashlib.sha1(b"commit 100\0" + base).hexdigest()
    # the result: base copied (0x10000 bytes at a time, from offset 0) far beyond the limit
    target = 1 << 30
    delta = bytes([100]) + _varint(target) + b"\x90\x64" * 16  # copy 100 bytes, 16 times
    sha = "ab" * 20
    write_pack(
        work / "repo",
        [
            (base_sha, entry_header(1, 100) + zlib.compress(base)),
            (sha, entry_header(7, len(delta)) + bytes.fromhex(base_sha) + zlib.compress(delta)),
        ],
    )

    done, _ = peak_memory_of(work, submit(work, sha), "--repo", "repo")

    assert done.stdout.splitlines()[1:] == [
        f"  $.commit: could not check {sha} in repo: a commit object of {target:,} bytes is "
        "beyond the limit for its kind; it was not read"
    ]


def test_a_chain_of_deltas_each_rebuilding_a_large_base_is_refused_within_its_budget(work):
    """Each delta within every limit, but 1,024 of them each copying an 8 MiB base: 8 GiB
    rebuilt for one object (an outside attack chained 4,096 deltas on 16 MiB, 10 s per
    commit read, a commit read for each of 200,000 commits walked). The repository's
    rebuilding is bounded: 1 GiB, then the commit cannot be checked."""
    from runner.submission.gitobjects import MAX_BUILT_BYTES

    size = 8 << 20
    base_sha, base = bomb_commit(size)
    copy_all = bytes([0xF0]) + size.to_bytes(3, "little")  # copy 8 MiB from offset 0
    entries = [(base_sha, entry_header(1, size) + zlib.compress(base))]
    offsets = [0]
    for i in range(1024):
        delta = _varint(size) + _varint(size) + copy_all
        raw = zlib.compress(delta)
        offsets.append(offsets[-1] + len(entries[-1][1]))
        entry = entry_header(6, len(delta)) + _ofs(offsets[-1] - offsets[-2]) + raw
        entries.append((f"ab{i + 1:038x}", entry))  # the names of the chain's steps are not read
    write_pack(work / "repo", entries)
    top = entries[-1][0]

    done, _ = peak_memory_of(work, submit(work, top), "--repo", "repo")

    assert done.stdout.splitlines()[1:2] == [
        f"  $.commit: could not check {top} in repo: rebuilding its objects through their "
        f"deltas would build more than {MAX_BUILT_BYTES:,} bytes; not read further"
    ], done.stdout
    assert done.returncode == 1


def _ofs(distance: int) -> bytes:
    """git's offset to an OFS_DELTA's base, as it writes it."""
    out = [distance & 0x7F]
    distance >>= 7
    while distance:
        distance -= 1
        out.insert(0, 0x80 | (distance & 0x7F))
        distance >>= 7
    return bytes(out)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def test_a_loose_commit_declaring_a_gigabyte_is_refused_before_it_is_inflated(work):
    size = 1 << 30
    sha, _ = bomb_commit(64)
    stream = zlib.compressobj(9)
    data = stream.compress(b"commit %d\0" % size) + stream.compress(b"\0" * (1 << 24)) * 64
    path = work / "repo" / ".git" / "objects" / sha[:2] / sha[2:]
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data + stream.flush())

    done, peak = peak_memory_of(work, submit(work, sha), "--repo", "repo")

    assert done.stdout.splitlines()[1:] == [
        f"  $.commit: could not check {sha} in repo: a commit object of {size:,} bytes is "
        "beyond the limit for its kind; it was not read"
    ]
    assert peak < 400 << 20


# -- the learner's commit is one their refs lead to, and holds their artifacts --------------------
def test_a_dangling_commit_is_not_the_learners(cli, work):
    repo = work / "repo"
    (repo / "other.txt").write_text("x\n", encoding="utf-8")
    git(repo, "add", "other.txt")
    git(repo, "commit", "-q", "-m", "second")
    git(repo, "reset", "-q", "--hard", LEARNER_HEAD)  # the second commit is left dangling
    dangling = git(repo, "rev-parse", "HEAD@{1}")
    git(repo, "reflog", "expire", "--expire=now", "--all")

    result = validate(cli, submit(work, dangling), "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        f"  $.commit: {dangling} is in repo, but no branch, tag or HEAD leads to it (a dangling "
        "object is not the learner's commit)"
    ]
    assert validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo").code == 0


def test_a_commit_reached_through_a_tag_and_a_parent_in_a_pack_is_the_learners(cli, work):
    repo = work / "repo"
    (repo / "results" / "more.json").write_text("{}\n", encoding="utf-8")
    git(repo, "add", "results/more.json")
    git(repo, "commit", "-q", "-m", "second")
    git(repo, "tag", "-a", "-m", "done", "v1")
    git(repo, "checkout", "-q", "--detach", LEARNER_HEAD)
    git(repo, "branch", "-q", "-D", "main")
    git(repo, "checkout", "-q", "--detach", "v1")
    git(repo, "gc", "-q", "--prune=now")

    result = validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo")

    assert (result.code, result.out) == (0, "sub.yaml: valid\n")


@pytest.mark.parametrize("folder", ["objects/pack", "refs"])
def test_a_symlinked_pack_or_refs_folder_is_not_followed_out_of_the_repository(cli, work, folder):
    """The pack folder or the refs moved elsewhere and linked back: what they hold is another
    repository's (a commit cited from there is not the learner's), so it cannot be checked."""
    repo = work / "repo"
    git(repo, "gc", "-q", "--prune=now")  # the commit now lives in a pack and packed-refs
    if folder == "refs":  # the branch as a loose ref again, so only refs/ leads to it
        git(repo, "update-ref", "refs/heads/main", LEARNER_HEAD)
        (repo / ".git" / "packed-refs").unlink()
        git(repo, "checkout", "-q", "--detach", LEARNER_HEAD)
        (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    inside = repo / ".git" / folder
    outside = work / "elsewhere" / inside.name
    outside.parent.mkdir()
    shutil.move(inside, outside)
    inside.symlink_to(outside, target_is_directory=True)

    result = validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo")

    assert result.code == 1
    assert f"{inside.name} in .git is a link or not a folder" in result.out


def test_an_artifact_on_disk_but_not_in_the_commit_is_a_problem(cli, work):
    (work / "repo" / "results" / "later.json").write_text("{}\n", encoding="utf-8")
    text = submit(work, LEARNER_HEAD)
    path = work / text
    path.write_text(
        path.read_text("utf-8").replace(
            f"  - {ARTIFACT}\n", f"  - {ARTIFACT}\n  - results/later.json\n  - results\n"
        ),
        "utf-8",
    )

    result = validate(cli, text, "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        f"  $.artifacts[1]: 'results/later.json' is not in the tree of commit {LEARNER_HEAD}",
        "  $.artifacts[2]: 'results' is not a file; artifacts are files the run wrote",
    ]


def test_a_link_out_of_the_repository_says_nothing_of_its_target(cli, work):
    """Whether the target of a link out of the repository exists is not the repository's
    business: a link to a file that exists and one to nothing read alike."""
    results = work / "repo" / "results"
    (results / "there.json").symlink_to(work / "outside.json")  # exists
    (results / "nowhere.json").symlink_to(work / "no-such-file.json")
    text = submit(work, LEARNER_HEAD)
    path = work / text
    listed = f"  - {ARTIFACT}\n  - results/there.json\n  - results/nowhere.json\n"
    path.write_text(path.read_text("utf-8").replace(f"  - {ARTIFACT}\n", listed), "utf-8")

    result = validate(cli, text, "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        "  $.artifacts[1]: 'results/there.json' is a symlink that points outside the repository",
        "  $.artifacts[2]: 'results/nowhere.json' is a symlink that points outside the repository",
    ]


# -- a file or a repository this user may not read ----------------------------------------------
@pytest.fixture
def denied(monkeypatch: pytest.MonkeyPatch) -> set[str]:
    """Names of files and folders of mode 000, as another user's would be to this one (the
    tests may run as root, whom permissions do not stop): such a file or folder cannot be
    opened or listed, and nothing inside such a folder can even be looked at."""
    names: set[str] = set()

    def guard(real: Any, op: str) -> Any:
        def call(path: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(path, str | bytes | os.PathLike):
                parts = os.fsdecode(os.path.abspath(path)).split(os.sep)
                looks = op in ("lstat", "stat")  # what a folder's listing shows: allowed
                if (not looks and parts[-1] in names) or names & set(parts[:-1]):
                    raise PermissionError(13, "Permission denied", os.fsdecode(path))
            return real(path, *args, **kwargs)

        return call

    for name in ("open", "scandir", "listdir", "lstat", "stat"):
        monkeypatch.setattr(os, name, guard(getattr(os, name), name))
    return names


def test_an_unreadable_submission_is_its_own_problem_and_the_batch_goes_on(cli, work, denied):
    (work / "subs").mkdir()
    for name in ("a.yaml", "b.yaml", "c.yaml"):
        (work / "subs" / name).write_text(GOOD_YAML, encoding="utf-8")
    denied.add("b.yaml")

    result = validate(cli, "subs")

    assert result.out.splitlines() == [
        "subs/a.yaml: valid",
        "subs/b.yaml: invalid (1 problem)",
        "  $: cannot read the file: Permission denied",
        "subs/c.yaml: valid",
        "3 submissions: 2 valid, 1 invalid",
    ]
    assert (result.code, result.err) == (1, "")


def test_an_unlistable_folder_is_one_line(cli, work, denied):
    (work / "subs").mkdir()
    (work / "subs" / "a.yaml").write_text(GOOD_YAML, encoding="utf-8")
    denied.add("subs")

    result = validate(cli, "subs")

    assert (result.code, result.out) == (2, "")
    assert result.err == "error: subs: cannot list the directory: Permission denied\n"


@pytest.mark.parametrize("name", ["objects", "pack", "HEAD", "refs"])
def test_an_unreadable_part_of_the_repository_is_a_problem_of_the_file(cli, work, denied, name):
    git(work / "repo", "gc", "-q", "--prune=now")
    denied.add(name)

    result = validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo")

    assert result.code == 1, result.out + result.err
    assert result.out.splitlines()[1].startswith(f"  $.commit: could not check {LEARNER_HEAD}")
    assert "Permission denied" in result.out
    assert result.err == ""


def test_an_artifact_in_an_unreadable_folder_is_not_said_to_be_missing(cli, work, denied):
    denied.add("results")

    result = validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo")

    assert result.out.splitlines()[1:] == [
        f"  $.artifacts[0]: cannot check {ARTIFACT!r}: Permission denied"
    ]


# -- a learner's odd text is shown escaped once ---------------------------------------------------
def test_control_characters_in_a_learners_text_are_escaped_once(cli, work):
    data = good_data()
    data["artifacts"] = ["results/\x1b[31m.json"]
    data["metrics"][0]["name"] = "bad\x1bname"
    (work / "s.json").write_text('{"a\\u001b": 1, "a\\u001b": 2}', encoding="utf-8")
    (work / "t.json").write_text(json.dumps(data), encoding="utf-8")
    data["module"] = "mod\x07"
    (work / "u.json").write_text(json.dumps(data), encoding="utf-8")

    result = validate(cli, "s.json", "t.json", "u.json", "--repo", "repo")

    out = result.out
    assert "\x1b" not in out and "\x07" not in out
    assert "\\\\" not in out  # never a doubled backslash
    assert "$: duplicate key 'a\\x1b'" in out
    assert "unknown module 'mod\\x07'" in out
    assert "'results/\\x1b[31m.json' does not exist in the repository" in out
    assert "unknown metric 'bad\\x1bname'" in out
    as_json = validate(cli, "t.json", "--repo", "repo", "--format", "json").out
    (submission,) = json.loads(as_json)["submissions"]
    messages = [p["message"] for p in submission["problems"]]
    assert "'results/\\x1b[31m.json' does not exist in the repository" in messages


# -- Ctrl-C ----------------------------------------------------------------------------------------
def _sigint_default() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(("signal_name", "code"), [("SIGINT", 130), ("SIGTERM", 143)])
def test_ctrl_c_or_sigterm_during_a_batch_with_workers_is_one_line(work, signal_name, code):
    """Interrupted while it cannot have finished, however fast or busy the machine: as soon
    as its first worker process exists. (The pool then ends its workers with SIGTERM; one
    still starting had the command line's handler, which raised in its initializer: a
    traceback after the line, under load.)"""
    folder = work / "subs"
    folder.mkdir()
    for i in range(3000):
        (folder / f"s{i:04}.yaml").write_text(GOOD_YAML, encoding="utf-8")
    args = ["validate", "subs", "--repo", "repo", "--jobs", "2", "--claims", str(MODULE)]
    child = subprocess.Popen(
        [sys.executable, "-m", "runner", *args],
        cwd=work,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # a process group of its own, as a terminal's job is
        # and Ctrl-C live, as in a terminal: a job started in the background of a
        # non-interactive shell (how CI is often launched) inherits SIGINT ignored
        preexec_fn=_sigint_default,
    )
    try:
        # interrupted once its workers exist: 3,000 files cannot all be validated by then
        deadline = time.monotonic() + 60
        while not _descendants(child.pid) and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert child.poll() is None, "the batch ended before its workers were seen"
        # as Ctrl-C does, or a shell's kill of the job: the parent and its workers
        os.killpg(child.pid, getattr(signal, signal_name))
        started = time.monotonic()
        rest, err = child.communicate(timeout=30)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGKILL)

    assert time.monotonic() - started < 10
    assert (child.returncode, err.splitlines()) == (code, [catalog("en")("interrupted")])
    assert rest.count("\n") < 3000


def test_a_pool_worker_that_was_sent_sigterm_before_it_started_ends_quietly():
    """A worker forked while SIGTERM is held (runner.pools.signals_deferred) takes note of a
    SIGTERM that comes before its initializer sets its own handlers; the initializer then
    ends it at once, with nothing said (it went on with its queue, or raised)."""
    from runner import pools
    from tests.conftest import in_a_fork

    def worker_starting() -> None:
        pools._Held.signals = []
        signal.signal(signal.SIGTERM, pools._hold)  # as inherited from the deferral
        os.kill(os.getpid(), signal.SIGTERM)
        pools.quiet_worker()

    assert in_a_fork(worker_starting) == (143, b"")


def test_signals_held_by_an_outer_deferral_are_kept_through_an_inner_one():
    """A learner's worker started while a pool's processes are forked: the inner deferral
    put aside what the outer one held (a Ctrl-C lost), and now hands it back."""
    from runner import pools
    from tests.conftest import in_a_fork

    def nested() -> None:
        heard: list[int] = []
        signal.signal(signal.SIGUSR1, lambda signum, frame: heard.append(signum))
        with pools.signals_deferred(signal.SIGUSR1):
            signal.raise_signal(signal.SIGUSR1)
            with pools.signals_deferred(signal.SIGUSR2):
                pass
            os.write(2, b"held %d;" % len(heard))
        os.write(2, b"heard %d" % len(heard))
        os._exit(0)

    assert in_a_fork(nested) == (0, b"held 0;heard 1")


# -- numbers mean the same in YAML as in JSON --------------------------------------------------
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1e3", 1000.0),
        ("-2.5E-3", -0.0025),
        ("4.7012e+3", 4701.2),
        ("0", 0),
        ("-0", 0),
        ("123532032", 123532032),
        ("1.5", 1.5),
        ("true", True),
        ("null", None),
    ],
)
def test_a_number_json_reads_is_the_same_number_in_yaml(text, value):
    from runner.submission.parse import parse_submission

    as_json = parse_submission(b'{"a": %s}' % text.encode(), json_syntax=True).data
    as_yaml = parse_submission(b"a: %s\n" % text.encode(), json_syntax=False).data

    assert as_json == as_yaml == {"a": value}
    assert type(as_json["a"]) is type(as_yaml["a"])


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("017", 17),  # YAML 1.1 read 15 (octal)
        ("0o17", 15),
        ("0x1F", 31),
        (".5", 0.5),
        ("+12", 12),
        ("1_000", "1_000"),  # 1.1: 1000
        ("1:20", "1:20"),  # 1.1: 80 (sexagesimal)
        ("yes", "yes"),  # 1.1: True
        ("off", "off"),  # 1.1: False
        ("0b101", "0b101"),  # 1.1: 5
    ],
)
def test_yaml_submissions_resolve_scalars_as_yaml_1_2_core(text, value):
    from runner.submission.parse import parse_submission

    data = parse_submission(b"a: %s\n" % text.encode(), json_syntax=False).data

    assert data == {"a": value} and type(data["a"]) is type(value)


@pytest.mark.parametrize("text", [".inf", "-.Inf", ".NaN"])
def test_non_finite_yaml_numbers_are_a_problem_as_in_json(cli, work, text):
    (work / "sub.yaml").write_text(
        GOOD_YAML.replace("actual: 4701.196560612873", f"actual: {text}"), "utf-8"
    )
    word = {".inf": "Infinity", "-.Inf": "-Infinity", ".NaN": "NaN"}[text]
    data = good_data()
    (work / "sub.json").write_text(
        json.dumps(data).replace("4701.196560612873", word), encoding="utf-8"
    )

    yaml_out = validate(cli, "sub.yaml").out.splitlines()[1:]
    json_out = validate(cli, "sub.json").out.splitlines()[1:]

    assert yaml_out == json_out and len(yaml_out) == 1


def test_a_scientific_actual_in_yaml_is_judged_as_a_number(cli, work):
    (work / "sub.yaml").write_text(
        GOOD_YAML.replace("actual: 4701.196560612873", "actual: 4.701196560612873e3"), "utf-8"
    )

    result = validate(cli, "sub.yaml")

    assert (result.code, result.out) == (0, "sub.yaml: valid\n")


def test_a_json_file_with_a_byte_order_mark_is_read(cli, work):
    (work / "sub.json").write_bytes(b"\xef\xbb\xbf" + json.dumps(good_data()).encode("utf-8"))

    result = validate(cli, "sub.json")

    assert (result.code, result.out) == (0, "sub.json: valid\n")


# -- the chapter template's metrics are required ---------------------------------------------------
def module_requiring(work: Path, names: list[str]) -> Path:
    """A copy of the module whose module.yaml lists ``names`` as required metrics."""
    copy = work / "claims" / MODULE.name
    shutil.copytree(MODULE, copy)
    meta = copy / "module.yaml"
    listed = "".join(f"  - {n}\n" for n in names)
    meta.write_text(partial_module_yaml() + f"required_metrics:\n{listed}", "utf-8")
    return copy


def test_a_required_metric_left_out_is_a_problem(cli, work):
    claims = module_requiring(work, [SUPPORT, PARAMS])
    start = GOOD_YAML.index(f"  - name: {PARAMS}")
    end = GOOD_YAML.index("artifacts:")
    (work / "sub.yaml").write_text(GOOD_YAML[:start] + GOOD_YAML[end:], "utf-8")
    (work / "full.yaml").write_text(GOOD_YAML, "utf-8")

    result = cli("validate", "sub.yaml", "full.yaml", "--claims", str(claims))

    version = load_packs([claims])[0].meta.version
    assert result.out.splitlines() == [
        "sub.yaml: invalid (1 problem)",
        f"  $.metrics: metric '{PARAMS}' is missing; {MODULE_ID} v{version} requires it",
        "full.yaml: valid",
        "2 submissions: 1 valid, 1 invalid",
    ]


def test_a_required_metric_no_claim_defines_is_a_bad_claim_pack(cli, work):
    claims = module_requiring(work, [SUPPORT, "no_such_metric"])
    (work / "sub.yaml").write_text(GOOD_YAML, "utf-8")

    result = cli("validate", "sub.yaml", "--claims", str(claims))

    assert (result.code, result.out) == (2, "")
    assert "required metric 'no_such_metric' is not a metric of any claim" in result.err


def test_a_required_metric_of_a_claim_refused_for_its_own_problem_is_not_said_missing(cli, work):
    """A claim without a tolerance was refused, and its required metric was then said to be
    "not a metric of any claim": two problems, the second misleading (a pack author,
    2026-12-07). Only the claim's own problem is said."""
    claims = module_requiring(work, [SUPPORT, "no_such_metric"])
    support = claims / "1-support.yaml"
    text = support.read_text("utf-8")
    old = (
        "        metric: support_log10_gpt2_vocab_1000_ctx\n        value: 4701.20\n"
        "        tolerance: {kind: close, abs: 0.005}\n"
    )
    assert old in text
    support.write_text(text.replace(old, old.rsplit("        tolerance", 1)[0], 1), "utf-8")
    (work / "sub.yaml").write_text(GOOD_YAML, "utf-8")

    result = cli("validate", "sub.yaml", "--claims", str(claims))

    assert result.code == 2
    assert "expect[0].tolerance: missing (required)" in result.err, result.err
    assert f"required metric '{SUPPORT}'" not in result.err, result.err
    # a required metric that no claim names, valid or not, is still said
    assert "required metric 'no_such_metric' is not a metric of any claim" in result.err


def test_an_interrupted_batch_stops_its_workers_before_they_take_more(work, monkeypatch):
    """Stopped while its workers validate (Ctrl-C, SIGTERM, the reader gone): each worker
    ends at once when told to, rather than taking the command line's SIGTERM handler for the
    file's own error and going on with the files queued for it."""
    from runner.submission import SubmissionFile, Validator
    from runner.validate_many import validate_files

    folder = work / "subs"
    folder.mkdir()
    for i in range(40):
        (folder / f"s{i:02}.yaml").write_text(GOOD_YAML, encoding="utf-8")
    done = work / "validated.txt"
    original = Validator.validate_file

    def slow(self, file):
        time.sleep(0.3)
        with open(done, "a", encoding="utf-8") as fh:
            fh.write("x")
        return original(self, file)

    monkeypatch.setattr(Validator, "validate_file", slow)
    # the command line's own SIGTERM handler, which forked workers inherit
    from runner.cli import _terminated

    previous = signal.signal(signal.SIGTERM, _terminated)
    try:
        files = [SubmissionFile(p, folder) for p in sorted(folder.iterdir())]
        reports = validate_files(files, MODULE.parent, work / "repo", None, jobs=2)
        next(reports)  # the first chunk (5 files) is judged: both workers are busy
        with pytest.raises(KeyboardInterrupt):
            reports.throw(KeyboardInterrupt)
    finally:
        signal.signal(signal.SIGTERM, previous)

    assert len(done.read_text(encoding="utf-8")) <= 15  # what was in hand, not the queue


@pytest.mark.parametrize("json_syntax", [True, False], ids=["json", "yaml"])
def test_an_integer_of_1000_digits_is_read_and_one_of_1001_refused(json_syntax):
    """The documented limit, exactly: 10**1000 has 3,322 bits, as has 10**1000 - 1, so
    bits alone cannot decide; a sign is not a digit."""
    from runner.submission.parse import parse_submission

    def problems(number: int) -> list[str]:
        text = f'{{"seed": {number}}}' if json_syntax else f"seed: {number}"
        return [
            m.code for _, m in parse_submission(text.encode(), json_syntax=json_syntax).problems
        ]

    largest = 10**1000 - 1
    assert problems(largest) == problems(-largest) == []
    refused = ["sub.digits"] if json_syntax else ["sub.yaml_line"]
    assert problems(largest + 1) == problems(-largest - 1) == refused


def _loose_repo(repo: Path) -> Any:
    """A repository of loose objects; returns put(kind, body) -> sha."""
    objects = repo / ".git" / "objects"
    (repo / ".git" / "refs" / "heads").mkdir(parents=True)
    (repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n")

    def put(kind: str, body: bytes) -> str:
        data = f"{kind} {len(body)}\0".encode() + body
        sha = hashlib.sha1(data).hexdigest()
        (objects / sha[:2]).mkdir(parents=True, exist_ok=True)
        (objects / sha[:2] / sha[2:]).write_bytes(zlib.compress(data))
        return sha

    return put


WHO = b"Learner <learner@example.invalid> 1741946400 +0000"


def test_a_tree_many_artifacts_name_is_read_once(tmp_path, monkeypatch):
    """Attack round 17: a root of N folders that are all one large tree, and an artifact in
    each. Read again for every artifact, 200 artifacts of a 16 MiB tree took 65 s."""
    from runner.submission import gitobjects

    put = _loose_repo(tmp_path)
    blob = bytes.fromhex(put("blob", b"{}\n"))
    big = put(
        "tree", b"".join(b"100644 %05d\0" % i + blob for i in range(2000)) + b"100644 f\0" + blob
    )
    root = put("tree", b"".join(b"40000 a%d\0" % i + bytes.fromhex(big) for i in range(50)))
    commit = put("commit", b"tree %s\nauthor %s\ncommitter %s\n\nr\n" % (root.encode(), WHO, WHO))
    (tmp_path / ".git" / "refs" / "heads" / "main").write_text(commit + "\n")
    reads: list[str] = []
    original = gitobjects.GitObjects._read

    def counted(self: gitobjects.GitObjects, name: str, want: tuple[str, ...]) -> Any:
        reads.append(name)
        return original(self, name, want)

    monkeypatch.setattr(gitobjects.GitObjects, "_read", counted)
    db = gitobjects.GitObjects(tmp_path.resolve())
    assert db.lookup(commit).kind == "commit"
    assert [db.entry(commit, (f"a{i}", "f")) for i in range(50)] == ["file"] * 50
    assert db.entry(commit, ("a3", "nothing")) == "missing"
    assert reads.count(big) == 1 and reads.count(root) == 1
    # the lookup's and the walk's reads, and its tree's sha once for all 51 paths
    assert reads.count(commit) == 3


def test_a_history_of_large_commits_is_read_within_a_budget(tmp_path, monkeypatch):
    """Attack round 17: 100 commits of 16 MiB each (1.6 MB on disk) were each inflated and
    hashed in full by the walk (10 s, and valid). The bytes read per repository are bounded:
    past the budget the commit could not be checked, which is a problem."""
    from runner.submission import gitobjects

    monkeypatch.setattr(gitobjects, "MAX_READ_BYTES", 400_000)
    put = _loose_repo(tmp_path)
    tree = put("tree", b"100644 r.json\0" + bytes.fromhex(put("blob", b"{}\n")))
    parent = b""
    for i in range(6):
        head = b"tree %s\n%sauthor %s\ncommitter %s\n\n" % (tree.encode(), parent, WHO, WHO)
        sha = put("commit", head + b"%d " % i + b"a" * 100_000 + b"\n")
        parent = b"parent %s\n" % sha.encode()
    (tmp_path / ".git" / "refs" / "heads" / "main").write_text(sha + "\n")
    found = gitobjects.GitObjects(tmp_path.resolve()).lookup(sha)
    assert found.kind == "unchecked" and found.why is not None
    assert found.why.code == "sub.git.read_limit"
    assert "0.4 MiB" in catalog("en").say(found.why)
    monkeypatch.setattr(gitobjects, "MAX_READ_BYTES", 1 << 28)
    assert gitobjects.GitObjects(tmp_path.resolve()).lookup(sha).kind == "commit"


def test_a_pack_index_whose_fanout_decreases_is_refused_before_any_lookup(tmp_path):
    """Attack round 18: a 1 KB index whose fan-out table is 0, then 2**32 − 1, then 0 again
    (its last entry says no object, which is all dulwich checks) had every prefix lookup loop
    four billion times: 13 minutes of CPU for each sha named."""
    from runner.submission import gitobjects

    put = _loose_repo(tmp_path)
    commit = put(
        "commit",
        b"tree %s\nauthor %s\ncommitter %s\n\nr\n"
        % (b"4b825dc642cb6eb9a060e54bf8d69288fbccfd4b", WHO, WHO),
    )
    (tmp_path / ".git" / "refs" / "heads" / "main").write_text(commit + "\n")
    folder = tmp_path / ".git" / "objects" / "pack"
    folder.mkdir()
    fanout = [0] * 256
    # 2**22, not the attack's 2**32 − 1: without the check this test loops a second, not hours
    fanout[int(commit[:2], 16) : 255] = [2**22] * (255 - int(commit[:2], 16))
    (folder / "pack-x.idx").write_bytes(
        b"\xfftOc" + struct.pack(">I", 2) + struct.pack(">256I", *fanout) + b"\0" * 40
    )
    (folder / "pack-x.pack").write_bytes(b"PACK" + struct.pack(">LL", 2, 0) + b"\0" * 20)
    found = gitobjects.GitObjects(tmp_path.resolve()).lookup(commit)
    assert found.kind == "unchecked" and found.why is not None
    assert catalog("en").say(found.why) == (
        "an object in its database is malformed (pack-index-fanout-decreases)"
    )


def test_a_delta_chain_many_commits_share_is_rebuilt_once(tmp_path):
    """Attack round 18: commits each at the end of one chain of 4,095 empty deltas (no byte
    built, so no byte budget is spent): each commit read rebuilt the whole chain, 99 s for
    5,000 commits in 1 MB. A rebuilt object is kept as the base the next chain passes."""
    from runner.submission import gitobjects

    put = _loose_repo(tmp_path)
    (tmp_path / ".git" / "objects" / "pack").mkdir(parents=True)
    empty = b"\x00\x00"  # from 0 bytes to 0 bytes, no instruction
    entries = [(f"aa{0:038x}", entry_header(1, 0) + zlib.compress(b""))]
    offsets = [0]
    for i in range(300):
        offsets.append(offsets[-1] + len(entries[-1][1]))
        step = entry_header(6, len(empty)) + _ofs(offsets[-1] - offsets[-2]) + zlib.compress(empty)
        entries.append((f"ab{i:038x}", step))
    chain_end = offsets[-1]
    commits = []
    for i in range(20):
        body = b"tree %s\nauthor %s\ncommitter %s\n\ncommit %d\n" % (
            b"4b825dc642cb6eb9a060e54bf8d69288fbccfd4b",
            WHO,
            WHO,
            i,
        )
        sha = hashlib.sha1(b"commit %d\0" % len(body) + body).hexdigest()
        inserts = b"".join(
            bytes([len(body[j : j + 127])]) + body[j : j + 127] for j in range(0, len(body), 127)
        )
        delta = _varint(0) + _varint(len(body)) + inserts  # inserted 127 bytes at most at once
        at = offsets[-1] + len(entries[-1][1])
        offsets.append(at)
        entries.append(
            (sha, entry_header(6, len(delta)) + _ofs(at - chain_end) + zlib.compress(delta))
        )
        commits.append(sha)
        (tmp_path / ".git" / "refs" / "heads" / f"b{i}").write_text(sha + "\n")
    write_pack(tmp_path, entries)
    db = gitobjects.GitObjects(tmp_path.resolve())
    assert [db.lookup(c).kind for c in commits] == ["commit"] * 20
    assert db._built.deltas <= 300 + 20 * 2  # the chain once (20 × 301 without the kept bases)
    assert put  # the loose objects' folder exists for the pack's


def test_the_trees_held_parsed_are_bounded(tmp_path, monkeypatch):
    """Attack round 18: fifteen 16 MiB trees, each named by one path, held parsed as tuples
    took 2.1 GB. What is held is bounded: past it the trees held so far are let go."""
    from runner.submission import gitobjects

    monkeypatch.setattr(gitobjects, "MAX_HELD_ENTRIES", 3000)
    put = _loose_repo(tmp_path)
    blob = bytes.fromhex(put("blob", b"{}\n"))
    trees = [
        put(
            "tree",
            b"".join(b"100644 %d-%05d\0" % (t, i) + blob for i in range(2000))
            + b"100644 f\0"
            + blob,
        )
        for t in range(3)
    ]
    root = put("tree", b"".join(b"40000 t%d\0" % t + bytes.fromhex(s) for t, s in enumerate(trees)))
    commit = put("commit", b"tree %s\nauthor %s\ncommitter %s\n\nr\n" % (root.encode(), WHO, WHO))
    (tmp_path / ".git" / "refs" / "heads" / "main").write_text(commit + "\n")
    db = gitobjects.GitObjects(tmp_path.resolve())
    assert db.lookup(commit).kind == "commit"
    for _ in range(2):
        assert [db.entry(commit, (f"t{t}", "f")) for t in range(3)] == ["file"] * 3
        assert db._held_entries <= 3000
    assert db.entry(commit, ("t1", "1-00007")) == "file"
    assert db.entry(commit, ("t1", "0-00007")) == "missing"


def test_only_branches_tags_and_head_lead_to_the_learners_commits(tmp_path):
    """Attack round 18: a commit only refs/original (git filter-branch's backup of the
    history it rewrote) or refs/stash leads to is not the learner's; a branch's, a
    remote-tracking branch's and a tag's are, loose or packed (a peeled tag line too)."""
    from runner.submission import gitobjects

    put = _loose_repo(tmp_path)
    made = {}
    for name in ("main", "original", "stash", "remote", "packed-tag", "peeled", "packed-old"):
        made[name] = put(
            "commit",
            b"tree 4b825dc642cb6eb9a060e54bf8d69288fbccfd4b\nauthor %s\ncommitter %s\n\n%s\n"
            % (WHO, WHO, name.encode()),
        )
    refs = tmp_path / ".git" / "refs"
    for path, name in (
        ("heads/main", "main"),
        ("original/refs/heads/main", "original"),
        ("stash", "stash"),
        ("remotes/origin/main", "remote"),
    ):
        (refs / path).parent.mkdir(parents=True, exist_ok=True)
        (refs / path).write_text(made[name] + "\n")
    tag = put(
        "tag", b"object %s\ntype commit\ntag v1\ntagger %s\n\nv1\n" % (made["peeled"].encode(), WHO)
    )
    (tmp_path / ".git" / "packed-refs").write_text(
        "# pack-refs with: peeled fully-peeled sorted\n"
        f"{made['packed-old']} refs/original/refs/heads/old\n"
        f"{made['packed-tag']} refs/tags/v0\n"
        f"{tag} refs/tags/v1\n^{made['peeled']}\n"
    )
    db = gitobjects.GitObjects(tmp_path.resolve())
    kinds = {name: db.lookup(sha).kind for name, sha in made.items()}
    assert kinds == {
        "main": "commit",
        "original": "unreachable",
        "stash": "unreachable",
        "remote": "commit",
        "packed-tag": "commit",
        "peeled": "commit",
        "packed-old": "unreachable",
    }


# -- attack round 27 ---------------------------------------------------------------------------
def _dangling(repo: Path) -> str:
    """A commit no branch, tag or HEAD leads to (the learner's HEAD left where it was)."""
    (repo / "other.txt").write_text("x\n", encoding="utf-8")
    git(repo, "add", "other.txt")
    git(repo, "commit", "-q", "-m", "second")
    git(repo, "reset", "-q", "--hard", LEARNER_HEAD)
    sha = git(repo, "rev-parse", "HEAD@{1}")
    git(repo, "reflog", "expire", "--expire=now", "--all")
    return sha


@pytest.mark.parametrize("how", ["lock", "bad-name", "peeled", "worktree-own"])
def test_a_ref_git_itself_would_not_read_does_not_make_a_commit_the_learners(cli, work, how):
    """A dangling commit named only by a ref git ignores was accepted (git fsck calls it
    unreachable): a branch being written (``foo.lock``), a name check-ref-format refuses
    (``a..b``), a forged peeled line after a tag in packed-refs, a branch file in a linked
    worktree's own folder (git reads branches from the common folder only)."""
    repo = work / "repo"
    sha = _dangling(repo)
    gitdir = repo / ".git"
    if how == "lock":
        (gitdir / "refs" / "heads" / "foo.lock").write_text(sha + "\n", encoding="utf-8")
    elif how == "bad-name":
        (gitdir / "refs" / "heads" / "a..b").write_text(sha + "\n", encoding="utf-8")
    elif how == "peeled":
        git(repo, "tag", "-a", "-m", "t", "v1")
        git(repo, "pack-refs", "--all")
        packed = gitdir / "packed-refs"
        lines = packed.read_text(encoding="utf-8").splitlines()
        at = next(i for i, line in enumerate(lines) if line.endswith("refs/tags/v1"))
        lines.insert(at + 1, "^" + sha)
        packed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    else:
        git(repo, "worktree", "add", "-q", "--detach", str(work / "wt"), LEARNER_HEAD)
        own = gitdir / "worktrees" / "wt" / "refs" / "heads"
        own.mkdir(parents=True)
        (own / "hidden").write_text(sha + "\n", encoding="utf-8")
    result = validate(cli, submit(work, sha), "--repo", "repo")
    assert "no branch, tag or HEAD leads to it" in result.out, result.out
    assert validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo").code == 0


def test_an_artifact_the_commit_holds_as_a_link_or_without_its_contents_is_a_problem(cli, work):
    """A commit holding a symlink (to /etc/shadow, to .git/config) where the working tree has
    a file of that name, and a commit listing a file whose contents the repository lacks,
    were accepted (attack round 27)."""
    repo = work / "repo"
    (repo / "results" / "link.json").symlink_to("/etc/shadow")
    git(repo, "add", "results/link.json")
    git(repo, "commit", "-q", "-m", "a link")
    (repo / "results" / "link.json").unlink()
    (repo / "results" / "link.json").write_text("{}\n", encoding="utf-8")
    head = git(repo, "rev-parse", "HEAD")
    text = submit(work, head)
    path = work / text
    path.write_text(
        path.read_text("utf-8").replace(
            f"  - {ARTIFACT}\n", f"  - {ARTIFACT}\n  - results/link.json\n  - {ARTIFACT}/\n"
        ),
        "utf-8",
    )
    result = validate(cli, text, "--repo", "repo")
    assert result.out.splitlines()[1:] == [
        f"  $.artifacts[1]: 'results/link.json' is a symbolic link in commit {head}: an artifact "
        "is a file the commit holds",
        f"  $.artifacts[2]: '{ARTIFACT}/' is not a file; artifacts are files the run wrote",
    ]
    blob = git(repo, "rev-parse", f"HEAD:{ARTIFACT}")
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    result = validate(cli, submit(work, head), "--repo", "repo")
    assert result.out.splitlines()[1:] == [
        f"  $.artifacts[0]: '{ARTIFACT}' is listed in commit {head}, but its contents are not in "
        "the repository"
    ]


def test_many_packs_and_long_delta_instructions_are_refused_within_their_budgets():
    """6,000 empty packs beside 20,000 commits, and deltas of one-byte inserts building a
    gigabyte a byte at a time, held validate past 120 s (attack round 27): a repository of
    more than MAX_PACKS packs is not read, and the deltas' instructions are counted."""
    from runner.submission import gitobjects

    base = b"x" * 10
    one_byte_inserts = _varint_bytes(10) + _varint_bytes(20) + b"\x01y" * 20
    body, ops = gitobjects._apply_delta(base, one_byte_inserts, 1 << 20, "blob")
    assert body == b"y" * 20 and ops == 20
    with pytest.raises(gitobjects.Unreadable):
        gitobjects._apply_delta(base, one_byte_inserts, 1 << 20, "blob", ops_left=19)
    assert gitobjects.MAX_PACKS <= 1000


def test_a_packs_count_past_the_limit_is_said_not_read(cli, work, monkeypatch):
    from runner.submission import gitobjects

    repo = work / "repo"
    git(repo, "gc", "-q", "--prune=now")
    monkeypatch.setattr(gitobjects, "MAX_PACKS", 0)
    result = validate(cli, submit(work, LEARNER_HEAD), "--repo", "repo")
    assert "more than 0 pack files; not read" in result.out, result.out


def _varint_bytes(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


@pytest.mark.parametrize(
    "environment",
    [
        "py3.12;/home/alice/.venv",
        "file:///home/alice/venv",
        "py%3B%2Fhome%2Falice%2F",
        "/root",
        "py at /opt",
        "alice@163.com",
        "http://10.0.0.1/simple",
        "2001:db8::1",
        "fe80::1%eth0",
    ],
)
def test_an_environment_naming_a_path_user_or_host_another_way_is_refused(cli, work, environment):
    data = good_data()
    data["environment"] = environment
    (work / "sub.json").write_text(json.dumps(data), encoding="utf-8")
    result = validate(cli, "sub.json")
    assert result.code == 1 and "$.environment" in result.out, result.out


@pytest.mark.parametrize(
    "environment",
    [
        "Python 3.11.7 (main, Dec  8 2023, 18:21:37) [GCC 11.4.0]",
        "python@3.11 via Homebrew, macOS 14.4, arm64",
        "CPython/3.11/x86_64, numpy 2.4.6; openblas 0.3.27",
        # a public index or a package pinned to a branch read as a host or user@host would
        "torch 2.1 from https://download.pytorch.org/whl/cpu, transformers@main",
        "Python 3.11.5 :: Anaconda, Inc. ; numpy : 1.26.4",  # no IPv6 in " :: " (round 28)
    ],
)
def test_an_ordinary_environment_line_still_passes(cli, work, environment):
    data = good_data()
    data["environment"] = environment
    (work / "sub.json").write_text(json.dumps(data), encoding="utf-8")
    assert validate(cli, "sub.json").code == 0


@pytest.mark.parametrize("key", ["artifacts", "licenses", "known_failures"])
def test_a_template_list_left_empty_or_a_seed_not_the_modules_is_a_problem(cli, work, key):
    """``artifacts: []`` proved no artifact at all, and any seed passed (attack round 27):
    the template shows an item to replace in each list, and seed 0, the module's."""
    data = good_data()
    data[key] = []
    data["seed"] = 7
    for forged in ({}, {"producer": None}):  # producer: null skipped the rule (round 28)
        (work / "sub.json").write_text(json.dumps({**data, **forged}), encoding="utf-8")
        lines = validate(cli, "sub.json").out.splitlines()[1:]
        assert any(line.startswith(f"  $.{key}: {key} lists nothing") for line in lines), lines
        assert any(line.startswith("  $.seed: seed 7 is not module") for line in lines), lines


@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_report_over_a_device_or_a_fifo_is_refused_and_it_is_left_as_it_was(cli, work, command):
    """``--junit-xml`` over a FIFO (or /dev/null, as root) was written beside it and renamed
    over it, replacing the device with a file (attack round 27): misuse, nothing replaced."""
    fifo = work / "pipe"
    os.mkfifo(fifo)
    (work / "sub.yaml").write_text(GOOD_YAML, encoding="utf-8")
    if command == "validate":
        result = validate(cli, "sub.yaml", "--junit-xml", "pipe")
    else:
        result = cli("run", str(MODULE), "-k", "support.gpt2-vocab-32", "--junit-xml", "pipe")
    assert result.code == 2 and "a device, a FIFO or a socket" in result.err, result.err
    assert stat_is_fifo(fifo)
    # a link to one, as /dev/stdout is to /proc/self/fd/1, is not replaced either (round 28)
    (work / "stdout").symlink_to(fifo)
    if command == "validate":
        result = validate(cli, "sub.yaml", "--junit-xml", "stdout")
    else:
        result = cli("run", str(MODULE), "-k", "support.gpt2-vocab-32", "--junit-xml", "stdout")
    assert result.code == 2 and (work / "stdout").is_symlink()


def stat_is_fifo(path: Path) -> bool:
    import stat

    return stat.S_ISFIFO(os.lstat(path).st_mode)


def test_a_partial_clone_lacking_a_blob_it_would_fetch_holds_the_artifact(cli, work):
    """A blobless clone (git clone --filter=blob:none) has not fetched an older commit's
    files: git show fetches one when asked. The absent-contents rule refused honest work
    there (attack round 28); a repository with a promisor pack counts such a blob as held."""
    source = work / "repo"
    git(source, "config", "uploadpack.allowFilter", "true")
    (source / ARTIFACT).write_text('{"run": 2}\n', encoding="utf-8")
    git(source, "commit", "-q", "-am", "run 2")
    subprocess.run(
        ["git", "clone", "-q", "--filter=blob:none", f"file://{source}", str(work / "clone")],
        check=True, capture_output=True,
        env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull},
    )  # fmt: skip
    assert list((work / "clone" / ".git" / "objects" / "pack").glob("*.promisor"))
    assert validate(cli, submit(work, LEARNER_HEAD), "--repo", "clone").code == 0
