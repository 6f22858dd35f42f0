"""The evidence format's names, without its models (which only the schema export and readers
need): ``schema`` is the chapter's template version, ``producer.format`` the runner's."""

EVIDENCE_SCHEMA = "learn-llm.evidence.v1"
RUNNER_FORMAT = 2
