"""Cooperative pathfinding for many point agents: windowed hierarchical cooperative A* (WHCA*).

After D. Silver, "Cooperative Pathfinding" (AIIDE 2005). Agents are planned one after another in
a priority order; each plans in *space-time* (tile, tick) against a shared reservation table
holding what the agents before it have claimed, then claims its own path:

- a **vertex** reservation ``(tile, t)``: no two agents stand on one tile in one tick;
- an **edge** reservation ``(a -> b, t)``: a move from b to a in that tick is refused, so two
  agents never swap tiles (pass through each other) in one tick;
- an agent whose plan ends on its goal keeps that goal reserved from its arrival onwards.

Moves are those of ``search.grid.GridGraph`` on the map's open tiles: 4 or 8 neighbours, a
diagonal only when both orthogonal tiles beside it are open (Lester's no-corner-cutting rule).
Every move (straight or diagonal) and every wait takes one tick and costs 1 (with ``turn_wait``,
a change of direction first takes a wait, or an agent's own number of them); waiting on one's own
goal costs 0, so an agent that has arrived prefers to stay. Terrain costs are ignored: the plan
is in ticks, which is what the reservations are counted in. Other agents never block diagonals
(agents are points).

Why windowed: a full space-time search to the goal for every agent is costly and fixes the
priority order for the whole journey. WHCA* searches only ``window`` ticks ahead (default 16,
Silver's order of magnitude) and then adds the agent's *abstract distance*, the true distance to
its goal ignoring other agents, as the cost of the rest of the way. Plans are redone every
``window // 2`` ticks (at least 1), so the part of a plan an agent follows was always made with
enough look-ahead. The abstract distance is exact for the grid: a breadth-first sweep from the
goal that goes only as far as the plans ask (``goal_distance``, resumable as Silver's is).

Priorities: agents still travelling plan before agents resting on their goals (so a resting
agent steps aside for one passing through, then returns), otherwise in the order given. If an
agent finds no plan in a round (those before it boxed it in), it is moved to the front and the
round is redone; if that does not settle, every agent waits one tick, which can never conflict,
and planning is tried again next tick. WHCA* is not complete: agents can be stuck for ever in
narrow places, which ``solve`` reports by returning before everyone arrived. Two cases the tests
found: with a short window (4 ticks) two agents head-on in a corridor see each other only after
the last side tile is behind one of them, and push each other back and forth; two goals side by
side in a dead-end pocket make their agents push each other out in turn (resting agents give
way) for ever.
"""

from __future__ import annotations

import copy
import heapq
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from ..maps.tilemap import TileMap
from ..outcomes import BadInput, shown
from .feasible import Reach, reachable_steps, schedule
from .goal_distance import GoalDistances
from .lacam import lacam_steps
from .sliced import Sliced, run_to_end

Tile = tuple[int, int]
DEFAULT_WINDOW = 16
#: What stepping onto a tile where another agent rests on its goal costs, in ticks, beyond the
#: move: a way round of up to this many more moves is taken instead of pushing a unit that has
#: arrived out of its place (it would step aside and stand beside its goal until the other
#: passed). Where there is no way round, the resting agent still steps aside.
RESTING_COST = 4
#: Tiles made or swept (move table, distances) that count as one unit of ``work``: about the
#: time of one expansion of the space-time search.
SWEPT_A_UNIT = 20
#: The most distances to goals a map keeps for later plans, in tiles (each goal's is a number per
#: tile, found as far as plans asked: about 32 MB of them at most; on a 128x128 map, 244 goals).
KEPT_DISTANCES = 4_000_000
#: The tiles a goal's distances sweep (``goal_distance``) between two yields of ``preparing``.
DISTANCE_SLICE = 4096
#: The most ticks ``turn_wait`` may give one agent's turn (each is a state more per tile for
#: its search: a larger number only slows planning).
MAX_TURN_TICKS = 16


class _Reservations:
    """The space-time reservation table of one planning round. With ``gap``, a tile left in a
    tick is not entered by another agent in the next (no agent follows right on another's heels)."""

    def __init__(self, gap: bool = False) -> None:
        self.vertex: set[tuple[int, int]] = set()         # (tile, t)
        self.shadow: dict[tuple[int, int], int] = {}      # (tile, t) -> agent: held one tick after it is left
        self.moves: set[tuple[int, int, int]] = set()     # (from, to, t): a move taken from t to t+1
        self.parked: dict[int, int] = {}                  # tile -> tick from which it is held for good
        self.gap = gap
        self.next: dict[tuple[int, int], int] = {}        # (tile, t) -> that agent's tile at t + 1

    def free(self, tile: int, t: int, me: int = -1) -> bool:
        held_from = self.parked.get(tile)
        if (tile, t) in self.vertex or (held_from is not None and t >= held_from):
            return False
        if self.gap:
            return self.shadow.get((tile, t), me) == me and (tile, t + 1) not in self.vertex and (
                held_from is None or t + 1 < held_from)
        return True

    def swap_free(self, a: int, b: int, t: int) -> bool:
        """Whether a move a -> b from t to t+1 does not meet someone moving b -> a."""
        return (b, a, t) not in self.moves

    def stand(self, tile: int, t: int, me: int) -> None:
        """With ``gap``: agent ``me`` stands on ``tile`` at ``t``, so nobody else enters it at t+1."""
        if self.gap:
            self.shadow[(tile, t + 1)] = me

    def closes_ring(self, a: int, b: int, t: int) -> bool:
        """Whether a move a -> b from t to t+1 would close a ring of agents each moving into the
        tile the next one leaves in that tick (a rotation: driven by bodies that each wait for
        the tile ahead to be left, nobody could start)."""
        at, seen = b, 0
        while (at, t) in self.next and seen < 64:
            at = self.next[(at, t)]
            if at == a:
                return True
            seen += 1
        return False

    def claim(self, path: list[int], t0: int, goal: int, me: int = -1) -> None:
        for k, tile in enumerate(path):
            self.vertex.add((tile, t0 + k))
            if k + 1 < len(path) and path[k + 1] != tile:
                self.next[(tile, t0 + k)] = path[k + 1]
            if self.gap:
                self.shadow[(tile, t0 + k + 1)] = me
            if k:
                self.moves.add((path[k - 1], tile, t0 + k - 1))
        if path[-1] == goal:
            k = len(path) - 1
            while k > 0 and path[k - 1] == goal:
                k -= 1
            self.parked[goal] = t0 + k


def _swept(tiles: int) -> int:
    """The work of sweeping ``tiles`` tiles (``SWEPT_A_UNIT`` a unit, rounded up)."""
    return -(-tiles // SWEPT_A_UNIT)


def _whole(value: object, name: str) -> None:
    """Refuse ``value`` unless it is a whole number, at least 0 (``name`` in the message)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise BadInput(f"{name} must be a whole number, at least 0, got {shown(value)}", name)


class CooperativePlanner:
    """Moves many point agents on a map's grid without collisions, by WHCA*.

    ``agents`` is a sequence of ``(start, goal)`` tile pairs ``((x, y), (x, y))``; starts must be
    distinct, goals must be distinct, and all must be open tiles on the map, each goal reachable
    from its start. ``window`` is the look-ahead in ticks (at least 1); ``neighbours`` is 4 or 8.
    With ``turn_wait`` an agent stands a tick on a tile before it leaves it in another direction
    than it came (a unit that stops on a corner to pivot takes about that long): the plan's
    timing is then nearer the time units take to drive it, so it goes straight where it can, and
    one that has to turn into a door pays for the turn, not those queued straight behind it.
    ``turn_wait`` may also give each agent its own number of ticks (0: it turns as it goes), for
    units that pivot slowly for their speed.
    ``fair()`` gives a planner that re-orders the agents as they wait (a fixed priority order can
    have one agent wait at a merge while a whole file goes by).
    ``step()`` advances one tick; ``solve(max_ticks)`` runs until every agent is on its goal.
    Raises ``BadInput`` naming the field (``agents[2].goal``, ``window``, ...) for bad input.
    Sliced (``search.sliced``, for a game that plans a little each tick): with ``prepare=False``
    the move table and the distances to the goals are made by ``preparing()`` (which raises for a
    goal out of reach) instead of at once, and ``solving()`` is ``solve()``; their work is
    counted in ``work``.
    """

    def __init__(self, tilemap: TileMap, agents: Sequence[tuple[Tile, Tile]], window: int = DEFAULT_WINDOW,
                 neighbours: int = 8, gap: bool = False, rotations: bool = True,
                 turn_wait: bool | Sequence[int] = False, prepare: bool = True) -> None:
        if isinstance(window, bool) or not isinstance(window, (int, np.integer)) or window < 1:
            raise BadInput(f"window must be a whole number of ticks, at least 1, got {shown(window)}", "window")
        if isinstance(neighbours, bool) or neighbours not in (4, 8):
            raise BadInput(f"neighbours must be 4 or 8, got {shown(neighbours)}", "neighbours")
        self.width, self.height = tilemap.width, tilemap.height
        self.window = int(window)
        self.neighbours = int(neighbours)
        self.gap = bool(gap)
        self.rotations = bool(rotations)
        #: Agents that have stood this many ticks or more off their goals are planned first (``fair``).
        self.fair_after: int | None = None
        self.replan_every = max(1, self.window // 2)
        self._map, self._version = tilemap, tilemap.version
        self._open = ~np.asarray(tilemap.blocked, dtype=bool)
        starts, goals = self._check_agents(agents)
        self.goals = goals
        #: Per agent, the ticks it stands on a corner before it leaves in a new direction.
        self.turn_ticks = self._check_turns(turn_wait, len(goals))
        #: The work done so far (``sliced``: expansions, ``SWEPT_A_UNIT`` tiles swept, LaCAM's
        #: agent moves, each about as long), and how much of it was last reported.
        self.work, self._reported = 0, 0
        self._adjacent: Sequence[tuple[int, ...]] = ()
        self._distance: list[GoalDistances] = []
        self._reset(starts)
        if prepare:
            run_to_end(self.preparing())

    def preparing(self) -> Sliced[None]:
        """Make the move table (a row of tiles at a time) and each goal's distances (a sweep
        of the map each), or take them from the map's cache (``TileMap.cached``: a jam's rounds
        and the lab's plan the same goals on the same map again and again); ``BadInput`` naming
        ``agents[i].goal`` for a goal its start cannot reach. Planning before this is done is
        refused."""
        same = self._map.version == self._version  # (else the map changed since: nothing kept is ours)
        if not self._adjacent:
            # kept as tuples of numbers, which the garbage collector stops walking
            kept: dict[str, tuple[tuple[int, ...], ...]] = \
                self._map.cached(f"cooperative:moves{self.neighbours}", dict) if same else {}
            table = kept.get("moves")
            if table is None:
                rows: list[tuple[int, ...]] = []
                ids = list(range(self.width * self.height))  # one int object a tile, shared by the tuples
                for y in range(self.height):
                    rows += self._adjacency_row(y, ids)
                    self.work += -(-self.width // SWEPT_A_UNIT)
                    yield self._fresh()
                table = kept.setdefault("moves", tuple(rows))  # (whole or not at all)
            self._adjacent = table
        same = same and self._map.version == self._version
        known: OrderedDict[int, GoalDistances] = \
            self._map.cached(f"cooperative:distances{self.neighbours}", OrderedDict) if same else OrderedDict()
        most = max(8, KEPT_DISTANCES // (self.width * self.height))
        for i in range(len(self._distance), len(self.goals)):
            goal, start = self.goals[i], self._starts[i]
            dist = known.get(goal)
            if dist is None:
                dist = known[goal] = GoalDistances(self._adjacent, goal)
                while len(known) > most:
                    known.popitem(last=False)
            else:
                known.move_to_end(goal)
            while True:
                before = dist.work
                reached = dist.settle(start, DISTANCE_SLICE)
                self.work += _swept(dist.work - before)
                if reached:
                    break
                yield self._fresh()
            self._distance.append(dist)
            if dist[start] < 0:
                raise BadInput(f"agents[{i}]: the goal cannot be reached from the start", f"agents[{i}].goal")
            yield self._fresh()

    def _fresh(self) -> int:
        """The work done since this was last asked."""
        done, self._reported = self.work - self._reported, self.work
        return done

    def _ready(self) -> None:
        if len(self._distance) < len(self.goals) or not self._adjacent:
            raise RuntimeError("CooperativePlanner: run preparing() to its end before planning")

    def _reset(self, starts: list[int]) -> None:
        """Every agent on its start, nothing planned yet."""
        self._starts = list(starts)
        self.tick = 0
        self.positions = list(starts)
        self.history: list[list[int]] = [[s] for s in starts]
        self._plans: list[list[int]] = []
        self._plan_tick = 0
        #: Rounds in which no order of the agents found plans for all (everyone waited a tick).
        self.jammed = 0
        #: Whether ``solve`` took LaCAM's plan (``complete``), or ``proving`` its own, after WHCA*
        #: stopped short.
        self.completed = False
        #: Whether LaCAM searched every configuration reachable from the starts and none had
        #: every agent on its goal: no plan exists (not merely none found within the bounds).
        self.unsolvable = False

    def reordered(self, order: Sequence[int]) -> CooperativePlanner:
        """A planner for the same agents from their starts, in the priority ``order`` (indices
        of this one's agents; the new planner's agent k is this one's ``order[k]``), sharing the
        move table and the distances to the goals, which cost most to build."""
        self._ready()
        n = len(self.goals)
        if not isinstance(order, (list, tuple)) or sorted(order) != list(range(n)):
            raise BadInput(f"order must list each of the {n} agents' indices once, got {shown(order)}", "order")
        other = copy.copy(self)
        other.goals = [self.goals[i] for i in order]
        other.turn_ticks = [self.turn_ticks[i] for i in order]
        other._distance = [self._distance[i] for i in order]
        other._reset([self._starts[i] for i in order])
        return other

    def fair(self, after: int, window: int, replan_every: int) -> CooperativePlanner:
        """A planner for the same agents from their starts (sharing what ``reordered`` shares)
        whose every round plans first the agents that have stood ``after`` ticks or more on their
        tiles, longest first, then the rest in this one's order (dynamic priorities, as in PIBT),
        over ``window`` ticks, planned again every ``replan_every`` (often, so a waiting agent's
        turn comes soon; a shorter window keeps that cheap)."""
        for name, value in (("after", after), ("window", window), ("replan_every", replan_every)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise BadInput(f"{name} must be a whole number of ticks, at least 1, got {shown(value)}", name)
        other = self.reordered(list(range(len(self.goals))))
        other.fair_after, other.window, other.replan_every = int(after), int(window), int(replan_every)
        return other

    # -- input -----------------------------------------------------------------------------
    def _tile(self, value: object, field: str) -> int:
        if not isinstance(value, (tuple, list)) or len(value) != 2 or not all(
                isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
            raise BadInput(f"{field} must be a tile (x, y) of two integers, got {shown(value)}", field)
        x, y = int(value[0]), int(value[1])
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise BadInput(f"{field} {(x, y)} is off the {self.width}x{self.height} map", field)
        if not self._open[y, x]:
            raise BadInput(f"{field} {(x, y)} is a wall", field)
        return y * self.width + x

    def _check_agents(self, agents: object) -> tuple[list[int], list[int]]:
        if not isinstance(agents, (list, tuple)):
            raise BadInput(f"agents must be a list of (start, goal) pairs, got {shown(agents)}", "agents")
        starts: list[int] = []
        goals: list[int] = []
        seen_start: dict[int, int] = {}
        seen_goal: dict[int, int] = {}
        for i, pair in enumerate(agents):
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise BadInput(f"agents[{i}] must be a (start, goal) pair, got {shown(pair)}", f"agents[{i}]")
            s = self._tile(pair[0], f"agents[{i}].start")
            g = self._tile(pair[1], f"agents[{i}].goal")
            if s in seen_start:
                raise BadInput(f"agents[{i}] starts on the tile agents[{seen_start[s]}] starts on",
                               f"agents[{i}].start")
            if g in seen_goal:
                raise BadInput(f"agents[{i}] has the goal of agents[{seen_goal[g]}]", f"agents[{i}].goal")
            seen_start[s], seen_goal[g] = i, i
            starts.append(s)
            goals.append(g)
        return starts, goals

    # -- the grid --------------------------------------------------------------------------
    @staticmethod
    def _check_turns(turn_wait: object, n: int) -> list[int]:
        """``turn_wait`` as ticks per agent."""
        if isinstance(turn_wait, bool):
            return [int(turn_wait)] * n
        if not (isinstance(turn_wait, (list, tuple)) and len(turn_wait) == n and all(
                not isinstance(k, bool) and isinstance(k, (int, np.integer)) and 0 <= k <= MAX_TURN_TICKS
                for k in turn_wait)):
            raise BadInput(f"turn_wait must be true, false or a whole number of ticks (0 to {MAX_TURN_TICKS}) "
                           f"for each of the {n} agents, got {shown(turn_wait)}", "turn_wait")
        return [int(k) for k in turn_wait]

    def _adjacency_row(self, y: int, ids: list[int]) -> list[tuple[int, ...]]:
        """Per tile of row ``y``, the flat tiles one move away (diagonals only past two open
        sides), as the objects of ``ids`` (each tile's number: a new int in each tuple took 28
        bytes a neighbour past 256, most of the table's 235 MB on 1024 x 1024)."""
        w, h, ok = self.width, self.height, self._open
        dirs = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        if self.neighbours == 8:
            dirs += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        out: list[tuple[int, ...]] = []
        for x in range(w):
            near: list[int] = []
            if ok[y, x]:
                for dx, dy in dirs:
                    nx, ny = x + dx, y + dy
                    if not (0 <= nx < w and 0 <= ny < h and ok[ny, nx]):
                        continue
                    if dx and dy and not (ok[y, nx] and ok[ny, x]):
                        continue
                    near.append(ids[ny * w + nx])
            out.append(tuple(near))
        return out

    # -- planning --------------------------------------------------------------------------
    def _search(self, i: int, t0: int, table: _Reservations, hold: int = 0,
                resting: frozenset[int] = frozenset()) -> list[int] | None:
        """Agent i's cheapest ``window``-tick path from its position at t0 against ``table``
        (the tiles at t0 .. t0 + window), scored by ticks spent (``RESTING_COST`` more for each
        step onto a tile in ``resting``) plus the abstract distance left; it first waits ``hold``
        ticks where it stands. None when every path runs into a reservation. The distances it
        reads that were not known yet are found on the way (their work counted too)."""
        dist = self._distance[i]
        before = dist.work
        path = self._window_search(i, t0, table, hold, resting)
        self.work += _swept(dist.work - before)
        return path

    def _window_search(self, i: int, t0: int, table: _Reservations, hold: int,
                       resting: frozenset[int]) -> list[int] | None:
        """``_search``'s search."""
        start, goal, dist = self.positions[i], self.goals[i], self._distance[i]
        known = dist.values  # (a tile's distance, read directly once found: the search's inner loop)
        end = t0 + self.window
        if start == goal and not hold and all(table.free(goal, t, i) for t in range(t0 + 1, end + 1)):
            # resting on its goal, which nobody planned before it passes: it stays (the only plan
            # of cost 0, the one the search finds, a state a tick: most agents of a crowd, most rounds)
            self.work += end - t0 + 1
            return [goal] * (end - t0 + 1)
        if any(not table.free(start, t0 + k, i) for k in range(1, hold + 1)):
            return None
        turns = self.turn_ticks[i]
        # a state: (tile, tick, the move that brought it there: 0 once it has stood ``turns``
        # ticks, the ticks it has stood since), at first as the agent's history leaves it (a
        # plan goes on from where the last one left it, moving or part way through a stand)
        came0, stood0 = self._came(i, turns, hold) if turns else (0, 0)
        first = (start, t0 + hold, came0, stood0)
        g_of: dict[tuple[int, int, int, int], int] = {first: 0}
        parent: dict[tuple[int, int, int, int], tuple[int, int, int, int]] = {
            (start, t0 + k + 1, 0, 0): (start, t0 + k, 0, 0) for k in range(hold - 1)}
        if hold:
            parent[first] = (start, t0 + hold - 1, 0, 0)  # its waits, for the path
        heap = [(dist[start], dist[start], 0, first)]
        order = 1
        # the reservation table's tests written out (``free``, ``swap_free``, the first test of
        # ``closes_ring``): they run for every move of every state, several million a round
        vertex, parked, moves, ring = table.vertex, table.parked, table.moves, table.next
        gap, rotations, adjacent = table.gap, self.rotations, self._adjacent
        pop, push = heapq.heappop, heapq.heappush
        expanded = 0
        while heap:
            f, _h, _o, state = pop(heap)
            expanded += 1
            u, t, came, stood = state
            g = g_of[state]
            if f > g + known[u]:
                continue  # a stale entry (its distance was found when it was pushed)
            if t == end:
                self.work += expanded
                path = [u]
                while state in parent:
                    state = parent[state]
                    path.append(state[0])
                return path[::-1]
            t1 = t + 1
            for v in (u, *adjacent[u]):
                step = v - u
                if turns and step and came and step != came:
                    continue  # a turn: it stands ``turns`` ticks on the corner first
                if gap:
                    if not table.free(v, t1, i):
                        continue
                elif (v, t1) in vertex or (held := parked.get(v)) is not None and t1 >= held:
                    continue
                if step and ((v, u, t) in moves or not rotations and (v, t) in ring and table.closes_ring(u, v, t)):
                    continue  # a swap, or a ring of agents each moving into the tile the next leaves
                ng = g + (0 if v == u == goal else 1) + (RESTING_COST if step and v in resting else 0)
                if not turns:
                    key = (v, t1, 0, 0)
                elif step:
                    key = (v, t1, step, 0)
                else:
                    key = (v, t1, 0, 0) if stood + 1 >= turns else (v, t1, came, stood + 1)
                if ng < g_of.get(key, 1 << 30):
                    g_of[key] = ng
                    parent[key] = state
                    d = known[v]
                    if d < 0:
                        d = dist[v]  # not reached yet: the sweep goes on till it is
                    push(heap, (ng + d, d, order, key))
                    order += 1
        self.work += expanded
        return None

    def _came(self, i: int, turns: int, hold: int = 0) -> tuple[int, int]:
        """Agent ``i``'s last move and the ticks it will have stood since, ``hold`` more waits
        counted (0, 0 once it has stood ``turns``: it may leave any way)."""
        h, stood = self.history[i], self._stood(i)
        k = len(h) - 1 - stood  # the tick it last moved into its tile (0: it never moved)
        if k == 0 or stood + hold >= turns:
            return 0, 0
        return h[k] - h[k - 1], stood + hold

    def _plan_round(self) -> Sliced[None]:
        """Plan every agent for the next window, in priority order, yielding after each search.
        When an agent is boxed in, the agents before it whose plans cross its unhindered plan
        first wait one tick more (``hold``), so it gets a head start (two agents meeting head-on
        in a corridor with a bay: one must wait for the other to reach the bay); when none do, it
        moves to the front. If that does not settle, everyone waits one tick."""
        n = len(self.positions)
        order = [i for i in range(n) if self.positions[i] != self.goals[i]]
        after = self.fair_after
        if after is not None:
            stood = {i: self._stood(i) for i in order}
            order.sort(key=lambda i: -stood[i] if stood[i] >= after else 0)  # stable: the rest as given
        order += [i for i in range(n) if self.positions[i] == self.goals[i]]
        hold = [0] * n
        resting = frozenset(p for p, g in zip(self.positions, self.goals, strict=True) if p == g)
        # the last attempt's searches in order, (agent, its hold, its path): an attempt that
        # starts the same way (the same agents first, holding the same) finds the same paths,
        # each planned against the same claims; only the rest are searched again
        last: list[tuple[int, int, list[int] | None]] = []
        alone: dict[int, list[int] | None] = {}  # each boxed-in agent's plan as if it were alone
        for _attempt in range(3 * n + 2 * self.window):
            table = _Reservations(self.gap)
            for k, p in enumerate(self.positions):
                table.stand(p, self.tick, k)
            plans: list[list[int] | None] = [None] * n
            failed = -1
            done: list[tuple[int, int, list[int] | None]] = []
            same = True  # (while the attempt starts as the last did)
            for k, i in enumerate(order):
                if same and k < len(last) and last[k][:2] == (i, hold[i]):
                    path = last[k][2]
                else:
                    same = False
                    path = self._search(i, self.tick, table, hold[i], resting - {self.goals[i]})
                    yield self._fresh()
                done.append((i, hold[i], path))
                if path is None:
                    failed = i
                    break
                table.claim(path, self.tick, self.goals[i], i)
                plans[i] = path
            last = done
            if failed < 0:
                self._plans = [p for p in plans if p is not None]
                self._plan_tick = self.tick
                return
            if failed not in alone:
                alone[failed] = self._search(failed, self.tick, _Reservations(self.gap))
            blockers = self._blockers(failed, alone[failed], plans)
            yield self._fresh()
            blockers = [b for b in blockers if hold[b] < self.window - 1]
            if blockers:
                for b in blockers:
                    hold[b] += 1
            else:
                order.remove(failed)
                order.insert(0, failed)
                hold = [0] * n
        self._plans = [[p, p] for p in self.positions]
        self._plan_tick = self.tick
        self.jammed += 1

    def _stood(self, i: int) -> int:
        """The ticks agent ``i`` has stood on its tile so far (its last stand: counting every wait
        since the start, tried too, did no better)."""
        h = self.history[i]
        k = len(h) - 1
        while k > 0 and h[k - 1] == h[-1]:
            k -= 1
        return len(h) - 1 - k

    def _blockers(self, i: int, alone: list[int] | None, plans: list[list[int] | None]) -> list[int]:
        """The planned agents whose paths meet agent i's plan made as if it were alone (``alone``)."""
        if alone is None:
            return []
        out = []
        for j, path in enumerate(plans):
            if path is None:
                continue
            meets = any(a == b for a, b in zip(alone, path, strict=True)) or any(
                alone[k] == path[k + 1] and alone[k + 1] == path[k] for k in range(len(path) - 1))
            if path[-1] == self.goals[j] and path[-1] in alone:
                meets = True  # it rests on i's way beyond its window
            if meets:
                out.append(j)
        return out

    # -- running ---------------------------------------------------------------------------
    def _xy(self, tile: int) -> Tile:
        y, x = divmod(tile, self.width)
        return x, y

    @property
    def arrived(self) -> bool:
        """Whether every agent stands on its goal."""
        return self.positions == self.goals

    def step(self) -> list[Tile]:
        """Advance one tick (re-planning when due) and return every agent's tile (x, y)."""
        return run_to_end(self._stepping())

    def _stepping(self) -> Sliced[list[Tile]]:
        """``step`` a slice at a time."""
        self._ready()
        k = self.tick - self._plan_tick
        if not self._plans or k >= self.replan_every or k + 1 >= len(self._plans[0]):
            yield from self._plan_round()
            k = 0
        self.tick += 1
        self.positions = [plan[k + 1] for plan in self._plans]
        for i, p in enumerate(self.positions):
            self.history[i].append(p)
        return [self._xy(p) for p in self.positions]

    def solve(self, max_ticks: int = 1000, stall: int | None = None, complete: int = 0) -> list[list[Tile]]:
        """``solving`` all at once."""
        return run_to_end(self.solving(max_ticks, stall, complete))

    def solving(self, max_ticks: int = 1000, stall: int | None = None, complete: int = 0) -> Sliced[list[list[Tile]]]:
        """Step until every agent is on its goal, ``max_ticks`` ticks have passed, or (with
        ``stall``) for that many ticks in a row no agent got closer to its goal (a deadlock
        WHCA* cannot break); return per agent its tile at every tick so far (index t is tick t,
        0 the start). With ``complete`` > 0, when WHCA* stops short (or a round finds no plan
        for everyone) the whole run is planned again from the starts by LaCAM
        (``search.lacam``, complete) within that many configurations, and its plan is taken if
        it reaches every goal. Check ``arrived`` to tell the endings apart."""
        _whole(max_ticks, "max_ticks")
        _whole(complete, "complete")
        self._ready()
        starts, done = list(self.positions), len(self.history[0]) if self.history else 1
        best = sum(self._distance[i][p] for i, p in enumerate(self.positions))
        since = 0
        for _ in range(int(max_ticks)):
            if self.arrived:
                break
            yield from self._stepping()
            left = sum(self._distance[i][p] for i, p in enumerate(self.positions))
            since = 0 if left < best else since + 1
            best = min(best, left)
            if stall is not None and since >= stall or complete and self.jammed:
                break  # no progress, or (with LaCAM to hand) WHCA* found no plan for everyone
        if complete and not self.arrived:
            yield from self._complete(starts, done, int(complete))
        return [[self._xy(p) for p in h] for h in self.history]

    def proving(self, max_work: int, free: Sequence[int] = ()) -> Sliced[list[list[Tile]]]:
        """For when ``solving`` found no plan for everyone (WHCA* stopped short and LaCAM ran
        out of budget or found none): whether the agents can reach their goals from their
        starts at all, the agents ``free`` (indices) ending anywhere, by a search of every
        configuration (``feasible``) within ``max_work`` successors. If they can, its moves
        (made together where they can be) are the plan (``completed``); ``unsolvable`` says
        whether they cannot (unsettled: LaCAM's word, if no agent is free). Returns the history
        as ``solving`` does."""
        found = yield from self.reaching(max_work, free)
        if found.answer is not None or free:
            self.unsolvable = found.answer is False
        if found.answer:
            self._adopt(schedule(self._starts, found.moves), 1)
        return [[self._xy(p) for p in h] for h in self.history]

    def reaching(self, max_work: int, free: Sequence[int] = ()) -> Sliced[Reach]:
        """The search of every configuration that ``proving`` makes (``feasible``), alone: its
        answer and moves, the planner left as it was."""
        _whole(max_work, "max_work")
        self._ready()
        search = reachable_steps(self._starts, self.goals, self._adjacent, int(max_work), free,
                                 self._distance)  # (swept on as the search reads them: counted as work)
        swept = sum(d.work for d in self._distance)
        while True:
            try:
                self.work += next(search)
            except StopIteration as end:
                found: Reach = end.value
                return found
            finally:
                now = sum(d.work for d in self._distance)
                self.work += _swept(now - swept)
                swept = now
            yield self._fresh()

    def _complete(self, starts: list[int], done: int, max_nodes: int) -> Sliced[None]:
        """Plan every agent from ``starts`` (where they stood after ``done`` ticks of history)
        with LaCAM; keep its plan if it reaches the goals."""
        every: list[list[int]] = []  # LaCAM may read any tile's distance, in its inner loop
        for d in self._distance:
            before = d.work
            every.append(d.whole())
            self.work += _swept(d.work - before)
            yield self._fresh()
        search = lacam_steps(starts, self.goals, self._adjacent.__getitem__, every, max_nodes,
                             rotations=self.rotations)
        while True:
            try:
                self.work += next(search)
            except StopIteration as end:
                found = end.value.configs
                self.unsolvable = end.value.exhausted
                break
            yield self._fresh()
        if found is not None:
            self._adopt(found, done)

    def _adopt(self, found: Sequence[Sequence[int]], done: int) -> None:
        """Take the configurations ``found`` (from the starts to the goals, a tick apart) as the
        plan from tick ``done`` - 1 of the history on."""
        self.history = [h[:done] + [c[i] for c in found[1:]] for i, h in enumerate(self.history)]
        self.positions = list(found[-1])
        self.tick = done - 1 + len(found) - 1
        self._plans = []
        self.completed = True
