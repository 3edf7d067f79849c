"""symt: symmetry-aware transformers for automated planning, plugged into Fast Downward."""

__version__ = "0.1.0"
