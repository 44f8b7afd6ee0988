"""The hybrid search: Pinter's six steps ("Performance and Hybrid Solutions"), every one sliced.

1. A* over the 4 neighbours of each tile (the unit's width: tiles it fits, steps it clears);
   no path: fail.
2. Smoothing48 forward over that path; found: go to 6. Else its failure point a.
3. Smoothing48 backward, from the goal; found: go to 6. Else its failure point b.
4. The 12-tile rule: a and b more than ``SPAN`` (12) tiles apart in x or y: fail. Otherwise step
   back along each pass's chain, one stop at a time and taking turns, while the two stay at most
   12 tiles apart (Pinter: "approximately (but not more than) 12 tiles distant").
5. Directional-8 from a (its pose) to b (its tile and heading); no path: fail. Join the three
   pieces: the forward chain to a, the patch, the backward chain from b.
6. Simple smoothing (Listing 1) over the joined stops: from a checkpoint, the next stop is
   dropped while the shortest curve from the checkpoint's pose to the stop after it (headings
   kept) clears the exact swept-disc test; so the result stays legal and never gets longer.

A failure says which step failed (``failed``); the planner then falls back to Directional-24
when the region table says the goal is reachable. ``step(budget)`` spends ``budget`` units on
the current stage (an expansion in a search or a pass; a curve checked in step 6) and moves on
when the stage ends; ``cancel()`` stops any stage. Tiles (x, y), y down; headings in radians,
0 east, pi/2 south; lengths in tiles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..collision.clearance import passable_for
from ..collision.swept import path_clear
from ..collision.unit import unit_graph
from ..geometry.primitives import Line, Path, Pose
from ..maps.tilemap import TileMap
from ..outcomes import BadInput, Status
from ..search.engine import AStar, SteppedSearch
from ..search.grid import GridOptions
from .graph import DirectionalGraph
from .lattice import HEADINGS, Neighbourhood, UnitKind, best_curve, heading_angle, heading_index
from .smoothing48 import Smoothing48, Stop
from .tables import centre_cells

#: Step 4: the failure points may be at most this many tiles apart in x and in y.
SPAN = 12
#: Step 1's grid: four neighbours, a step costs 1 x terrain.
ASTAR_GRID = GridOptions(4, "never", "octile")


class Stage(StrEnum):
    """The hybrid's steps, in order (``smooth`` is step 6; ``done`` once it ends)."""

    ASTAR = "astar"
    FORWARD = "forward"
    BACKWARD = "backward"
    SPAN = "span"
    PATCH = "patch"
    SMOOTH = "smooth"
    DONE = "done"


@dataclass(frozen=True)
class Joined:
    """A path as stops and the curves between them: ``curves[i]`` runs from ``poses[i]`` to
    ``poses[i + 1]``; ``tiles[i]`` is the tile of ``poses[i]``."""

    poses: list[Pose]
    curves: list[Path]
    tiles: list[tuple[int, int]]


def _pose(x: int, y: int, k: int) -> Pose:
    return Pose(x + 0.5, y + 0.5, heading_angle(k))


def _chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


class HybridSearch(SteppedSearch):
    """One hybrid query on ``tilemap`` from tile ``start`` facing ``start_heading`` (radians) to
    tile ``goal`` (at ``goal_heading`` snapped to the lattice's 8, or any heading when None),
    for ``kind`` (width, radius, reversing; its neighbourhood is ignored: the patch is
    Directional-8). Ends ``found``, ``no_path`` (``failed`` names the step),
    ``budget_exhausted`` or ``cancelled``; found: ``segments``, ``path``, ``cost``, ``length``.
    ``step``, ``cancel`` and ``run`` as every ``SteppedSearch``."""

    def __init__(self, tilemap: TileMap, start: tuple[int, int], start_heading: float, goal: tuple[int, int],
                 goal_heading: float | None, kind: UnitKind, max_expansions: int | None = None,
                 weight: float = 1.0) -> None:
        self.tilemap, self.start, self.goal = tilemap, start, goal
        self.start_heading = start_heading
        self.kind = UnitKind(kind.width, kind.radius, Neighbourhood.D8, kind.can_reverse, kind.reverse_penalty)
        self.goal_headings = None if goal_heading is None else frozenset({heading_index(goal_heading, "goal")})
        # every step's search keeps to what is left of the budget, so the stepping itself has none
        self._limit, self.max_expansions, self.weight = max_expansions, None, weight
        fits = passable_for(tilemap, self.kind.width)
        for role, (x, y) in (("start", start), ("goal", goal)):
            if not fits[y, x]:
                raise BadInput(f"{role} ({x}, {y}) is too close to a wall for a unit {self.kind.width:g} tiles wide",
                               role)
        self.status, self.stage = Status.RUNNING, Stage.ASTAR
        self.failed: Stage | None = None
        self.expanded, self.ms, self.trace = 0, 0.0, None
        self.cost: float | None = None
        self.segments: Path | None = None
        self.path: list[tuple[int, int]] | None = None
        self.length = 0.0
        # what each step found (the lab draws them): the A* tiles, the passes, the patch's ends
        self.astar_path: list[tuple[int, int]] | None = None
        self.forward: Smoothing48 | None = None
        self.backward: Smoothing48 | None = None
        self.patch_ends: tuple[Stop, Stop] | None = None
        self.joined: Joined | None = None
        self._patch: DirectionalGraph | None = None
        self._smooth_at = 0
        self._smoothed: tuple[list[Pose], list[Path], list[tuple[int, int]], int, Path] | None = None
        self._fs: list[Stop] = []  # step 4's pieces of the forward and the backward chain
        self._bs: list[Stop] = []
        graph = unit_graph(tilemap, ASTAR_GRID, self.kind.width)
        self.search: AStar | Smoothing48 | None = AStar(graph, graph.node(*start), [graph.node(*goal)],
                                                        heuristic="manhattan", max_expansions=max_expansions)

    # -- what each step found -------------------------------------------------------------------
    def stages(self) -> dict[str, Any]:
        """What each step found, for drawing (JSON-safe; headings in radians, 0 east, pi/2
        south): ``astar`` the step-1 tiles; ``forward`` and ``backward`` the Smoothing48 passes
        (``stops`` [x, y, heading] in travel order, ``failed_at`` the failure point or None);
        ``patch`` the Directional-8 patch's two ends ({"from", "to"}) or None; ``failed`` the
        step that failed (a ``Stage`` value) or None. A step that did not run is None."""
        def stop(st: Stop) -> list[float]:
            angle = self.start_heading if st.heading < 0 else heading_angle(st.heading)
            return [st.tile[0], st.tile[1], angle]

        def smoothing(p: Smoothing48 | None) -> dict[str, Any] | None:
            if p is None:
                return None
            failed = p.failure
            return {"stops": [stop(st) for st in p.stops], "failed_at": None if failed is None else stop(failed)}

        return {"astar": [list(t) for t in self.astar_path] if self.astar_path is not None else None,
                "forward": smoothing(self.forward), "backward": smoothing(self.backward),
                "patch": None if self.patch_ends is None else {"from": stop(self.patch_ends[0]),
                                                               "to": stop(self.patch_ends[1])},
                "failed": None if self.failed is None else self.failed.value}

    # -- stepping -------------------------------------------------------------------------------
    def _left(self) -> int | None:
        return None if self._limit is None else max(self._limit - self.expanded, 1)

    def _expand(self, budget: int) -> None:
        """Spend up to ``budget`` units on the current step (``SteppedSearch.step`` calls it)."""
        if self.stage is Stage.SMOOTH:
            self._smooth(budget)
            return
        s = self.search
        assert s is not None
        before = s.expanded
        status = s.step(budget)
        self.expanded += s.expanded - before
        if status != Status.RUNNING:
            self._next(status)

    def _finish(self, status: Status, goal: int | None) -> None:
        """Cancelled (``SteppedSearch.cancel``): stop the current step's search too."""
        if self.search is not None:
            self.search.cancel()
        self._end(status)

    def _end(self, status: Status, failed: Stage | None = None) -> None:
        self.status, self.failed, self.search = status, failed, None
        if status != Status.FOUND:
            self.stage = Stage.DONE

    def _next(self, status: Status) -> None:
        """A step's search ended with ``status``: move to the step it leads to."""
        if status in (Status.BUDGET_EXHAUSTED, Status.CANCELLED):
            self._end(status)
            return
        found = status == Status.FOUND
        stage = self.stage
        if stage is Stage.ASTAR:
            if not found:
                self._end(Status.NO_PATH, Stage.ASTAR)  # step 1: no 4-neighbour path
                return
            assert isinstance(self.search, AStar)
            tiles = [(int(t[0]), int(t[1])) for t in self.search.path or []]  # type: ignore[index]
            self.astar_path = tiles
            if tiles[0] == tiles[-1]:
                self._start_tile_only()
                return
            self.forward = Smoothing48(self.tilemap, tiles, self.kind.width, self.kind.radius, self.start_heading,
                                       self.goal_headings, max_expansions=self._left())
            self._begin(Stage.FORWARD, self.forward)
        elif stage is Stage.FORWARD:
            assert self.forward is not None and self.astar_path is not None
            if found:
                self._join(self.forward.stops, self.forward, [], None)
                return
            self.backward = Smoothing48(self.tilemap, self.astar_path, self.kind.width, self.kind.radius,
                                        self.start_heading, self.goal_headings, backward=True,
                                        max_expansions=self._left())
            self._begin(Stage.BACKWARD, self.backward)
        elif stage is Stage.BACKWARD:
            assert self.backward is not None
            if found:
                self._join([], None, self.backward.stops, self.backward)
                return
            self._span()
        elif stage is Stage.PATCH:
            if not found:
                self._end(Status.NO_PATH, Stage.PATCH)  # step 5: Directional-8 found no way
                return
            self._join_patch()

    def _begin(self, stage: Stage, search: AStar | Smoothing48) -> None:
        self.stage, self.search = stage, search
        if search.status != Status.RUNNING:  # (a one-tile pass ends at once)
            self._next(search.status)

    def _start_tile_only(self) -> None:
        """Start and goal on one tile: done if the start heading is allowed there, else fail."""
        k = heading_index(self.start_heading, "start")
        if self.goal_headings is not None and (k not in self.goal_headings
                                               or abs(math.remainder(self.start_heading - heading_angle(k),
                                                                     2 * math.pi)) > 1e-9):
            self._end(Status.NO_PATH, Stage.FORWARD)
            return
        p = Pose(self.start[0] + 0.5, self.start[1] + 0.5, self.start_heading)
        self._begin_smooth(Joined([p], [], [self.start]))

    # -- step 4 and 5: the failure points and the Directional-8 patch ---------------------------
    def _span(self) -> None:
        fw, bw = self.forward, self.backward
        assert fw is not None and bw is not None
        fs, bs = fw.stops, bw.stops
        fi, bi = len(fs) - 1, 0
        if _chebyshev(fs[fi].tile, bs[bi].tile) > SPAN:
            self._end(Status.NO_PATH, Stage.SPAN)  # step 4: the failure points are too far apart
            return
        moved = True
        while moved:  # step away, one stop at a time on each side, while within SPAN
            moved = False
            if fi > 0 and _chebyshev(fs[fi - 1].tile, bs[bi].tile) <= SPAN:
                fi, moved = fi - 1, True
            if bi < len(bs) - 1 and _chebyshev(fs[fi].tile, bs[bi + 1].tile) <= SPAN:
                bi, moved = bi + 1, True
        self._fs, self._bs = fs[:fi + 1], bs[bi:]
        a, b = self._fs[-1], self._bs[0]
        self.patch_ends = (a, b)
        if a.tile == b.tile and a.heading == b.heading:
            self._join(self._fs, fw, self._bs, bw)
            return
        # b is the goal itself once its chain is used up: then any of the goal's headings will do
        heads = [b.heading] if len(self._bs) > 1 else sorted(self.goal_headings or range(HEADINGS))
        self._patch = DirectionalGraph(self.tilemap, self.kind, fw.pose(a), b.tile, heads)
        patch = AStar(self._patch, self._patch.start_node, self._patch.goal_nodes, heuristic="directional",
                      weight=self.weight, max_expansions=self._left())
        self._begin(Stage.PATCH, patch)

    def _join_patch(self) -> None:
        graph, search = self._patch, self.search
        assert graph is not None and isinstance(search, AStar) and search.path_nodes is not None
        nodes = search.path_nodes
        fw, bw = self.forward, self.backward
        assert fw is not None and bw is not None
        front = self._chain(self._fs, fw)
        for a, b in zip(nodes, nodes[1:]):
            y, x = divmod(b // HEADINGS, graph.width)
            front.poses.append(_pose(x, y, b % HEADINGS))
            front.tiles.append((x, y))
            front.curves.append(graph.move_path(a, b))
        back = self._chain(self._bs, bw)
        self._begin_smooth(Joined(front.poses + back.poses[1:], front.curves + back.curves,
                                  front.tiles + back.tiles[1:]))

    @staticmethod
    def _chain(stops: list[Stop], owner: Smoothing48) -> Joined:
        curves = [owner.hop_path(a, b) for a, b in zip(stops, stops[1:])]
        return Joined([owner.pose(s) for s in stops], curves, [s.tile for s in stops])

    def _join(self, front: list[Stop], fw: Smoothing48 | None, back: list[Stop], bw: Smoothing48 | None) -> None:
        a = self._chain(front, fw) if fw is not None else Joined([], [], [])
        b = self._chain(back, bw) if bw is not None else Joined([], [], [])
        if a.poses and b.poses:  # the two chains meet in one stop (a == b): keep it once
            b = Joined(b.poses[1:], b.curves, b.tiles[1:])
        self._begin_smooth(Joined(a.poses + b.poses, a.curves + b.curves, a.tiles + b.tiles))

    # -- step 6: simple smoothing over the stops ------------------------------------------------
    def _begin_smooth(self, joined: Joined) -> None:
        self.joined = joined
        self.stage, self.search = Stage.SMOOTH, None
        first = joined.curves[0] if joined.curves else Path((Line.from_pose(joined.poses[0], 0.0),))
        self._smoothed = ([joined.poses[0]], [], [joined.tiles[0]], 0, first)
        self._smooth_at = 2

    def _smooth(self, budget: int) -> None:
        """Listing 1 over the stops, ``budget`` curves checked per slice."""
        joined, state = self.joined, self._smoothed
        assert joined is not None and state is not None
        poses, curves, tiles, check, leg = state
        n = len(joined.poses) - 1
        width = self.kind.width
        nxt = self._smooth_at
        spent = 0
        while nxt <= n and spent < budget:
            trial = best_curve(joined.poses[check], joined.poses[nxt], self.kind)
            spent += 1
            if path_clear(self.tilemap, trial, width):
                leg = trial  # stop nxt - 1 is dropped
            else:
                curves.append(leg)
                poses.append(joined.poses[nxt - 1])
                tiles.append(joined.tiles[nxt - 1])
                check, leg = nxt - 1, joined.curves[nxt - 1]
            nxt += 1
        self._smooth_at = nxt
        self._smoothed = (poses, curves, tiles, check, leg)
        if nxt > n:
            if n >= 1:
                curves.append(leg)
                poses.append(joined.poses[n])
                tiles.append(joined.tiles[n])
            self._found(poses, curves, tiles)

    def _found(self, poses: list[Pose], curves: list[Path], tiles: list[tuple[int, int]]) -> None:
        segs = [seg for c in curves for seg in c.segments]
        self.segments = Path(tuple(segs)) if segs else Path((Line.from_pose(poses[0], 0.0),))
        grid = self.tilemap.cost_grid
        penalty = self.kind.reverse_penalty if self.kind.can_reverse else 1.0
        self.cost = math.fsum(float(grid[cy, cx]) * w for c in curves
                              for (cx, cy), w in centre_cells(c, penalty).items())
        self.path, self.length = tiles, self.segments.length
        self.stage = Stage.DONE
        self._end(Status.FOUND)
