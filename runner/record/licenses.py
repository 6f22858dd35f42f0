"""Who made what a run depended on: versions and licenses, read from installed metadata
(:mod:`runner.distributions`)."""

from __future__ import annotations

import functools

from runner.distributions import headers_of

NOT_REDISTRIBUTED = "used as an installed dependency; not redistributed with this evidence"
# distribution -> the module it installs
RUNTIME_DEPENDENCIES = {
    "numpy": "numpy",
    "pydantic": "pydantic",
    "pyyaml": "yaml",
    "jsonschema-rs": "jsonschema_rs",
    "threadpoolctl": "threadpoolctl",
    "dulwich": "dulwich",
}
PRODUCER = "learn-llm-claims"


@functools.cache
def own_version() -> str:
    found = headers_of(PRODUCER, "runner")
    return found["version"][0] if found and found.get("version") else "0+unknown"


@functools.cache
def dependency_licenses() -> list[dict[str, str]]:
    out = []
    for dist, module in RUNTIME_DEPENDENCIES.items():
        meta = headers_of(dist, module)
        if meta is None:
            continue
        first = {k: v[0] for k, v in meta.items() if v}
        license_ = first.get("license-expression") or first.get("license") or ""
        if not license_:
            classifiers = [c for c in meta.get("classifier", []) if c.startswith("License ::")]
            license_ = classifiers[0].rsplit("::", 1)[-1].strip() if classifiers else "see package"
        author = first.get("author") or _names(first.get("author-email")) or dist
        out.append(
            {
                "source": dist,
                "version": first.get("version", "?"),
                "license": license_.splitlines()[0][:120] or "see package",
                "attribution": author.splitlines()[0][:120] or dist,
                "redistribution": NOT_REDISTRIBUTED,
            }
        )
    return out


def _names(addresses: object) -> str:
    """'Ann <a@x>, Bob <b@y>' -> 'Ann, Bob': attribution without e-mail addresses."""
    if not isinstance(addresses, str):
        return ""
    names = [part.split("<")[0].strip().strip('"') for part in addresses.split(",")]
    names = [n for n in names if n and "@" not in n]
    return ", ".join(names[:3]) + (" et al." if len(names) > 3 else "")
