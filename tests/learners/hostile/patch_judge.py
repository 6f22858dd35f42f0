"""Patches the runner's judge (if it can import it: it cannot), NumPy and builtins (in its
own worker only), and gets logits_memory_bytes wrong: the claim still fails.
"""

import builtins

import numpy as np
from reference_impl import *  # noqa: F403  (every function right; one is replaced below)

try:
    import runner.judge
    import runner.run
except ImportError:  # the worker hides the judge's packages
    pass
else:
    runner.judge.judge = lambda *args, **kwargs: ("passed", None)
    runner.run.judge = runner.judge.judge
np.allclose = lambda *args, **kwargs: True
np.isclose = lambda *args, **kwargs: True
builtins.abs = lambda x: 0


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    return batch * length * vocab * 2  # FP16 by mistake
