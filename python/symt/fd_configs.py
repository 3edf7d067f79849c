"""Named Fast Downward search configurations that use ``symt()``: the wrapper's own aliases.

``fast-downward --alias symt-first domain.pddl problem.pddl`` works like the driver's own
``--alias lama-first``: the wrapper replaces the alias by its search string before Fast Downward's
driver sees the arguments (the driver's files are not edited). Every alias uses ``symt()`` without
a model, so the wrapper picks the shipped model for the task's domain; ``--symt-model PATH`` (or
a shipped model's name) gives every such ``symt()`` that model instead.

* ``symt-gbfs`` -- the paper-faithful heuristic: greedy best-first search on the learned
  heuristic alone. All new successors of an expanded state are evaluated in one forward pass
  (``batch_eager_greedy``: the same expansions and plans as ``eager_greedy``).
* ``symt-first`` -- the LAMA-style way to use an informative but expensive heuristic: GBFS
  alternating between a ``symt()`` queue and an h^FF queue, plus the preferred operators of h^FF
  in their own queues. Every successor is still evaluated by ``symt()``, batched. Unlike LAMA's
  lazy search it does not boost the preferred queues: in eager search the boost (1000 expansions
  from the preferred queues whenever a heuristic value improves) hands the search to h^FF's
  preferred operators, which mislead it where h^FF does (classical Driverlog and Depot:
  ``benchmarks/results/symt_first/``).
* ``symt-first-lazy`` -- the same queues with deferred evaluation (``lazy_greedy``, as
  ``lama-first``): a successor is inserted with its parent's values and evaluated only when it is
  expanded, so ``symt()`` runs once per expanded state instead of once per generated state, one
  state per forward pass (there is no batch to form).
* ``symt-explore`` -- ``symt-gbfs`` with a type-based exploration queue in alternation
  (``batch_eager_greedy([symt()], type_based=true)``; Xie, Mueller and Holte 2014): every other
  expansion is a random open state of a random (h, g) bucket, the standard remedy for GBFS
  stuck on plateaus. The learned heuristic is still the only one. It helps h^FF on IPC
  Blocksworld but not the shipped models (``benchmarks/results/configs/explore/``).
* ``symt-lama-first`` -- ``lama-first`` (the driver's alias: lazy GBFS on h^FF and the landmark
  count heuristic, h^FF's preferred operators, unit costs, no reopening) with ``symt()`` as a third
  queue. It asks whether the learned heuristic adds anything to LAMA's, the strongest satisficing
  configuration of Fast Downward 19.06; ``lama-first`` measured beside it is the ablation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .errors import SymtError


@dataclass(frozen=True)
class SearchAlias:
    name: str
    search: str
    summary: str
    evaluators: tuple[str, ...] = ()
    """Predefinitions (``--evaluator NAME=...``, Fast Downward 19.06's form of sharing one
    evaluator between queues and preferred operators)."""

    def search_options(self) -> list[str]:
        """The search component's options: predefinitions, then ``--search``."""
        options: list[str] = []
        for definition in self.evaluators:
            options += ["--evaluator", definition]
        return options + ["--search", self.search]


ALIASES: dict[str, SearchAlias] = {
    a.name: a
    for a in (
        SearchAlias("symt-gbfs", "batch_eager_greedy([symt()])",
                    "GBFS on the learned heuristic alone, successors evaluated in batches "
                    "(the paper's use of SymT-E)"),
        SearchAlias("symt-first", "batch_eager_greedy([symt(), hff], preferred=[hff])",
                    "GBFS alternating symt() and h^FF queues with h^FF's preferred operators "
                    "(no boost), successors evaluated by symt() in batches",
                    evaluators=("hff=ff()",)),
        SearchAlias("symt-first-lazy", "lazy_greedy([symt(), hff], preferred=[hff], boost=1000)",
                    "symt-first with deferred evaluation: symt() once per expanded state",
                    evaluators=("hff=ff()",)),
        SearchAlias("symt-explore", "batch_eager_greedy([symt()], type_based=true)",
                    "symt-gbfs alternating with a type-based exploration queue over (symt(), g) "
                    "(Xie, Mueller and Holte 2014)"),
        SearchAlias("symt-lama-first",
                    "lazy_greedy([symt(), hff, hlm], preferred=[hff, hlm], cost_type=one, reopen_closed=false)",
                    "lama-first with a symt() queue beside its h^FF and landmark queues",
                    evaluators=("hlm=lmcount(lm_factory=lm_rhw(reasonable_orders=true),"
                                "transform=adapt_costs(one),pref=false)",
                                "hff=ff(transform=adapt_costs(one))")),
    )
}


def driver_option(args: Sequence[str], option: str,
                  accept: Callable[[str | None], bool] = lambda value: True) -> tuple[int, int, str | None] | None:
    """The first ``option VALUE`` or ``option=VALUE`` among the driver's own arguments whose value
    ``accept`` takes: (start, end, value), value None where ``option`` is the last argument. The
    driver's arguments end where ``--translate-options`` or ``--search-options`` begins: from there
    on they belong to the planner's components."""
    for i, arg in enumerate(args):
        if arg in ("--translate-options", "--search-options"):
            return None
        if arg == option:
            value = args[i + 1] if i + 1 < len(args) else None
            if accept(value):
                return i, min(i + 2, len(args)), value
        elif arg.startswith(option + "="):
            value = arg.split("=", 1)[1]
            if accept(value):
                return i, i + 1, value
    return None


def _alias_position(args: Sequence[str]) -> tuple[int, int, str] | None:
    """Where an ``--alias NAME`` or ``--alias=NAME`` of ours is: (start, end, name)."""
    found = driver_option(args, "--alias", lambda value: value in ALIASES)
    return None if found is None or found[2] is None else (found[0], found[1], found[2])


def expand_alias(args: Sequence[str]) -> list[str]:
    """``args`` with one of our aliases replaced by its search string (unchanged otherwise)."""
    found = _alias_position(args)
    if found is None:
        return list(args)
    start, end, name = found
    rest = list(args[:start]) + list(args[end:])
    if any(arg == "--search" or arg.startswith("--search=") for arg in rest):
        raise SymtError(f"--alias {name} and --search cannot be combined (the alias is a search "
                        f"configuration: {ALIASES[name].search})")
    if any(arg in ("--portfolio", "--alias") or arg.startswith(("--portfolio=", "--alias="))
           for arg in rest):
        raise SymtError(f"--alias {name} cannot be combined with another --alias or --portfolio")
    return rest + ["--search-options", *ALIASES[name].search_options()]


def describe() -> str:
    """One line per alias, for ``--show-aliases`` and ``symt models``-style listings."""
    width = max(len(name) for name in ALIASES)
    lines = []
    for alias in ALIASES.values():
        options = " ".join(f'{o} "{v}"' for o, v in zip(alias.search_options()[::2], alias.search_options()[1::2]))
        lines += [f"{alias.name:<{width}}  {alias.summary}", f"{'':<{width}}  {options}"]
    return "\n".join(lines)
