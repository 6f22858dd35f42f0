"""Prints 100 MB at import (stdout, stderr, raw fds); every function right."""

import os
import sys

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)

for _ in range(500):
    sys.stdout.write("x" * 100_000)
    sys.stderr.write("y" * 100_000)
os.write(1, b"raw fd 1\n")
os.write(2, b"raw fd 2\n")
