"""Pre-trained SymT-E models shipped with symt: ``<domain>.pt`` in this folder.

``resolve("gripper")`` finds the shipped Gripper model; any other string is taken as a path.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import SymtError

MODEL_DIR = Path(__file__).resolve().parent


def shipped() -> dict[str, Path]:
    """Shipped models by name."""
    return {path.stem: path for path in sorted(MODEL_DIR.glob("*.pt"))}


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
