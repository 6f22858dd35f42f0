"""Returns an object whose __repr__, __len__, __iter__ and __int__ raise."""

from reference_impl import *  # noqa: F403  (every function right; one is replaced below)


def logits_memory_bytes(batch, length, vocab, bytes_per_value=4):
    class Trap:
        def __repr__(self):
            raise RuntimeError("repr")

        def __len__(self):
            raise RuntimeError("len")

        def __iter__(self):
            raise RuntimeError("iter")

        def __int__(self):
            raise RuntimeError("int")

    return Trap()
