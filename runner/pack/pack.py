"""A pack: everything one chapter brings to the engine, under one object.

A pack is maintainers' code, trusted like the engine. It holds

* its **registry** (:class:`~runner.pack.registry.Registry`): reference functions
  (``@pack.subject``), checks (``@pack.check``), the module's faults and other learner
  mistakes (``@pack.twin``, ``@pack.mistake``), input generators (``@pack.generator``) and
  challenges (``@pack.challenge``);
* the **figures** its report draws (``@pack.figure``), from the claims of an evidence file
  and, for a learner's or a fault's, the reference's beside them (:class:`FigureData`);
* the **scaffold** a learner starts from: the contract text in both languages and the
  preamble of imports its functions' signatures need (:class:`Scaffold`);
* its words in both languages travel with what they describe: each twin's explanation, each
  figure's caption, the scaffold's contract (the claims' statements are in the claim files);
* where its **code** lives: the engine hides those packages from learners' code, so no
  learner can hand in the reference as their own.

The engine never reaches for a pack: a module's ``module.yaml`` names it, and
:mod:`runner.pack.find` finds it (a path beside the claims, an installed entry point in the
group ``learn_llm_claims.packs``, or an importable module) and hands it to the run.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from runner.pack.outcome import PackRefusedValue
from runner.pack.registry import Bilingual, Precision, Registry, bilingual

if TYPE_CHECKING:
    from matplotlib.figure import Figure

F = TypeVar("F", bound=Callable[..., Any])
# claim id -> that claim's record in an evidence file (as JSON data)
ClaimRecords = Mapping[str, Mapping[str, Any]]
DrawFn = Callable[["FigureData"], "Figure | None"]


@dataclass(frozen=True)
class FigureData:
    """What a figure is drawn from: records, never a new run.

    ``claims`` are the claims of the evidence the page shows; ``reference`` those of the
    module's reference evidence for the same claim pack when the page shows another
    implementation (a learner's file, a fault), so that a figure can draw the learner's
    values beside the reference's; None on the reference's own page, or when no such
    evidence was found. ``lang`` is the reader's: labels drawn in the figure are picked in
    it (:meth:`pick`).
    """

    claims: ClaimRecords
    reference: ClaimRecords | None = None
    lang: Literal["zh", "en"] = "zh"

    def pick(self, text: Bilingual) -> str:
        return str(text.get(self.lang) or text.get("en") or "")


@dataclass(frozen=True)
class Scaffold:
    """What the scaffold of a module of this pack says before its functions.

    ``contract`` is the general rules every function keeps (a paragraph or a list, in both
    languages); ``preamble`` is Python code the signatures need (imports, type aliases);
    ``helpers`` are the modules whose private helpers a reference scaffold may copy (the
    reference functions' ``_integer``, ``_softmax_last``), by module name prefix.
    ``docstrings`` gives a function's docstring in another language than the reference's own
    (language -> function name -> docstring): a scaffold in that language uses it, and a
    function or language it does not name keeps the reference's docstring.
    """

    contract: Bilingual = field(default_factory=lambda: {"zh": "", "en": ""})
    preamble: str = "import numpy as np\n"
    helpers: tuple[str, ...] = ()
    docstrings: Mapping[str, Mapping[str, str]] = field(default_factory=dict)

    def docstring(self, lang: str, function: str) -> str | None:
        """The docstring of ``function`` in ``lang``, when the pack gives one."""
        return self.docstrings.get(lang, {}).get(function)


@dataclass(frozen=True)
class FigureSpec:
    """A figure of the pack's report: drawn from :class:`FigureData`, captioned in both
    languages. ``draw`` returns None when the evidence lacks what it needs."""

    name: str
    caption: Bilingual
    draw: DrawFn
    claims: tuple[str, ...] = ()  # the claims it draws from (to say which are missing)


class Pack:
    """One chapter's pack. Create one in the pack's package and register into it::

        from runner.pack import Implementation, Measurements, Pack

        pack = Pack("softmax-basics")

        @pack.subject("softmax")
        def softmax(x): ...

        @pack.check("softmax_sums_to_one", needs=("softmax",), measures=("max_error",))
        def softmax_sums_to_one(impl: Implementation, n: int) -> Measurements: ...

    ``code`` names the packages that hold the pack's own code (hidden from learners'
    workers); by default, the top-level package of the module that creates the pack.
    """

    def __init__(
        self,
        name: str,
        *,
        scaffold: Scaffold | None = None,
        code: tuple[str, ...] | None = None,
    ) -> None:
        self.name = name
        self.registry = Registry()
        if scaffold is not None and any(scaffold.contract.get(k) for k in ("zh", "en")):
            # no contract at all is allowed (the default); one is in both languages
            bilingual(scaffold.contract, f"pack {name!r}: Scaffold(contract=...)")
        self.scaffold = scaffold or Scaffold()
        self.figures: dict[str, FigureSpec] = {}
        if code is None:
            caller = inspect.stack()[1].frame.f_globals.get("__name__", "")
            code = (caller.partition(".")[0],) if caller and caller != "__main__" else ()
        self.code = code

    # -- registration: the registry's decorators ----------------------------------------
    def subject(self, name: str, *, uses: tuple[str, ...] = ()) -> Callable[[F], F]:
        """A reference function under the chapter's name; ``uses`` the subjects it calls
        (they arrive as keyword-only arguments, so a fault in one reaches its callers)."""
        return self.registry.subject(name, uses=uses)

    def check(
        self,
        name: str,
        *,
        needs: tuple[str, ...],
        measures: tuple[str, ...],
        context: tuple[str, ...] = (),
        precision: Mapping[str, Precision] | None = None,
        subject_input: str | None = None,
        blames: Mapping[str, tuple[str, ...]] | None = None,
    ) -> Callable[[F], F]:
        """A check: ``fn(impl, **inputs) -> {measure: value}``; ``needs`` the subjects it
        calls (the only ones it may), ``measures`` what it returns; ``blames`` the subjects
        a measure's failure is laid at, where it is not all of ``needs``."""
        return self.registry.check(
            name,
            needs=needs,
            measures=measures,
            context=context,
            precision=precision,
            subject_input=subject_input,
            blames=blames,
        )

    def twin(
        self,
        twin_id: str,
        *,
        replaces: str,
        explanation: Bilingual,
        where: Bilingual,
        kind: Literal["fault", "mistake"] = "fault",
    ) -> Callable[[F], F]:
        """A broken version of ``replaces``: a fault of the module's ``faults.yaml`` (by
        this id), or with ``kind="mistake"`` another mistake the diagnosis can name."""
        return self.registry.twin(
            twin_id, replaces=replaces, explanation=explanation, where=where, kind=kind
        )

    def mistake(
        self, twin_id: str, *, replaces: str, explanation: Bilingual, where: Bilingual
    ) -> Callable[[F], F]:
        return self.registry.mistake(
            twin_id, replaces=replaces, explanation=explanation, where=where
        )

    def generator(self, name: str, *, subject: str) -> Callable[[F], F]:
        """``fn(rng, n) -> [Case, ...]``: exactly ``n`` seeded calls of ``subject``."""
        return self.registry.generator(name, subject=subject)

    def challenge(self, module_id: str) -> Callable[[F], F]:
        """``fn(rng) -> [claim dict, ...]``: a module's claims on inputs drawn from a nonce;
        their expected values are computed with the reference, never written down."""
        return self.registry.challenge(module_id)

    def figure(
        self, name: str, *, caption: Bilingual, claims: tuple[str, ...] = ()
    ) -> Callable[[F], F]:
        """``fn(data: FigureData) -> matplotlib Figure | None``: a figure of the report,
        drawn from ``data.claims`` (and ``data.reference``, the reference's claims, when the
        page shows a learner's or a fault's evidence); None when the records lack what it
        needs. ``claims`` names the claims it draws from."""

        def register(fn: F) -> F:
            if name in self.figures:
                raise PackRefusedValue("packdef.twice", kind="figure", name=name)
            bilingual(caption, f"figure {name!r}: caption")
            self.figures[name] = FigureSpec(name, caption, fn, claims)
            return fn

        return register

    # -- what the engine asks ----------------------------------------------------------
    def code_directories(self) -> tuple[str, ...]:
        """The directories of the pack's own code (each ending in a separator)."""
        out: list[str] = []
        for package in self.code:
            module = sys.modules.get(package)
            for where in getattr(module, "__path__", None) or ():
                out.append(str(Path(where).resolve()) + "/")
            origin = getattr(module, "__file__", None)
            if origin and not getattr(module, "__path__", None):
                out.append(str(Path(origin).resolve()))
        return tuple(dict.fromkeys(out))

    def __repr__(self) -> str:
        return f"<pack {self.name}>"
