"""Validate learner submissions: untrusted YAML or JSON against the schema and the claims.

Every problem is reported at once as ``JSON path: message``, in the order of the file. A
submission is data only: it is read with limits, parsed safely, nothing in it is executed,
and nothing outside ``--repo`` is opened. The rooms: ``files`` (finding and reading),
``parse`` (bytes to plain data), the rules (``values``, ``schema``, ``metrics``,
``evidence``, ``provenance``, ``artifacts``; ``gitobjects`` reads the learner's commits),
and ``validator``, which runs them for one file.
"""

from runner.problems import Problem
from runner.submission.files import MAX_SUBMISSION_BYTES, SubmissionFile, submission_files
from runner.submission.parse import MAX_DEPTH, MAX_DIGITS
from runner.submission.problems import MAX_PROBLEMS, Report, json_path
from runner.submission.validator import Validator

__all__ = [
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_PROBLEMS",
    "MAX_SUBMISSION_BYTES",
    "Problem",
    "Report",
    "SubmissionFile",
    "Validator",
    "json_path",
    "submission_files",
]
