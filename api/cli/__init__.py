"""``triform``: the one command-line entry point (design.md section 8)."""

from .main import build_parser, main

__all__ = ["build_parser", "main"]
