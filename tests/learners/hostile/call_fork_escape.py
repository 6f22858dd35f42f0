"""Forks a grandchild in a session (or where denied, a process group) of its own, outside the
worker's process group, that sleeps forever;
answers right. The grandchild names itself (its comm) so a test can look for it from outside
the worker's process namespace.
"""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)
from reference_impl import logits_memory_bytes as _right  # the contract\'s answer


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import ctypes
    import os
    import time

    name = f"lrn{os.urandom(5).hex()}"
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
        except OSError:  # the worker's filter denies a session (a share of the CPU) of its own
            os.setpgid(0, 0)  # out of the worker's process group, then
        grandchild = os.fork()
        if grandchild == 0:
            ctypes.CDLL(None).prctl(15, name.encode(), 0, 0, 0)  # PR_SET_NAME
            time.sleep(1e9)
        os._exit(0)
    os.waitpid(pid, 0)
    print(f"grandchild {name}")
    return _right(batch, length, vocab, bytes_per_value)
