"""Prints terminal escape sequences (clear the screen, go home, a fake summary over the
runner's lines), then raises an exception whose class name and message are escapes too."""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    print("\x1b[2J\x1b[H25 passed, 0 failed\r\x1b[8m")
    trick = type("\x1b[32mOK\x1b[0m", (Exception,), {})
    raise trick("\x1b[1A\x1b[2Kall good\rpassed")
