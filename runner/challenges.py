"""Challenge claims for a module: inputs from a nonce, expected values from the reference."""

from __future__ import annotations

import copy
import hashlib
import warnings
from typing import Any

import numpy as np

from runner.errors import UsageError
from runner.i18n import msg
from runner.judge import to_plain
from runner.load import ClaimPack, LoadedClaim
from runner.models import Claim, Text
from runner.pack import Registry

STAGE = Text(zh="挑战", en="challenge")
MAX_NONCE = 200


def nonce_rng(nonce: str) -> np.random.Generator:
    """The generator a nonce seeds: the same inputs wherever the nonce is given."""
    digest = hashlib.sha256(nonce.encode("utf-8")).digest()
    return np.random.default_rng(int.from_bytes(digest[:16], "big"))


def course_challenges(packs: list[ClaimPack], nonce: str) -> dict[str, list[LoadedClaim]]:
    """Module id -> its challenge claims for ``nonce``, for every module that has a
    challenge: a course whose other modules have none still gets its challenges. A usage
    error when no module has one (a nonce nothing uses is a grader's mistake to hear of)."""
    if not nonce or len(nonce) > MAX_NONCE or not nonce.isprintable():
        raise UsageError("use.bad_nonce", limit=MAX_NONCE)
    _refuse_misnamed(packs)
    having = [p for p in packs if p.meta.id in p.code.registry.challenges]
    if packs and not having:
        raise UsageError("use.no_challenge", module=", ".join(p.meta.id for p in packs))
    return {p.meta.id: challenge_claims(p, nonce, p.code.registry) for p in having}


def _refuse_misnamed(packs: list[ClaimPack]) -> None:
    """A challenge registered under an id close to, and not, the id of a loaded module its
    pack serves is a misspelt id: without this its module would silently get no challenge.
    (An id far from every loaded module may belong to a module of the pack not in this run.)"""
    import difflib

    loaded = {p.meta.id for p in packs}
    for pack in packs:
        if pack.meta.id in pack.code.registry.challenges:
            continue
        stray = [m for m in pack.code.registry.challenges if m not in loaded]
        close = difflib.get_close_matches(pack.meta.id, stray, n=1, cutoff=0.8)
        if close and close[0] not in _beside(pack):  # 24-design-tradeoffs, not loaded, is one
            generate = pack.code.registry.challenges[close[0]]
            from runner.pack.find import defined_at

            raise UsageError(
                "use.challenge_misnamed",
                module=pack.meta.id,
                registered=close[0],
                where=defined_at(generate),
            )


def _beside(pack: ClaimPack) -> set[str]:
    """The ids of the modules in the folders beside ``pack``'s (a course's other chapters)."""
    from runner.load import MODULE_FILE, read_yaml

    ids: set[str] = set()
    try:
        files = [d / MODULE_FILE for d in pack.directory.parent.iterdir() if d != pack.directory]
    except OSError:
        return ids
    for file in files:
        # the loader's own reader: a regular file within its size limit (never a FIFO read)
        doc = read_yaml(file, []) if file.exists() else None
        meta = doc.data if doc is not None else None
        if isinstance(meta, dict) and isinstance(meta.get("id"), str):
            ids.add(meta["id"])
    return ids


def challenge_claims(pack: ClaimPack, nonce: str, registry: Registry) -> list[LoadedClaim]:
    """The module's challenge claims for ``nonce``, each expecting the reference's value."""
    if not nonce or len(nonce) > MAX_NONCE or not nonce.isprintable():
        raise UsageError("use.bad_nonce", limit=MAX_NONCE)
    generate = registry.challenges.get(pack.meta.id)
    if generate is None:
        raise UsageError("use.no_challenge", module=pack.meta.id)
    reference = registry.reference()
    out = []
    try:
        made = list(generate(nonce_rng(nonce)))
    except Exception as exc:  # the pack's challenge itself: its author is told where
        from runner.pack.find import own_frame

        message = (str(exc).strip().splitlines() or [""])[0][:300]
        raise UsageError(
            "use.challenge_raised",
            module=pack.meta.id,
            error=type(exc).__name__,
            message=message,
            where=own_frame(exc),
        ) from None
    from runner.pack.find import defined_at
    from runner.validate import input_problems

    where = defined_at(generate)
    taken = {c.claim.id for c in pack.claims}  # a claim file's id, or one made before
    for index, raw in enumerate(made):
        try:
            if isinstance(raw, dict) and raw.get("id") in taken:
                raise UsageError(
                    "use.bad_challenge", module=pack.meta.id, where=where,
                    which=_which(raw, index), problem=msg("challenge.id_taken"),
                )  # fmt: skip
            if isinstance(raw, dict) and any(
                isinstance(e, dict) and e.get("value") is not None for e in raw.get("expect") or []
            ):  # the reference computes it: one written here would be silently replaced
                raise UsageError(
                    "use.bad_challenge", module=pack.meta.id, where=where,
                    which=_which(raw, index), problem=msg("challenge.value_given"),
                )  # fmt: skip
            spec = registry.resolve_check(raw["check"])
            found = input_problems(spec, raw["inputs"]) if isinstance(raw["inputs"], dict) else []
            if found:  # as a claim file's inputs are checked, before anything runs
                field, said, _ = found[0]
                raise UsageError(
                    "use.bad_challenge", module=pack.meta.id, where=where,
                    which=_which(raw, index),
                    problem=msg("challenge.input", field=field, message=said),
                )  # fmt: skip
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                measured = spec.call(
                    reference.restricted(spec.needs), raw["inputs"], rng=None, registry=registry
                )
            filled: dict[str, Any] = copy.deepcopy(raw)
            proposition = int(filled.pop("proposition"))
            for exp in filled["expect"]:
                exp["value"] = to_plain(measured[exp["measure"]])
            claim = Claim.model_validate(filled)
        except UsageError:
            raise
        except Exception as exc:  # the pack's challenge is wrong: its author is told where
            problem = (str(exc).strip().splitlines() or [""])[0][:300]
            if isinstance(exc, KeyError):
                problem = f"no {exc.args[0]!r}" if exc.args else "a missing field"
            raise UsageError(
                "use.bad_challenge", module=pack.meta.id, where=where, which=_which(raw, index),
                problem=problem,
            ) from None  # fmt: skip
        out.append(LoadedClaim(claim, "<challenge>", None, proposition, STAGE))
        taken.add(claim.id)
    return out


def _which(raw: Any, index: int) -> str:
    """A made claim as its author knows it: by its id, else by its place (counted from 1)."""
    if isinstance(raw, dict) and isinstance(raw.get("id"), str) and raw["id"].isprintable():
        return repr(raw["id"][:80])
    return f"#{index + 1}"


def challenge_record(nonce: str, claims: list[LoadedClaim]) -> dict[str, Any]:
    """The evidence's ``challenge`` block: the nonce and the inputs it produced."""
    return {"nonce": nonce, "inputs": {c.claim.id: c.claim.inputs for c in claims}}
