"""symt: symmetry-aware transformers for automated planning, plugged into Fast Downward."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("symt")  # one source: pyproject.toml's [project] version
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "unknown"
