"""A blocking os.read on a pipe nobody writes to, at import."""

import os

r, w = os.pipe()
os.read(r, 1)
