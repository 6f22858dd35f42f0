"""os._exit(0) at import: the worker ends before answering."""

import os

os._exit(0)
