"""The release (pyproject.toml reads it; CHANGELOG.md says what changed)."""

__version__ = "0.2.0"
