"""A segmentation fault at import."""

import ctypes

ctypes.string_at(0)
