"""``python -m runner`` and the ``learn-llm-claims`` script."""

import os
import sys


def run() -> None:
    # The runner uses no pydantic plugin. Without this, building the first model class scans
    # the entry points of every installed distribution for one (~10 ms of every run); a
    # value the user set is kept.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    from runner.cli import main, stop_on_sigterm

    stop_on_sigterm()
    sys.exit(main())


if __name__ == "__main__":
    run()
