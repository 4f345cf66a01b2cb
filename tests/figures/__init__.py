"""Tests of the pure figure builders in core.figures."""
