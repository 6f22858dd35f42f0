"""Tries to reach the judge and the fork server: write into their output, read their memory and
environment, signal the judge; prints what it could do, and answers right.
"""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)
from reference_impl import logits_memory_bytes as _right  # the contract\'s answer


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import os

    def ppid(pid):
        with open(f"/proc/{pid}/status") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("PPid:"))

    server = os.getppid()
    judge = ppid(server) if server > 0 else 0  # 0: outside this worker's process namespace
    report = [f"uid {os.getuid()} judge {judge} server {server}"]
    for pid in (server, judge):
        for what, mode in (("fd/1", "wb"), ("fd/2", "wb"), ("environ", "rb"), ("mem", "rb")):
            try:
                with open(f"/proc/{pid}/{what}", mode) as fh:
                    fh.write(b"INJECTED") if mode == "wb" else fh.read(64)
                report.append(f"OPENED /proc/{pid}/{what}")
            except OSError as exc:
                report.append(f"/proc/{pid}/{what}: {type(exc).__name__}")
    try:
        if judge <= 0:
            raise ProcessLookupError("the judge is not in this process namespace")
        os.kill(judge, 0)
        report.append("CAN SIGNAL THE JUDGE")
    except OSError as exc:
        report.append(f"signal: {type(exc).__name__}")
    for name, value in os.environ.items():
        report.append(f"env {name}={value}")
    print("\n".join(report))
    return _right(batch, length, vocab, bytes_per_value)
