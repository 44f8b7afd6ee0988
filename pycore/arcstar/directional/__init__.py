"""Directional A* (layer 6): Pinter's lattice of (tile, heading) states, its hit-check and
heuristic tables, and the search over it (``search.engine``'s stepping and results)."""
