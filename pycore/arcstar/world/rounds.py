"""A cooperative round's agents and the plan it keeps: the goal tile each unit is given when
several are sent to one tile, and the best of WHCA*'s plans for a few priority orders as the units
would drive them (``plan_times``); with the search's settings for a round and a unit's turn
(``coordinated`` plans the rounds and drives them).
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Iterator

import numpy as np

from ..maps.tilemap import TileMap
from ..outcomes import Status
from ..search.cooperative import CooperativePlanner
from ..search.engine import AStar
from ..search.grid import GridOptions, graph_for
from ..search.regions import label
from ..search.sliced import Sliced
from .avoidance import Tile
from .orders import OrderKind, tile_of
from .plan_times import driven
from .state import UnitState, UnitStatus
from .units import UnitSpec

#: WHCA*'s window (ticks), the longest plan (ticks) per round, and the ticks without any agent
#: getting closer to its goal after which a round stops (the units drive what was planned).
WINDOW, MAX_TICKS, STALL = 16, 2000, 48
#: A stand of this many seconds, as a plan is driven (``plan_times``), is as good as none when a
#: round's plans are compared (half the issue's 10 s: the estimate knows no bodies).
STAND_OK = 5.0
#: The fair plan among a round's orders (``CooperativePlanner.fair``): agents that have stood
#: ``FAIR_AFTER`` ticks go first, in rounds planned every ``FAIR_EVERY`` ticks over a window of
#: ``FAIR_WINDOW`` (every 2 ticks over 16 found as short waits, but took twice as long).
FAIR_AFTER, FAIR_EVERY, FAIR_WINDOW = 3, 2, 8
#: The most ticks a unit's turn is planned to take (``turn_ticks``): 2 for a tank (0.8 rad/s at
#: 2 tiles/s: a quarter pivot is the time of 4 tiles) met the 10 s criterion at 7 of 29 unseen
#: doors of 20 tanks, against 4 with 1; 3 or 4 did worse (plans longer for everyone).
TURN_TICKS = 2
#: Tiles the search for a unit planned again alone (``way_alone``) may expand: a way across a
#: 512x512 map expands some tens of thousands; past this the round is planned again.
ALONE_WORK = 200_000


def apart(a: Tile, b: Tile) -> int:
    """Tiles between ``a`` and ``b`` on 4 neighbours, walls aside (how far a unit is from its goal)."""
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def turn_ticks(spec: UnitSpec) -> int:
    """The ticks a unit stands on a corner in its plan before it turns: its quarter pivot in the
    time it takes to cross a tile at top speed, 1 to ``TURN_TICKS``."""
    return max(1, min(TURN_TICKS, round(math.pi / 2.0 / spec.pivot_rate * spec.speed)))


def breadth_first(blocked: np.ndarray, start: Tile) -> Iterator[Tile]:
    """The tiles a breadth-first walk from ``start`` (4 neighbours, over open tiles) reaches,
    nearest first (``start`` itself first)."""
    h, w = blocked.shape
    seen, queue = {start}, deque([start])
    while queue:
        t = queue.popleft()
        yield t
        x, y = t
        for n in ((x + 1, y), (x, y + 1), (x - 1, y), (x, y - 1)):
            if 0 <= n[0] < w and 0 <= n[1] < h and not blocked[n[1], n[0]] and n not in seen:
                seen.add(n)
                queue.append(n)


def first_reached(blocked: np.ndarray, start: Tile, goals: set[Tile]) -> Tile | None:
    """Of ``goals``, the first a breadth-first walk from ``start`` reaches (None: none)."""
    return next((t for t in breadth_first(blocked, start) if t in goals), None)


def way_alone(known: TileMap, start: Tile, goal: Tile, walls: set[Tile], turn: int) -> list[Tile] | None:
    """The tiles of a unit's way alone from ``start`` to ``goal`` on ``known`` with ``walls``
    walled (4 neighbours, A*), a turn costing ``turn`` steps as a round has a unit stand on a
    corner (``turn_ticks``); None if there is none within ``ALONE_WORK`` expansions."""
    grid = GridOptions(neighbours=4)
    graph = graph_for(known.walled(walls), grid)
    search = AStar(graph, graph.node(*start), [graph.node(*goal)], max_expansions=ALONE_WORK,
                   turn_penalty=grid.units[0] * turn)
    if search.run() != Status.FOUND or search.path_nodes is None:
        return None
    return [graph.tile(n) for n in search.path_nodes]


def other_orders(planner: CooperativePlanner, agents: list[tuple[Tile, Tile]], complete: int
                 ) -> Sliced[list[list[list[Tile]]]]:
    """WHCA*'s plans for a few more priority orders than the one planned (reversed, furthest from
    the goal first, nearest first, and the fair one that puts first those that have waited),
    each agent's tiles in the agents' order: WHCA* lets the agents it plans first go on while
    one planned late waits for all of them, and a wait of a few ticks is a long stand where the
    units it waits for turn into a door one by one (``best_plan`` picks). ``complete``: the
    configurations LaCAM may search for an order where WHCA* stops short."""
    n = len(agents)
    way = [apart(s, g) for s, g in agents]
    far = sorted(range(n), key=lambda i: -way[i])
    given = list(range(n))
    orders: list[list[int]] = []
    for order in (given[::-1], far, far[::-1]):
        if order != given and order not in orders:  # an order tried already plans the same
            orders.append(order)
    runs = [(planner.reordered(order), order) for order in orders]
    runs.append((planner.fair(FAIR_AFTER, FAIR_WINDOW, FAIR_EVERY), given))
    plans: list[list[list[Tile]]] = []
    for run, order in runs:
        found = yield from run.solving(MAX_TICKS, stall=STALL, complete=complete)
        h: list[list[Tile]] = [[] for _ in range(n)]
        for i, path in zip(order, found, strict=True):
            h[i] = path
        plans.append(h)
    return plans


def best_plan(plans: list[list[list[Tile]]], specs: list[UnitSpec], headings: list[float],
              agents: list[tuple[Tile, Tile]]) -> list[list[Tile]]:
    """Of a round's plans, the one that arrives and, as driven (``plan_times``: in the units'
    own time from their headings, not in ticks), keeps the longest stand shortest (down to
    ``STAND_OK``), then ends soonest; the first of equals."""
    if len(plans) == 1:
        return plans[0]
    goals = [g for _, g in agents]

    def score(h: list[list[Tile]]) -> tuple[int, float, float]:
        left = sum(p[-1] != g for p, g in zip(h, goals, strict=True))
        d = driven(h, goals, specs, headings)
        return left, max(d.longest_stand, STAND_OK), d.makespan
    return min(plans, key=score)


def own_claim(u: UnitState, claim: Tile) -> bool:
    """Whether ``u``'s claim on tile ``claim`` (the tile it wants, or where it stands) is its
    own: the goal of its own current or next order, or a tile of its goal (resting there, or
    stepping back to it; not once it gave its orders up); not a step aside and back elsewhere,
    or standing idle (``goal_tiles``' ``own``)."""
    order = u.next_order
    if order is not None and order.kind is not OrderKind.STOP and not order.aside:
        return True
    if u.resting is UnitStatus.STUCK:
        return False  # it gave its orders up: its goal is its no more
    return any(tile_of(g[0], g[1]) == claim for g in u.goal)


def goal_tiles(blocked: np.ndarray, starts: list[Tile], wants: list[Tile | None], own: list[bool]) -> list[Tile]:
    """Each agent's goal tile: the tile it wants (its start when it wants none), or, when
    another has that one, the free tile nearest it that the agent can still get to.

    A unit's own claim (``own``: the goal of its own order, or the goal it rests on) comes
    before a weak one (a step aside and back, or standing idle), which gives way: a unit
    stepping aside was sent back to a tile another unit was sent to, took it (the nearer), and
    both ended on each other's goals for good. Units sent to one tile (a contested tile) take
    it and the tiles round it nearest first: the one nearest it as the crow flies takes the
    tile itself, the next the free tile nearest it that it can reach without crossing a tile
    given before (in a corridor, on its own side of the ones nearer), and so on; so nobody's
    goal lies behind another's, and the tile wanted is taken (given out in the units' order,
    three units in a corridor were sent past each other and the goal was left empty)."""
    claims = [start if want is None else want for start, want in zip(starts, wants, strict=True)]
    count: dict[Tile, int] = {}
    for claim, mine in zip(claims, own, strict=True):
        if mine:
            count[claim] = count.get(claim, 0) + 1
    first: dict[Tile, int] = {}
    for i, claim in enumerate(claims):
        if own[i] and count[claim] > 1:
            first.setdefault(claim, i)

    def rank(i: int) -> tuple[bool, int, float, int]:
        claim = claims[i]
        if not own[i] or count[claim] == 1:
            return not own[i], i, 0.0, i
        return False, first[claim], math.hypot(starts[i][0] - claim[0], starts[i][1] - claim[1]), i

    out: list[Tile] = list(starts)
    given: set[Tile] = set()
    others = set(starts)
    for i in sorted(range(len(starts)), key=rank):
        start, goal = starts[i], claims[i]
        if goal in given:
            contested = own[i] and count[goal] > 1
            near = free_near(blocked, goal, given | (others - {start}), start if contested else None, given)
            # every tile near is held (a packed corridor): one another unit stands on will do
            goal = near if near not in given else free_near(blocked, goal, given)
        given.add(goal)
        out[i] = goal
    return out


def free_near(blocked: np.ndarray, tile: Tile, avoid: set[Tile], source: Tile | None = None,
              walls: Iterable[Tile] = ()) -> Tile:
    """The open tile nearest ``tile`` (4-neighbour moves) that is not in ``avoid``; with
    ``source``, the nearest of those that ``source`` reaches with ``walls`` walled off (if
    none is, the nearest of all)."""
    reach = None
    if source is not None:
        passable = ~blocked
        for x, y in walls:
            passable[y, x] = False
        passable[source[1], source[0]] = True
        labels, _ = label(passable)
        reach = labels == labels[source[1], source[0]]
    nearest = None
    for x, y in breadth_first(blocked, tile):
        if (x, y) not in avoid:
            if reach is None or reach[y, x]:
                return x, y
            nearest = (x, y) if nearest is None else nearest
    return tile if nearest is None else nearest
