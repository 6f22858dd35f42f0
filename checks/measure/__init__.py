"""Check functions: each takes the implementation being judged and returns measurements.

Importing this package registers every check in :data:`checks.registry.REGISTRY`.
"""

from checks.measure import attention, challenge, memory, params, sampling, support

__all__ = ["attention", "challenge", "memory", "params", "sampling", "support"]
