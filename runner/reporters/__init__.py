"""Reporters: they render results they are given, in the language they are given.

Text (:mod:`.text`), JSON (:mod:`.json_out`), JUnit XML (:mod:`.junit`), an HTML page
(:mod:`.html`) and Gradescope's results.json (:mod:`.gradescope`); the pytest plugin
(:mod:`runner.pytest_plugin`) is one too. None of them judges anything again.
"""
