"""Chapter 5's pack: softmax and bigram counting, written against the engine's pack
interface only (``runner.pack``), as a course maintainer would write a pack of their own.

``module.yaml`` names this folder (``pack: ./pack``); the engine imports it under a private
name, so its modules import each other relatively.
"""

from runner.pack import Pack, Scaffold

pack = Pack(
    "softmax-basics",
    scaffold=Scaffold(
        contract={
            "zh": "每个函数都不修改参数；无效参数抛出 ValueError；结果是 float64（计数是整数）。",
            "en": (
                "Every function leaves its arguments as they were; invalid arguments raise "
                "ValueError; results are float64 (counts are integers)."
            ),
        },
        preamble="import itertools\n\nimport numpy as np\n",  # what the functions use
    ),
)

from . import checks, faults, generators, reference  # noqa: E402  (they register into pack)

__all__ = ["checks", "faults", "generators", "pack", "reference"]
