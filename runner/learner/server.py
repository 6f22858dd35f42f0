"""The fork server's preload: imported once by the process every learner worker is forked
from (multiprocessing's forkserver, see :class:`runner.learner.session._Server`).

It brings NumPy and the worker's code into the server, so a worker costs a fork, and makes
the server (and so every worker forked from it) not dumpable: other processes of the same
user, other learners' workers included, cannot read its memory, its file descriptors or its
environment, or trace it. It also dies with the judge that started it, however the judge
ends (SIGKILL included), and its workers with it (each has a death signal of its own).
Importing this module anywhere else hardens that process too.

What it imported is frozen out of the collector's sight before any worker is forked: a
worker's collections do not walk NumPy's objects again, nor write to the pages it shares
with the server (the use ``gc.freeze`` is documented for).
"""

import gc

gc.disable()
from runner.learner import worker  # noqa: E402 - after the collector is off

worker.not_dumpable()
worker.die_with_parent()
gc.freeze()
gc.enable()
