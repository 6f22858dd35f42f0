"""time.sleep(1e9) at import: a wait in C, bounded by --timeout."""

import time

time.sleep(1e9)
