"""Puzzle families: each turns model-file data into a generic model and renders states.

A family never solves.  See :mod:`cpsolve.puzzles.base` for what a puzzle offers.
"""
