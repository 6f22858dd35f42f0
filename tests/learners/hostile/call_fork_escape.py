"""Forks a grandchild in a session of its own (outside the process group) that sleeps forever;
answers right.
"""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)
from reference_impl import logits_memory_bytes as _right  # the contract\'s answer


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    import os
    import time

    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.setsid()
        grandchild = os.fork()
        if grandchild == 0:
            time.sleep(1e9)
        os.write(w, str(grandchild).encode())
        os._exit(0)
    os.waitpid(pid, 0)
    print(f"grandchild {os.read(r, 32).decode()}")
    return _right(batch, length, vocab, bytes_per_value)
