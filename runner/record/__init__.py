"""Record: results -> an evidence document (build) -> schema -> a locked, atomic write and
the manifest (write); and whether a fresh run reproduces committed evidence (drift)."""

from runner.record.build import build_evidence, to_json_data
from runner.record.drift import Drift, drift
from runner.record.schema import schema_problems
from runner.record.write import (
    MANIFEST_NAME,
    Recorded,
    evidence_name,
    learner_variants,
    read_json,
    record_evidence,
    refuses_now,
    same_assertions,
    write_evidence,
    write_text_atomic,
)

__all__ = [
    "MANIFEST_NAME",
    "Drift",
    "Recorded",
    "build_evidence",
    "drift",
    "evidence_name",
    "learner_variants",
    "read_json",
    "record_evidence",
    "refuses_now",
    "same_assertions",
    "schema_problems",
    "to_json_data",
    "write_evidence",
    "write_text_atomic",
]
