"""Independent reference code for tests: a plain Dijkstra and a path-legality checker.

Written from the rules as stated (Lester; the Moving AI metric), sharing nothing with the
engine, so that agreement between the two means something.
"""

from __future__ import annotations

import heapq
import math

import numpy as np


def step_ok(blocked: np.ndarray, a: tuple[int, int], b: tuple[int, int], diagonal: str = "both",
            neighbours: int = 8) -> bool:
    """Whether one move a -> b is legal under the diagonal policy."""
    h, w = blocked.shape
    (x0, y0), (x1, y1) = a, b
    dx, dy = x1 - x0, y1 - y0
    if max(abs(dx), abs(dy)) != 1:
        return False
    if not (0 <= x1 < w and 0 <= y1 < h) or blocked[y1, x1]:
        return False
    if dx and dy:
        if neighbours == 4 or diagonal == "never":
            return False
        side1, side2 = not blocked[y0, x1], not blocked[y1, x0]
        if diagonal == "both":
            return side1 and side2
        if diagonal == "either":
            return side1 or side2
    return True


def check_path(blocked: np.ndarray, path, start, goal, diagonal: str = "both", neighbours: int = 8) -> None:
    """Assert a tile path is connected, in bounds, on open tiles and obeys the diagonal policy."""
    assert path, "empty path"
    assert tuple(path[0]) == tuple(start), f"path starts at {path[0]}, not {start}"
    assert tuple(path[-1]) == tuple(goal), f"path ends at {path[-1]}, not {goal}"
    h, w = blocked.shape
    x, y = path[0]
    assert 0 <= x < w and 0 <= y < h and not blocked[y, x]
    for a, b in zip(path, path[1:]):
        assert step_ok(blocked, tuple(a), tuple(b), diagonal, neighbours), f"illegal step {a} -> {b}"


def path_cost(costs: np.ndarray, path, straight: float, diagonal: float) -> float:
    """Cost of a path: base step cost times the cost of the tile entered."""
    total = 0.0
    for (x0, y0), (x1, y1) in zip(path, path[1:]):
        base = diagonal if (x0 != x1 and y0 != y1) else straight
        total += base * costs[y1, x1]
    return total


def dijkstra(costs: np.ndarray, start, goal, straight: float = 1.0, diagonal_cost: float = math.sqrt(2),
             diagonal: str = "both", neighbours: int = 8, penalty: np.ndarray | None = None) -> float | None:
    """Least cost from start to goal (None when unreachable); costs[y, x] = inf is blocked.
    ``penalty[y, x]`` is added to every step that enters (x, y) (an influence map)."""
    blocked = ~np.isfinite(costs)
    h, w = costs.shape
    dist = {tuple(start): 0.0}
    heap = [(0.0, tuple(start))]
    done = set()
    while heap:
        d, (x, y) = heapq.heappop(heap)
        if (x, y) in done:
            continue
        if (x, y) == tuple(goal):
            return d
        done.add((x, y))
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx, dy) == (0, 0):
                    continue
                nb = (x + dx, y + dy)
                if not step_ok(blocked, (x, y), nb, diagonal, neighbours):
                    continue
                nd = d + (diagonal_cost if dx and dy else straight) * costs[nb[1], nb[0]]
                if penalty is not None:
                    nd += penalty[nb[1], nb[0]]
                if nd < dist.get(nb, math.inf):
                    dist[nb] = nd
                    heapq.heappush(heap, (nd, nb))
    return None


def disc_clear(blocked: np.ndarray, a, b, width: float, step: float = 0.01, slack: float = 1e-6) -> bool:
    """Whether a disc of diameter ``width`` moved from point a to point b (tile units) keeps off
    every blocked tile and stays on the map: dense sampling with exact point-to-square distances.
    Touching (distance == radius) is allowed; ``slack`` absorbs rounding."""
    h, w = blocked.shape
    r = width / 2
    ax, ay = a
    bx, by = b
    n = max(1, int(math.ceil(math.hypot(bx - ax, by - ay) / step)))
    ys, xs = np.nonzero(blocked)
    for k in range(n + 1):
        t = k / n
        px, py = ax + (bx - ax) * t, ay + (by - ay) * t
        if px - r < -slack or py - r < -slack or px + r > w + slack or py + r > h + slack:
            return False
        if len(xs):
            dx = np.maximum(0, np.maximum(xs - px, px - (xs + 1)))
            dy = np.maximum(0, np.maximum(ys - py, py - (ys + 1)))
            if (np.hypot(dx, dy) < r - slack).any():
                return False
    return True
