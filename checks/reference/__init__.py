"""The reference implementation of chapter 23's functions, under the chapter's names.

Importing this package registers every function as a subject in :data:`checks.registry.REGISTRY`.
"""

from checks.reference import attention, beyond, memory, params, sampling, support

__all__ = ["attention", "beyond", "memory", "params", "sampling", "support"]
