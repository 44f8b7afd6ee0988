"""Layer 2, search: one best-first engine (A*, weighted A*, Dijkstra) over any ``Graph``
(square grids with their diagonal rules and terrain costs, hex grids, waypoint graphs, the
hierarchical abstract graph), resumable in slices, with swappable open lists and a trace; JPS
and JPS+ as successor rules over the same stepping; region labels for islands."""

from .engine import STOP_RULES, TRACE_DETAIL_LIMIT, AStar, SteppedSearch, Trace, path_length
from .graph import CellGraph, Graph
from .grid import COST_MODELS, DIAGONAL_POLICIES, GridGraph, GridOptions, graph_for
from .heuristics import HEURISTICS, make_heuristic
from .hierarchical import HierarchicalAStar
from .jps import JPS, JPSPlus
from .openlists import OPEN_LISTS
from .options import SearchOptions

__all__ = ["COST_MODELS", "DIAGONAL_POLICIES", "HEURISTICS", "JPS", "OPEN_LISTS", "STOP_RULES", "TRACE_DETAIL_LIMIT",
           "AStar", "CellGraph", "Graph", "GridGraph", "GridOptions", "HierarchicalAStar", "JPSPlus",
           "SearchOptions", "SteppedSearch", "Trace", "graph_for", "make_heuristic", "path_length"]
