"""Pre-trained models shipped with symt, ``<name>.pt`` in this folder.

* ``<domain>.pt``: SymT-E heuristics (TorchScript, for Fast Downward and greedy guidance);
  ``<domain>-nocl.pt`` the same trained without the contrastive loss (the paper's ablation);
* ``<domain>-ed.pt`` / ``<domain>-plangpt.pt``: plan generators (SymT-ED, the PlanGPT baseline);
  ``-ed-nocl`` / ``-plangpt-cl`` their ablations (contrastive loss inverted).

``resolve("gripper")`` finds the shipped Gripper model; any other string is taken as a path.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import SymtError

MODEL_DIR = Path(__file__).resolve().parent


def shipped() -> dict[str, Path]:
    """Shipped models by name."""
    return {path.stem: path for path in sorted(MODEL_DIR.glob("*.pt"))}


def heuristics() -> dict[str, Path]:
    """Shipped SymT-E heuristic models (TorchScript) by name."""
    from ..plangen.planner import is_planner_file

    return {name: path for name, path in shipped().items() if not is_planner_file(path)}


def planners() -> dict[str, Path]:
    """Shipped plan generators (SymT-ED, PlanGPT) by name."""
    from ..plangen.planner import is_planner_file

    return {name: path for name, path in shipped().items() if is_planner_file(path)}


def resolve(name_or_path: str | Path) -> Path:
    """A shipped model's name, or a path to an exported model file."""
    models = shipped()
    if str(name_or_path) in models:
        return models[str(name_or_path)]
    path = Path(name_or_path)
    if path.is_file():
        return path
    names = ", ".join(models) or "none"
    raise SymtError(f"model '{name_or_path}' is neither a file nor a shipped model (shipped: {names})")
