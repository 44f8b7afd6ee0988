"""Whether agents on a graph can reach their goals at all, whatever the time, and how: a search
of their configurations, one agent moving at a time into a free neighbouring node, and the moves
it finds made together where they can be (``schedule``).

Moving one at a time reaches the same configurations as moving together without swaps or
rotations (a step of a train of agents is the same moves made head first), so a search run dry
proves that no plan of the cooperative planner's kind exists. LaCAM (``search.lacam``) is
complete too, but it tries joint moves under constraints, up to three to the power of the
agents per configuration, and runs out of any budget long before it has tried them all: six
agents in a corridor with two bays took LaCAM past 500,000 configurations without an answer,
and a breadth-first search of this kind 41,000 configurations (0.25 s).

The search is A* on a lower bound of the moves left: the sum of the agents' goal distances
(each ignoring the others), and, in dead ends one node wide (``_Pockets``), the moves units in
the way must make to leave and come back. The plan found has the fewest moves, as a breadth-first
search's has, and a search run dry has seen every configuration reachable; on the way to a plan
it looks at far fewer. Units in a room with a pocket one tile wide, the deepest goals' units
shut out behind the others (each must back out and come in again): three, 33 moves, took
1.3 million successors breadth first (beyond the world's budget, so the units gave up), about
35,000 on the goal distances alone and under 2,000 with the pockets' part; four, over 5 million
breadth first, 1.1 million and 6,000; five wholly the wrong way round, 98,000 with the pockets'
part. Six so are still beyond the world's budget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from .goal_distance import GoalDistances
from .sliced import Sliced

#: Successors looked at between two yields (``reachable_steps``'s unit of work).
WORK_A_SLICE = 2000

#: A configuration: each agent's node, in agent order.
Config = tuple[int, ...]


class Distances(Protocol):
    """Moves from a node to one goal, indexed by node (-1: the goal cannot be reached)."""

    def __getitem__(self, node: int, /) -> int: ...


@dataclass(frozen=True)
class Reach:
    """``answer``: True (``moves`` bring every agent to its goal), False (no way exists), None
    (not settled within the work allowed). ``moves``: (agent, from, to), one at a time."""

    answer: bool | None
    moves: list[tuple[int, int, int]] = field(default_factory=list)


def reachable_steps(starts: Sequence[int], goals: Sequence[int], adjacent: Sequence[Sequence[int]],
                    max_work: int, free: Sequence[int] = (),
                    distances: Sequence[Distances] | None = None) -> Sliced[Reach]:
    """Whether the agents can get from ``starts`` to ``goals`` (distinct nodes each, in agent
    order; ``adjacent[v]``: the nodes next to node v, both ways), moving one at a time into free
    neighbouring nodes, and the fewest such moves that
    do (``Reach``), within ``max_work`` successors looked at; the agents ``free`` (indices) may
    end anywhere (their goals are not asked for). ``distances[i][v]``: moves from node v to
    agent i's goal on the graph alone (-1: none; given by a caller that has them, else swept
    here by ``GoalDistances``). A slice at a time (``sliced``): yields the successors looked at since it last
    yielded."""
    start = tuple(starts)
    loose = set(free)
    held = [i for i in range(len(start)) if i not in loose]
    want = tuple(goals[i] for i in held)

    def done(c: Config) -> bool:
        return tuple(c[i] for i in held) == want
    if done(start):
        return Reach(True)
    dist, pockets = _bounds(goals, adjacent, loose, distances)
    if any(d is not None and d[v] < 0 for d, v in zip(dist, start, strict=True)):
        return Reach(False)  # a goal its agent cannot reach, whatever the others do
    x0 = pockets.extra(start)
    h0 = sum(d[v] for d, v in zip(dist, start, strict=True) if d is not None) + x0
    watch = pockets.matter if pockets.sent else None
    came: dict[Config, tuple[Config, int, int, int] | None] = {start: None}
    cost: dict[Config, int] = {start: 0}
    # the open configurations by f (a bucket each: f is a small whole number), each with its h's
    # pockets' part; within a bucket the last put is taken first (deepest first among equals)
    buckets: list[list[tuple[Config, int, int]]] = [[] for _ in range(h0 + 1)]
    buckets[h0].append((start, h0, x0))
    f = h0
    work = reported = 0
    while True:
        while f < len(buckets) and not buckets[f]:
            f += 1
        if f == len(buckets):
            break
        config, h, x = buckets[f].pop()
        g = f - h
        if g != cost[config]:
            continue  # reached again by fewer moves since
        if done(config):
            return Reach(True, _moves(came, config))
        taken = set(config)
        for i, node in enumerate(config):
            d = dist[i]
            here = 0 if d is None else d[node]
            for nxt in adjacent[node]:
                if nxt in taken:
                    continue
                work += 1
                to = here
                if d is not None:
                    to = d[nxt]
                    if to < 0:
                        continue
                new = config[:i] + (nxt,) + config[i + 1:]
                if cost.get(new, g + 2) <= g + 1:
                    continue
                cost[new] = g + 1
                came[new] = (config, i, node, nxt)
                nx = pockets.extra(new) if watch is not None and watch(node, nxt) else x
                nh = h - here + to - x + nx
                nf = g + 1 + nh
                while nf >= len(buckets):
                    buckets.append([])
                buckets[nf].append((new, nh, nx))
                if nf < f:
                    f = nf  # (the pockets' part is a bound, not consistent: f may fall)
        if work >= max_work:
            return Reach(None)
        if work - reported >= WORK_A_SLICE:
            yield work - reported
            reported = work
    return Reach(False)


class _Pockets:
    """Dead ends one node wide: chains of nodes with two neighbours each, from a node with one
    (the dead end) to a node with three or more (the mouth, depth 0; the chain's nodes 1, 2, ...
    inwards). Nobody passes anybody in one, so an agent in a pocket whose goal lies there, with
    an agent shallower than it (or outside) whose goal lies deeper than its own, must leave the
    pocket, and the mouth too (the other comes in through it), and come back; so must every
    agent shallower than it there (it cannot get out past them). Each such agent whose goal
    lies in the pocket makes at least its depth plus its goal's depth plus two moves, where its
    goal distance counts their difference. The estimate stays a lower bound (a test holds it to
    a breadth-first search), not a consistent one: a unit stepping onto the mouth drops it by
    three, and the search takes a configuration up again when it finds a shorter way to it.
    Without this, units sent into an alcove in the wrong order (each must back out and come in
    again) took the search millions of configurations."""

    def __init__(self, adjacent: Sequence[Sequence[int]], goals: dict[int, int]) -> None:
        self._adjacent = adjacent
        self._at: dict[int, tuple[int, int] | None] = {}  # node -> (its pocket's dead end, depth), None: none
        #: per pocket some goal lies in, its agents: (agent, the goal's depth)
        self.sent: dict[int, list[tuple[int, int]]] = {}
        for i, goal in goals.items():
            p = self.at(goal)
            if p is not None:
                self.sent.setdefault(p[0], []).append((i, p[1]))

    def matter(self, frm: int, to: int) -> bool:
        """Whether a move from ``frm`` to ``to`` can change ``extra`` (it leaves or enters a
        pocket some goal lies in)."""
        a, b = self.at(frm), self.at(to)
        return (a is not None and a[0] in self.sent) or (b is not None and b[0] in self.sent)

    def extra(self, config: Config) -> int:
        """The moves the agents must make beyond their goal distances to get out of the way in
        pockets (class notes)."""
        total = 0
        for pocket, agents in self.sent.items():
            depth = []
            for i, _ in agents:
                here = self.at(config[i])
                depth.append(here[1] if here is not None and here[0] == pocket else 0)
            out = 0  # the deepest that must leave: every one in the pocket up to there must
            for (_, gj), pj in zip(agents, depth, strict=True):
                if pj > out and any(gi > gj and pi < pj for (_, gi), pi in zip(agents, depth, strict=True)):
                    out = pj
            for (_, gk), pk in zip(agents, depth, strict=True):
                if 0 < pk <= out:
                    total += 2 * min(pk, gk) + 2
        return total

    def at(self, v: int) -> tuple[int, int] | None:
        """The pocket ``v`` lies in (its dead end) and its depth there; None if it lies in none."""
        if v in self._at:
            return self._at[v]
        ends = list(self._adjacent[v])
        self._at[v] = None
        if len(ends) == 2:
            a, a_end = self._walk(v, ends[0])
            b, b_end = self._walk(v, ends[1])
            if a_end == v:
                return None  # a ring
            if self._deg(a_end) == 1 and self._deg(b_end) >= 3:
                a, a_end, b, b_end = b, b_end, a, a_end
            if not (self._deg(a_end) >= 3 and self._deg(b_end) == 1):
                return None  # a corridor, or a path with no mouth
            chain = [*a[::-1], v, *b, b_end]
        elif len(ends) == 1:
            a, a_end = self._walk(v, ends[0])
            if self._deg(a_end) < 3:
                return None
            chain = [*a[::-1], v]
        else:
            return None
        for depth, node in enumerate(chain, 1):
            self._at[node] = (chain[-1], depth)
        return self._at[v]

    def _deg(self, v: int) -> int:
        return len(self._adjacent[v])

    def _walk(self, v: int, first: int) -> tuple[list[int], int]:
        """From ``v`` through ``first`` on along nodes with two neighbours: those, and the node it
        stops at (one neighbour, three or more, or ``v`` again: a ring)."""
        out, prev, cur = [], v, first
        while cur != v and self._deg(cur) == 2:
            out.append(cur)
            a, b = self._adjacent[cur]
            prev, cur = cur, (b if a == prev else a)
        return out, cur


def moves_at_least(config: Sequence[int], goals: Sequence[int], adjacent: Sequence[Sequence[int]],
                   free: Sequence[int] = (), distances: Sequence[Distances] | None = None) -> int | None:
    """The estimate ``reachable_steps`` searches by: a number of moves (one agent at a time)
    that no way from ``config`` to ``goals`` (the agents ``free`` ending anywhere) takes fewer
    of; None if some agent cannot reach its goal at all."""
    dist, pockets = _bounds(goals, adjacent, set(free), distances)
    far = [d[v] for d, v in zip(dist, config, strict=True) if d is not None]
    return None if any(f < 0 for f in far) else sum(far) + pockets.extra(tuple(config))


def _bounds(goals: Sequence[int], adjacent: Sequence[Sequence[int]], loose: set[int],
            distances: Sequence[Distances] | None) -> tuple[list[Distances | None], _Pockets]:
    """Per agent, moves from a node to its goal (None: a free agent, counted nought; -1: the
    goal cannot be reached from there), and the pockets the held agents' goals lie in."""
    dist: list[Distances | None] = []
    for i, goal in enumerate(goals):
        if i in loose:
            dist.append(None)
        elif distances is not None:
            dist.append(distances[i])
        else:
            dist.append(GoalDistances(adjacent, goal))
    return dist, _Pockets(adjacent, {i: goals[i] for i in range(len(goals)) if i not in loose})


def _moves(came: dict[Config, tuple[Config, int, int, int] | None], end: Config) -> list[tuple[int, int, int]]:
    out = []
    step = came[end]
    while step is not None:
        config, agent, frm, to = step
        out.append((agent, frm, to))
        step = came[config]
    return out[::-1]


def schedule(starts: Sequence[int], moves: Sequence[tuple[int, int, int]]) -> list[Config]:
    """The configurations, a tick apart, of ``moves`` (one at a time, as ``reachable_steps``
    gives them) made together where they can be: each move goes in the tick after the last one
    that moved its agent or touched either of its nodes, so moves made in one tick share no
    node (no two agents on one node, no swaps, no trains or rings) and every node sees its
    moves in the order given."""
    last_agent: dict[int, int] = {}
    last_node: dict[int, int] = {}
    ticks: list[list[tuple[int, int]]] = []
    for agent, frm, to in moves:
        t = max(last_agent.get(agent, -1), last_node.get(frm, -1), last_node.get(to, -1)) + 1
        while len(ticks) <= t:
            ticks.append([])
        ticks[t].append((agent, to))
        last_agent[agent] = last_node[frm] = last_node[to] = t
    configs = [tuple(starts)]
    for tick in ticks:
        now = list(configs[-1])
        for agent, to in tick:
            now[agent] = to
        configs.append(tuple(now))
    return configs
