"""arcstar's module paths, layered layout first (arcstar.maps, arcstar.search, ...), flat one second.

The bench measures old commits as well as the working tree, so a module that moved is looked up
under its new name, then its old one. Only the moved modules are listed; what the top-level
``arcstar`` package exports (``plan``, ``PlanJob``, ``PlanOptions``, ``TileMap``, ``load_map``,
``parse_movingai_map``, ``parse_scen``, ...) is imported from there directly. Standard library
only: this file also runs in Pyodide and in the browser bench's worker.
"""

from __future__ import annotations

import importlib
import os

# old (flat) module -> its home(s) in the layered layout, where its names are looked up first
MOVED = {
    "arcstar.mapio": ("arcstar.maps.mapio",),
    "arcstar.tilemap": ("arcstar.maps.tilemap",),
    "arcstar.grid": ("arcstar.search.grid",),
    "arcstar.search": ("arcstar.search.engine",),
    "arcstar.openlists": ("arcstar.search.openlists",),
    "arcstar.curves": ("arcstar.geometry.curves",),
    "arcstar.clearance": ("arcstar.collision.clearance",),
    "arcstar.smoothing": ("arcstar.turning.smoothing",),
    "arcstar.roads": ("arcstar.turning.roads", "arcstar.planner.roads"),  # plan_on_road: the planner's
    "arcstar.art": ("arcstar.turning.art",),
}


def _import(name: str):
    """The module ``name``, or None when it does not exist in this layout. An import error raised
    *inside* an existing module is not swallowed."""
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        # "No module named 'arcstar.maps'", or "... 'arcstar.search' is not a package"
        if exc.name is not None and name.startswith(exc.name):
            return None
        raise
    # An editable install's finder answers for names the measured package lacks, from its own
    # (other) source tree: such a module is not this layout's.
    home = os.path.dirname(importlib.import_module("arcstar").__file__ or "")
    if not os.path.abspath(module.__file__ or "").startswith(os.path.abspath(home) + os.sep):
        return None
    return module


def _modules(old_name: str) -> list:
    """The new homes that exist; only when there is none, the old module. (Never both: in the new
    layout an installed old arcstar, e.g. an editable install's finder, could answer the old name.)"""
    found = [m for m in map(_import, MOVED.get(old_name, ())) if m is not None]
    if not found:
        found = [importlib.import_module(old_name)]
    return found


def arcstar_module(old_name: str):
    """The module that was ``old_name`` in the flat layout: its (first) new home if there is one,
    else ``old_name`` itself."""
    return _modules(old_name)[0]


def arcstar_names(old_name: str, *names: str) -> tuple:
    """``names`` from the module that was ``old_name``: each from the first of its homes that has it."""
    modules = _modules(old_name)
    out = []
    for n in names:
        for m in modules:
            if hasattr(m, n):
                out.append(getattr(m, n))
                break
        else:
            raise ImportError(f"cannot import {n} from {', '.join(m.__name__ for m in modules)}")
    return tuple(out)
