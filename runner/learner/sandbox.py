"""What a worker does to itself so that nothing of the grader's is reachable (Linux).

Run by the worker before any of the learner's code, with nothing but the standard library and
ctypes (this module imports nothing of the judge):

* **namespaces** (:func:`enter_namespaces`): new mount, process (PID), network, IPC and UTS
  namespaces; as an ordinary user inside a new user namespace, which is what lets it make
  them. The worker process itself stays outside the new process namespace and only waits:
  its child is process 1 there, and runs the learner's code. Everything the learner's code
  starts lives in that namespace and dies with process 1 (the kernel kills the rest), and it
  cannot name, signal or trace any process outside it.
* **a private root** (:func:`private_root`): a small tmpfs holding only what Python needs,
  bound read-only at the paths the interpreter already uses: the interpreter's own prefix
  (the standard library), NumPy's package folder, the system's libraries (``/usr``,
  ``/lib*``, ``/etc/ld.so.cache``) and four devices; the learner's private copy of its
  submission at ``/submission`` (read-only); a fresh ``/proc`` of its own namespace; and
  ``/tmp`` and ``/dev/shm`` as tmpfs of bounded size and files, gone with the namespace. No
  claim file, pack, evidence or results folder, other learner's file, or the judge's current
  directory is there: any that lies inside a bound folder is covered by an empty tmpfs.
  The root is then made read-only, the old one detached.
* **Landlock** (:func:`landlock`), where namespaces are refused (a container that forbids
  them): the same folders, by rule, for a worker in the grader's own file system, with
  signals and abstract sockets scoped to the worker (Landlock ABI 6) and TCP refused (4).

Each returns what it achieved or raises :class:`Unavailable` saying why not; the worker
reports every guarantee it could not give, so the run says it on stderr and in its results.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import platform
import stat
import struct
import sys
import sysconfig
from collections.abc import Iterable

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000

MS_RDONLY = 1
MS_NOSUID = 2
MS_NODEV = 4
MS_NOEXEC = 8
MS_REMOUNT = 32
MS_NOATIME = 1024
MS_NODIRATIME = 2048
MS_BIND = 4096
MS_MOVE = 8192
MS_REC = 16384
MS_PRIVATE = 1 << 18
MS_RELATIME = 1 << 21
MNT_DETACH = 2
# statvfs's flags of a mount, which a remount inside a user namespace must keep
_KEPT_FLAGS: tuple[tuple[int, int], ...] = (
    (1, MS_RDONLY),
    (2, MS_NOSUID),
    (4, MS_NODEV),
    (8, MS_NOEXEC),
    (1024, MS_NOATIME),
    (2048, MS_NODIRATIME),
    (4096, MS_RELATIME),
)
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}
DEVICES = ("null", "zero", "random", "urandom")
SUBMISSION = "/submission"  # where the learner's private copy is, inside its root
NEW_ROOT_MIB = 4  # the root's own tmpfs holds only empty folders
# Files (inodes) each tmpfs may hold. An inode and its extended attributes are kernel memory
# that size= does not count: 300,000 empty files with a 4 kB attribute each held 1.4 GiB
# outside --memory-mib and the OOM killer's view. The root holds the mount points only.
ROOT_INODES = 4096
TMP_INODES = 1024


class Unavailable(Exception):
    """A guarantee this machine cannot give (no namespaces, no Landlock): why."""


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> int:
    if result < 0:
        code = ctypes.get_errno()
        raise OSError(code, f"{what}: {os.strerror(code)}")
    return result


# -- namespaces ---------------------------------------------------------------------------------
def enter_namespaces(as_root: bool) -> None:
    """Unshare mount, PID, network, IPC and UTS namespaces (and, for an ordinary user, a
    user namespace first, mapping only its own ids). The next child is process 1 of the new
    process namespace. Unavailable when the kernel or a container refuses."""
    if not sys.platform.startswith("linux"):
        raise Unavailable("not Linux")
    flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS
    uid, gid = os.getuid(), os.getgid()
    if not as_root:
        flags |= CLONE_NEWUSER
    libc = _libc()
    if libc.unshare(flags) != 0:
        code = ctypes.get_errno()
        raise Unavailable(f"unshare: {os.strerror(code)} ({errno.errorcode.get(code, code)})")
    if not as_root:  # the same ids inside, so files keep their owner; no other id exists
        # a process that is not dumpable has /proc/self owned by root: for these three
        # writes it is dumpable again (no learner's code has run yet, and no learner's
        # worker can see this process: each is in a process namespace of its own)
        libc.prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE
        try:
            _write("/proc/self/setgroups", "deny")
            _write("/proc/self/uid_map", f"{uid} {uid} 1")
            _write("/proc/self/gid_map", f"{gid} {gid} 1")
        except OSError as exc:
            raise Unavailable(f"user namespace ids: {exc.strerror}") from None
        finally:
            libc.prctl(4, 0, 0, 0, 0)


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)


def _mount(source: str | None, target: str, fstype: str | None, flags: int, data: str = "") -> None:
    libc = _libc()
    result = libc.mount(
        source.encode() if source is not None else None,
        target.encode(),
        fstype.encode() if fstype is not None else None,
        ctypes.c_ulong(flags),
        data.encode() if data else None,
    )
    _check(result, f"mount {target}")


def _tmpfs(target: str, size: str, inodes: int, mode: str) -> None:
    """A tmpfs at ``target`` bounded in bytes and in files (an inode and its extended
    attributes are kernel memory that size= does not count)."""
    _mount(
        "tmpfs",
        target,
        "tmpfs",
        MS_NOSUID | MS_NODEV,
        f"size={size},nr_inodes={inodes},mode={mode}",
    )


def _kept_flags(path: str) -> int:
    try:
        f_flag = os.statvfs(path).f_flag
    except OSError:
        return 0
    return sum(ms for st, ms in _KEPT_FLAGS if f_flag & st)


def _bind(source: str, target: str, writable: bool = False) -> None:
    _mount(source, target, None, MS_BIND | MS_REC)
    flags = MS_REMOUNT | MS_BIND | MS_NOSUID | _kept_flags(target)
    if not writable:
        flags |= MS_RDONLY
    _mount(None, target, None, flags)


def _within(path: str, folders: Iterable[str]) -> bool:
    return any(path == f or path.startswith(f.rstrip("/") + "/") for f in folders)


def _nested_out(paths: Iterable[str]) -> list[str]:
    """Real paths of the existing folders among ``paths``, none inside another."""
    found = sorted({os.path.realpath(p) for p in paths if p and os.path.isdir(p)}, key=len)
    out: list[str] = []
    for path in found:
        if path != "/" and not _within(path, out):
            out.append(path)
    return out


def _standard_library() -> list[str]:
    """The interpreter's standard library and its compiled modules (lib-dynload): the base
    installation's, never a virtual environment's folders."""
    stdlib = os.path.dirname(os.path.abspath(os.__file__))
    base = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix,
            "installed_base": sys.base_prefix, "installed_platbase": sys.base_exec_prefix}  # fmt: skip
    platstdlib = sysconfig.get_path("platstdlib", vars=base) or stdlib
    return [stdlib, platstdlib, os.path.join(platstdlib, "lib-dynload")]


def numpy_folders() -> list[str]:
    """NumPy's package folder, and the libraries a manylinux wheel bundles beside it."""
    import numpy  # already imported by the fork server

    here = os.path.dirname(os.path.abspath(numpy.__file__))
    return _nested_out([here, here + ".libs"])


def site_folders() -> list[str]:
    """Every folder third-party packages are installed in (the base's, a virtual
    environment's, the user's, the system's): covered in the worker's root, where a
    course's engine or packs may be installed; NumPy alone is bound back inside."""
    import site

    found = [*site.getsitepackages(), site.getusersitepackages()]
    for scheme_vars in ({}, {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}):
        for key in ("purelib", "platlib"):
            found.append(sysconfig.get_path(key, vars=scheme_vars or None))
    found += [p for p in sys.path if p.rstrip("/").endswith(("site-packages", "dist-packages"))]
    return _nested_out(found)


def readable_folders() -> list[str]:
    """What the learner's code may read: the standard library, the system's libraries and
    NumPy (site folders excepted: see :func:`site_folders`)."""
    system = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"]
    return _nested_out([*_standard_library(), *system, *numpy_folders()])


def private_root(root: str, submission: str, hidden: Iterable[str], tmp_mib: int) -> list[str]:
    """Make ``root`` (an empty folder) the only file system this process and its children
    see: see the module docstring. ``submission`` is the host folder of the learner's
    private copy; ``hidden`` the judge's folders to cover where a bound folder holds them.
    Returns what could not be mounted (an optional part: a fresh /proc)."""
    lacking: list[str] = []
    _mount(None, "/", None, MS_REC | MS_PRIVATE)  # nothing done here reaches the host
    _tmpfs(root, f"{NEW_ROOT_MIB}m", ROOT_INODES, "755")
    # the worker's own /tmp and /dev/shm first: a library folder that lives below /tmp on
    # the host (a virtual environment in /tmp) is then bound inside it, not covered by it
    for name in ("tmp", "dev/shm"):
        os.makedirs(root + "/" + name, exist_ok=True)
        _tmpfs(root + "/" + name, f"{tmp_mib}m", TMP_INODES, "1777")
    system = ["/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"]
    readable = _nested_out([*_standard_library(), *system])
    for link in system:  # /bin -> usr/bin, /lib64 -> usr/lib64 (the loader's path): as on the host
        if os.path.islink(link):
            os.symlink(os.readlink(link), root + link)
    for folder in readable:
        target = root + folder
        os.makedirs(target, exist_ok=True)
        _bind(folder, target)
    # the judge's folders, and every site folder, wherever a bound folder holds them: empty
    covers = [f for f in _nested_out([*hidden, *site_folders()]) if _within(f, readable)]
    for folder in covers:
        if os.path.isdir(root + folder):
            _tmpfs(root + folder, "64k", 64, "755")
    for folder in numpy_folders():  # NumPy, back inside its (covered) site folder
        os.makedirs(root + folder, exist_ok=True)
        _bind(folder, root + folder)
    for folder in covers:
        if os.path.isdir(root + folder):
            _mount(None, root + folder, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    cache = "/etc/ld.so.cache"  # where the loader finds libraries a new extension needs
    if os.path.isfile(cache):
        os.makedirs(root + "/etc", exist_ok=True)
        _touch(root + cache)
        _bind(cache, root + cache)
    os.makedirs(root + "/dev", exist_ok=True)
    for name in DEVICES:
        device = f"/dev/{name}"
        if os.path.exists(device) and stat.S_ISCHR(os.stat(device).st_mode):
            _touch(root + device)
            _bind(device, root + device, writable=True)
    os.makedirs(root + SUBMISSION)
    _bind(submission, root + SUBMISSION)
    os.makedirs(root + "/proc")
    flags = MS_NOSUID | MS_NODEV | MS_NOEXEC
    try:
        # its own processes only: the rest of /proc is the machine's (the count of processes
        # ever started in /proc/stat, the load, free memory), which a learner's code can move
        # and a later or concurrent worker read: a hidden claim's inputs reached a
        # classmate's visible output that way (Linux 5.8+)
        _mount("proc", root + "/proc", "proc", flags, "subset=pid")
    except OSError as exc:
        lacking.append(f"/proc of processes only: {exc.strerror}")
        try:
            _mount("proc", root + "/proc", "proc", flags)
        except OSError as again:
            lacking.append(f"/proc: {again.strerror}")
    _switch_root(root)
    _mount(None, "/", None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
    return lacking


def _touch(path: str) -> None:
    os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o644))


def _switch_root(root: str) -> None:
    """``root`` becomes ``/``; the old root is detached (pivot_root), or, where this
    module does not know pivot_root's number, moved under (MS_MOVE and chroot)."""
    number = SYS_PIVOT_ROOT.get(platform.machine())
    os.chdir(root)
    if number is not None:
        os.mkdir(".old")
        _check(_libc().syscall(number, b".", b".old"), "pivot_root")
        os.chdir("/")
        _check(_libc().umount2(b"/.old", MNT_DETACH), "umount /.old")
        os.rmdir("/.old")
        return
    _mount(root, "/", None, MS_MOVE)
    os.chroot(".")
    os.chdir("/")


def drop_capabilities() -> None:
    """No capability left (an ordinary user's worker is root of its user namespace until
    now: it could mount again). capset(2) with empty sets; bounding set emptied too."""
    libc = _libc()
    for cap in range(64):
        with contextlib.suppress(Exception):
            libc.prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP
    header = struct.pack("II", 0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = bytes(24)  # two {effective, permitted, inheritable} of 32 bits, all empty
    header_buf = ctypes.create_string_buffer(header, len(header))
    data_buf = ctypes.create_string_buffer(data, len(data))
    _check(libc.capset(header_buf, data_buf), "capset")


# -- Landlock -----------------------------------------------------------------------------------
LANDLOCK_CREATE_RULESET, LANDLOCK_ADD_RULE, LANDLOCK_RESTRICT_SELF = 444, 445, 446
_READ = 1 | 4 | 8  # execute, read a file, read a folder
_ALL_FS_V1 = (1 << 13) - 1
_REFER, _TRUNCATE, _IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15


def landlock(readable: Iterable[str], writable: Iterable[str], devices: Iterable[str]) -> str:
    """Restrict this process and its children to ``readable`` folders (read and execute),
    ``writable`` folders (anything) and ``devices`` (read and write); what was achieved,
    as ``landlock-abi-N``. Unavailable where the kernel has no Landlock."""
    if not sys.platform.startswith("linux"):
        raise Unavailable("not Linux")
    libc = _libc()
    abi = libc.syscall(LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    if abi < 1:
        raise Unavailable(f"Landlock: {os.strerror(ctypes.get_errno())}")
    handled = _ALL_FS_V1
    if abi >= 2:
        handled |= _REFER
    if abi >= 3:
        handled |= _TRUNCATE
    if abi >= 5:
        handled |= _IOCTL_DEV
    net = 3 if abi >= 4 else 0  # TCP bind and connect: none allowed
    scoped = 3 if abi >= 6 else 0  # abstract unix sockets and signals: own domain only
    attr = struct.pack("QQQ", handled, net, scoped)
    size = 8 if abi < 4 else (16 if abi < 6 else 24)
    buf = ctypes.create_string_buffer(attr[:size], size)
    ruleset = _check(
        libc.syscall(LANDLOCK_CREATE_RULESET, buf, ctypes.c_size_t(size), 0), "ruleset"
    )
    try:
        for folders, access in ((readable, _READ), (writable, handled), (devices, 2 | 4)):
            for path in folders:
                try:
                    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                except OSError:
                    continue
                try:
                    if not stat.S_ISDIR(os.fstat(fd).st_mode):
                        rights = access & (1 | 2 | 4 | _TRUNCATE | _IOCTL_DEV)
                    else:
                        rights = access
                    rule = struct.pack("=Qi", rights & handled, fd)
                    rule_buf = ctypes.create_string_buffer(rule, len(rule))
                    _check(libc.syscall(LANDLOCK_ADD_RULE, ruleset, 1, rule_buf, 0), "rule")
                finally:
                    os.close(fd)
        _check(libc.prctl(38, 1, 0, 0, 0), "no_new_privs")
        _check(libc.syscall(LANDLOCK_RESTRICT_SELF, ruleset, 0), "restrict_self")
    finally:
        os.close(ruleset)
    return f"landlock-abi-{abi}"


# -- system calls -----------------------------------------------------------------------------
# What no learner's function needs and the namespaces do not isolate, by architecture
# (audit arch, system call numbers): the kernel's keyrings (a user's keyring outlives the
# worker and is shared by every process of that user: a channel from a hidden claim's call to
# a later worker, a classmate's or the next run's); memory the process does not map, so that
# RLIMIT_AS and the OOM killer's view of it do not count it (memfd_create, memfd_secret,
# System V shared memory, message queues and semaphores, a tmpfs mounted in a user
# namespace of its own: unshare, setns, the mount calls and clone with a namespace flag, and
# sockets, whose buffers the kernel holds: a socketpair filled at SO_SNDBUF of 8 MiB per end
# held 2 GiB per process under --memory-mib 256);
# reading or writing other processes or their descriptors (ptrace, process_vm_*,
# pidfd_getfd, open_by_handle_at); and the kernel's larger surfaces (perf, bpf, userfaultfd,
# io_uring, modules, kexec); and what lets two workers that share no file, process or
# namespace signal each other through the files they may both read (the standard library,
# NumPy): locks on them (flock, and fcntl's lock commands, below), notifications of their
# use (inotify, fanotify, fcntl's F_NOTIFY and leases) and which of their pages are cached
# (mincore). A class run judges two learners at once: a hidden claim's inputs passed that
# way to a classmate's worker reached that classmate's visible output. And setsid: the worker
# starts a session of its own before the filter, and the kernel shares the CPU fairly among
# sessions (autogroups) first, so a learner whose 64 processes each started one took 64
# shares of the CPU to a classmate's one (a classmate's claim took 11x its wall time).
# And what reads the machine's state that a learner's code can change and another read
# later: sysinfo (processes, free memory) and statfs (a file system's free blocks, which
# the judge's own writes of a learner's output move). And vmsplice: the pages it gives a
# pipe stay held by the pipe once unmapped, in no process's memory (see FCNTL_DENIED). And
# what reads or changes which pages of the files every worker reads are cached, without a
# clock: fadvise (DONTNEED drops a file's pages), readahead, preadv2 and pwritev2 (RWF_NOWAIT
# says whether a page is cached), and madvise's MADV_COLD and MADV_PAGEOUT (below): a bit
# passed from one learner to the next, 10 times in 10, through a file under /usr.
# And three more counters and levers an attack round found (2026-12-07), each a hidden
# claim's input read in a classmate's visible output: the machine-wide count of AIO events
# (io_setup and its calls; unmapped rings also held 114 MiB in no process), the pid counter
# that a pidfd's inode number shows (pidfd_open; pidfd_send_signal with it), and
# process_madvise, madvise's MADV_COLD and MADV_PAGEOUT by another door.
# Numbers from the kernel's unistd headers.
DENIED_CALLS = {
    "x86_64": (
        0xC000003E,
        {
            "add_key": 248, "request_key": 249, "keyctl": 250, "memfd_create": 319,
            "memfd_secret": 447, "shmget": 29, "semget": 64, "msgget": 68,
            "unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155,
            "chroot": 161, "open_tree": 428, "move_mount": 429, "fsopen": 430,
            "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
            "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311,
            "pidfd_getfd": 438, "open_by_handle_at": 304,
            "perf_event_open": 298, "bpf": 321, "userfaultfd": 323, "io_uring_setup": 425,
            "io_uring_enter": 426, "io_uring_register": 427, "init_module": 175,
            "finit_module": 313, "delete_module": 176, "kexec_load": 246,
            "kexec_file_load": 320, "socket": 41, "socketpair": 53,
            "flock": 73, "inotify_init": 253, "inotify_init1": 294, "inotify_add_watch": 254,
            "fanotify_init": 300, "mincore": 27, "setsid": 112, "sysinfo": 99,
            "statfs": 137, "fstatfs": 138, "ustat": 136, "vmsplice": 278,
            "fadvise64": 221, "readahead": 187, "preadv2": 327, "pwritev2": 328,
            "io_setup": 206, "io_destroy": 207, "io_getevents": 208, "io_submit": 209,
            "io_cancel": 210, "io_pgetevents": 333, "pidfd_open": 434,
            "pidfd_send_signal": 424, "process_madvise": 440,
        },
    ),
    "aarch64": (
        0xC00000B7,
        {
            "add_key": 217, "request_key": 218, "keyctl": 219, "memfd_create": 279,
            "memfd_secret": 447, "shmget": 194, "semget": 190, "msgget": 186,
            "unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41,
            "chroot": 51, "open_tree": 428, "move_mount": 429, "fsopen": 430,
            "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
            "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271,
            "pidfd_getfd": 438, "open_by_handle_at": 265,
            "perf_event_open": 241, "bpf": 280, "userfaultfd": 282, "io_uring_setup": 425,
            "io_uring_enter": 426, "io_uring_register": 427, "init_module": 105,
            "finit_module": 273, "delete_module": 106, "kexec_load": 104,
            "kexec_file_load": 294, "socket": 198, "socketpair": 199,
            "flock": 32, "inotify_init1": 26, "inotify_add_watch": 27, "fanotify_init": 262,
            "mincore": 232, "setsid": 157, "sysinfo": 179, "statfs": 43, "fstatfs": 44,
            "vmsplice": 75, "fadvise64": 223, "readahead": 213, "preadv2": 286, "pwritev2": 287,
            "io_setup": 0, "io_destroy": 1, "io_submit": 2, "io_cancel": 3, "io_getevents": 4,
            "io_pgetevents": 292, "pidfd_open": 434, "pidfd_send_signal": 424,
            "process_madvise": 440,
        },
    ),
}  # fmt: skip
# clone makes a process (fork, threads): allowed unless its flags ask for a namespace, a
# pidfd, or the caller's parent as the new process's (CLONE_PARENT).
# clone3 passes its flags in memory, which a filter cannot read: it fails with ENOSYS, as on a
# kernel without it, and the C library then uses clone.
CLONE = {"x86_64": 56, "aarch64": 220}
# fcntl is allowed but for its lock, lease and notification commands (its second argument):
# F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, F_SETLEASE,
# F_GETLEASE, F_NOTIFY; and F_SETPIPE_SZ: a pipe of many slots, each holding a page given
# to it, is memory in no process (with vmsplice, denied above, 2 MiB huge pages: an attack
# held 4 GiB under --memory-mib 256, its processes' resident memory 32 MiB)
FCNTL = {"x86_64": 72, "aarch64": 25}
FCNTL_DENIED = (5, 6, 7, 36, 37, 38, 1024, 1025, 1026, 1031)
# madvise is allowed but for MADV_COLD and MADV_PAGEOUT (its third argument), which evict
# the pages of a file mapped by this process alone from the page cache every worker shares
MADVISE = {"x86_64": 28, "aarch64": 233}
MADVISE_DENIED = (20, 21)
# prctl is allowed but for PR_SET_DUMPABLE (its first argument): the worker makes itself not
# dumpable before the filter, and dumpable again its /proc/self/pagemap would say which
# pages of a shared file are cached (fault-around maps a cached page's neighbours)
PRCTL = {"x86_64": 157, "aarch64": 167}
PRCTL_DENIED = (4,)
CLONE3 = 435
NAMESPACE_FLAGS = 0x7E020080  # CLONE_NEW{NS, CGROUP, UTS, IPC, USER, PID, NET, TIME}
# CLONE_PIDFD hands back a pidfd without pidfd_open: its inode number counts every process
# the machine has started (a clock and a channel between learners, as pidfd_open's was)
CLONE_PIDFD = 0x00001000
# CLONE_PARENT makes the new process a sibling of its maker: outside a process namespace, a
# worker's sibling is a child of the fork server, out of the tree a kill walks and, given a
# process group of its own, out of the group too (an attack round, 2026-12-07, left it
# running after the judge ended). No fork, thread or posix_spawn of the C library asks it.
CLONE_PARENT = 0x00008000
CLONE_DENIED_FLAGS = NAMESPACE_FLAGS | CLONE_PIDFD | CLONE_PARENT
X32_BIT = 0x40000000  # x86_64's x32 system calls: the same calls under other numbers

# classic BPF, as seccomp(2) runs it on struct seccomp_data (nr at 0, arch at 4, the first
# argument at 16; its low 32 bits first on a little-endian machine)
_LD_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000
_ARG0_LOW = 16 if sys.byteorder == "little" else 20
_ARG1_LOW = _ARG0_LOW + 8
_ARG2_LOW = _ARG0_LOW + 16
PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2

Instruction = tuple[int, int, int, int]


def seccomp_program(machine: str) -> list[Instruction]:
    """The filter's instructions (code, jump if true, jump if false, k): every call of
    DENIED_CALLS fails with EPERM, as do fcntl's FCNTL_DENIED commands, madvise's
    MADVISE_DENIED advice, prctl's PRCTL_DENIED options, a clone that asks
    for a namespace or a pidfd, x32 calls on x86_64 and every call of another architecture (a 64-bit
    x86 process makes i386 calls with ``int 0x80`` without any exec, and ctypes can run
    those two bytes: with numbers of their own, they would reach every call denied here);
    clone3 fails with ENOSYS."""
    arch, calls = DENIED_CALLS[machine]
    numbers = sorted(set(calls.values()))
    # Written with named targets; a jump's offset counts the instructions it skips.
    body: list[tuple[int, str | int, str | int, int]] = [
        (_LD_ABS, 0, 0, 4),
        (_JEQ, 0, "deny", arch),
        (_LD_ABS, 0, 0, 0),
    ]
    if machine == "x86_64":
        body.append((_JGE, "deny", 0, X32_BIT))
    body.append((_JEQ, "nosys", 0, CLONE3))
    body += [(_JEQ, 0, "list", CLONE[machine]), (_LD_ABS, 0, 0, _ARG0_LOW)]
    body.append((_JSET, "deny", "allow", CLONE_DENIED_FLAGS))
    labels = {"list": len(body)}
    # calls allowed but for some values of one argument: fcntl's commands, madvise's advice
    by_argument = [
        (FCNTL, _ARG1_LOW, FCNTL_DENIED),
        (MADVISE, _ARG2_LOW, MADVISE_DENIED),
        (PRCTL, _ARG0_LOW, PRCTL_DENIED),
    ]
    for at, (call, argument, denied) in enumerate(by_argument):
        after = f"argument {at + 1}" if at + 1 < len(by_argument) else "numbers"
        body += [(_JEQ, 0, after, call[machine]), (_LD_ABS, 0, 0, argument)]
        body += [(_JEQ, "deny", 0, value) for value in denied]
        body.append((_JEQ, "allow", "allow", 0))  # every other value
        labels[after] = len(body)
    body += [(_JEQ, "deny", 0, number) for number in numbers]
    labels |= {"allow": len(body), "deny": len(body) + 1, "nosys": len(body) + 2}
    body += [(_RET, 0, 0, _ALLOW), (_RET, 0, 0, _ERRNO | errno.EPERM)]
    body.append((_RET, 0, 0, _ERRNO | errno.ENOSYS))

    def offset(at: int, target: str | int) -> int:
        return target if isinstance(target, int) else labels[target] - at - 1

    return [(code, offset(i, jt), offset(i, jf), k) for i, (code, jt, jf, k) in enumerate(body)]


def deny_calls() -> str:
    """Install :func:`seccomp_program` for this process and its children (after
    no_new_privs, which it needs); what was achieved, as ``seccomp-N``. Unavailable where
    the kernel or the architecture has no such filter here."""
    machine = platform.machine()
    if not sys.platform.startswith("linux") or machine not in DENIED_CALLS:
        raise Unavailable(f"no seccomp filter for {sys.platform} {machine}")
    program = seccomp_program(machine)
    filters = (ctypes.c_ubyte * (8 * len(program)))()
    for i, (code, jt, jf, k) in enumerate(program):
        struct.pack_into("=HBBI", filters, 8 * i, code, jt, jf, k)

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = Program(len(program), ctypes.addressof(filters))
    libc = _libc()
    _check(libc.prctl(38, 1, 0, 0, 0), "no_new_privs")
    _check(libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0), "seccomp")
    return f"seccomp-{len(DENIED_CALLS[machine][1])}"
