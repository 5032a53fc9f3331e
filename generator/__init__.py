"""Print-and-play generator: YAML game data to print-ready PDFs, exports and a rules validator."""

__version__ = "0.1.0"
