"""The true distance to one goal on a grid of one-tick moves, swept only as far as it is asked.

The cooperative search (``cooperative``) adds to each space-time path the *abstract distance*
left: the moves from a tile to the agent's goal, other agents ignored. A breadth-first sweep from
the goal finds it; the moves are symmetric, so distances from the goal are distances to it. The
sweep is resumable, as Silver's reverse search is ("Cooperative Pathfinding", AIIDE 2005): it
stops once the tile asked for is reached and goes on when a farther one is asked, so an agent near
its goal (a jam at a door, most of a crowd late in its journey) does not pay for the whole map.

Silver resumes a reverse A*, aimed at the agent. Tried here: on a 128x128 map with moves that
all cost one tick, the tiles that tie on A*'s estimate form wide plateaus, and A* closed about a
fifth of the map per goal at four times a sweep's cost a tile: no faster than sweeping it all.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

#: A tile the sweep has not reached yet (its distance is not known yet).
UNKNOWN = -2
#: A tile the goal does not reach (known once the sweep has reached every tile it can).
UNREACHABLE = -1


class GoalDistances:
    """Moves from each tile (a flat index) to ``goal`` over ``adjacent`` (per tile, the tiles one
    move away; symmetric). Index it like a list: ``d[tile]`` is the distance, -1 if the goal cannot
    be reached from there. ``work`` counts the tiles swept."""

    __slots__ = ("goal", "values", "work", "_adjacent", "_todo")

    def __init__(self, adjacent: Sequence[Sequence[int]], goal: int) -> None:
        if not 0 <= goal < len(adjacent):
            raise ValueError(f"goal {goal!r} is not one of the grid's {len(adjacent)} tiles")
        self.goal = goal
        #: per tile, its distance once the sweep has reached it (``UNKNOWN`` before; ``UNREACHABLE``)
        self.values: list[int] = [UNKNOWN] * len(adjacent)
        self.values[goal] = 0
        self.work = 0
        self._adjacent = adjacent
        self._todo = deque([goal])  # reached, their neighbours not looked at yet (nearest first)

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, tile: int) -> int:
        d = self.values[tile]
        if d != UNKNOWN:
            return d
        self.settle(tile)
        return self.values[tile]

    @property
    def exhausted(self) -> bool:
        """Whether the sweep has reached every tile it can (the rest are ``UNREACHABLE``)."""
        return not self._todo

    def whole(self) -> list[int]:
        """Every tile's distance (the sweep run to its end), as a list: for a search that reads
        them in its inner loop (LaCAM's)."""
        self.settle(-1)
        return self.values

    def settle(self, tile: int, budget: int | None = None) -> bool:
        """Sweep on until ``tile`` is reached (-1: every tile the goal reaches) or nothing is
        left to sweep (True), or ``budget`` tiles have been swept (False: not yet)."""
        values, todo, adjacent = self.values, self._todo, self._adjacent
        take, put = todo.popleft, todo.append  # (bound once: the loop runs for most of a map)
        left = -1 if budget is None else budget
        swept = 0
        # the tiles of one distance share one int object: the queue is in order of distance, so a
        # new object is made only when the distance popped changes (one a tile, they took 28
        # bytes a tile past 256 beside the list's 8: 2 GB for 60 goals on 1024 x 1024)
        was, d = UNKNOWN, UNKNOWN
        while tile < 0 or values[tile] == UNKNOWN:
            if not todo:
                self._close_the_rest()
                break
            if swept == left:
                self.work += swept
                return False
            u = take()
            swept += 1
            du = values[u]
            if du is not was:
                was, d = du, du + 1
            for v in adjacent[u]:
                if values[v] == UNKNOWN:
                    values[v] = d
                    put(v)
        self.work += swept
        return True

    def _close_the_rest(self) -> None:
        """The sweep has reached every tile it can: the others cannot get to the goal."""
        values = self.values
        for t, d in enumerate(values):
            if d == UNKNOWN:
                values[t] = UNREACHABLE
