"""The package version, defined once in Cargo.toml and read from the compiled core."""

from ._core import __version__

__all__ = ["__version__"]
