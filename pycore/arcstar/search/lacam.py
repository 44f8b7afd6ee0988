"""LaCAM: complete multi-agent path finding by lazy constraints, with PIBT as its step.

After K. Okumura, "LaCAM: Search-Based Algorithm for Quick Multi-Agent Pathfinding" (AAAI 2023)
and "Priority Inheritance with Backtracking" (PIBT, IJCAI 2019). A search over *configurations*
(every agent's node at one tick): from a configuration, PIBT proposes the next one (agents in
priority order each take their best free neighbour, pushing lower agents out of the way); the
search keeps, per configuration, a lazily grown tree of constraints ("agent i goes to node v")
so that when the proposal leads nowhere new, the next visit proposes another successor. Every
successor is reachable through the constraint tree, so the search finds a solution whenever one
exists (it is complete), and PIBT makes the first one come fast on crowded maps where windowed
cooperative A* gives up. Plans are not shortest: a quick feasible plan, for when the windowed
planner stalls.

Search as a function over callbacks (nodes are ints; ``neighbours`` gives a node's neighbours,
``distances[i][v]`` agent i's moves from v to its goal, -1 where it cannot get there). Moves:
vertex conflicts and swaps are refused; with ``rotations=False`` so is a ring of agents each
moving into the node the next one leaves (units that wait for the tile ahead to be left could
not drive it). Following (entering a node its agent leaves in the same tick) is allowed.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .sliced import Sliced, run_to_end

Config = tuple[int, ...]
#: Turns of the search between two yields of ``lacam_steps``.
TURNS_A_SLICE = 16


@dataclass
class _Constraint:
    """A node of the lazy constraint tree: agents ``who`` go to ``where`` (in that order)."""

    who: tuple[int, ...] = ()
    where: tuple[int, ...] = ()


@dataclass
class _Node:
    """A configuration reached, its parent, its agents' order and its constraint tree."""

    config: Config
    parent: _Node | None
    order: list[int]
    priority: list[float]
    tree: deque[_Constraint] = field(default_factory=lambda: deque([_Constraint()]))
    #: which agent stands on each node of ``config`` (made once: a node is stepped from again
    #: at each of its constraints)
    at: dict[int, int] = field(init=False)

    def __post_init__(self) -> None:
        self.at = {v: i for i, v in enumerate(self.config)}


@dataclass(frozen=True)
class LacamResult:
    """``configs``: the configurations from the starts to the goals (None: no solution found
    within ``max_nodes``, or none exists); ``nodes``: configurations generated; ``exhausted``:
    every configuration reachable from the starts was searched, so none exists (LaCAM is
    complete), as against a search cut short by its bounds."""

    configs: list[Config] | None
    nodes: int
    exhausted: bool = False


def _shuffle(bits: Callable[[int], int], x: list[int]) -> None:
    """``random.Random.shuffle`` written out, with the same draws (Fisher-Yates, each index drawn
    from ``getrandbits`` as ``_randbelow`` does), so a seed gives the same search: LaCAM shuffles
    a node's few moves millions of times a jam's round, and the calls were a third of its time."""
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        x[i], x[r] = x[r], x[i]


class _Step:
    """PIBT's one step from a configuration, under a constraint."""

    def __init__(self, neighbours: Callable[[int], Sequence[int]], distances: Sequence[Sequence[int]],
                 rotations: bool, rng: random.Random) -> None:
        self.neighbours, self.distances, self.rotations = neighbours, distances, rotations
        self.bits = rng.getrandbits

    def _ring(self, frm: Config, to: list[int], now: dict[int, int], i: int, v: int) -> bool:
        """Whether agent i moving to v meets an agent moving into i's node: a swap, or (without
        ``rotations``) a ring of agents each moving into the node the next one leaves."""
        seen = 0
        while True:
            j = now.get(v)
            if j is None or j == i or to[j] < 0:
                return False
            if to[j] == frm[i]:
                return True
            if self.rotations or to[j] == v:
                return False
            v = to[j]
            seen += 1
            if seen > len(frm):
                return False

    def next(self, node: _Node, c: _Constraint) -> Config | None:
        frm, now = node.config, node.at
        to = [-1] * len(frm)
        nxt: dict[int, int] = {}
        for i, v in zip(c.who, c.where, strict=True):
            if v in nxt or self._ring(frm, to, now, i, v):
                return None
            to[i], nxt[v] = v, i
        for i in node.order:
            if to[i] < 0 and not self._pibt(i, frm, to, now, nxt):
                return None
        return tuple(to)

    def _pibt(self, i: int, frm: Config, to: list[int], now: dict[int, int], nxt: dict[int, int]) -> bool:
        here = frm[i]
        dist = self.distances[i]
        cands = [here, *self.neighbours(here)]
        _shuffle(self.bits, cands)  # ties broken at random (seeded), then by distance
        cands.sort(key=dist.__getitem__)
        for v in cands:
            if v in nxt:
                continue
            j = now.get(v)  # (``_ring``'s first test, written out: most moves meet nobody moving)
            if j is not None and j != i and to[j] >= 0 and self._ring(frm, to, now, i, v):
                continue
            to[i], nxt[v] = v, i
            if j is not None and j != i and to[j] < 0 and not self._pibt(j, frm, to, now, nxt):
                continue  # j could not leave: try i's next choice (v is j's now)
            return True
        to[i] = here
        nxt[here] = i
        return False


def lacam(starts: Sequence[int], goals: Sequence[int], neighbours: Callable[[int], Sequence[int]],
          distances: Sequence[Sequence[int]], max_nodes: int = 100_000, rotations: bool = True,
          seed: int = 0) -> LacamResult:
    """Plan agents from ``starts`` to ``goals`` (distinct nodes each; every goal reachable, as
    ``distances`` says) without vertex conflicts or swaps; search at most ``max_nodes``
    configurations. The result's configurations run from the starts to the goals, one a tick."""
    return run_to_end(lacam_steps(starts, goals, neighbours, distances, max_nodes, rotations, seed))


def lacam_steps(starts: Sequence[int], goals: Sequence[int], neighbours: Callable[[int], Sequence[int]],
                distances: Sequence[Sequence[int]], max_nodes: int = 100_000, rotations: bool = True,
                seed: int = 0) -> Sliced[LacamResult]:
    """``lacam`` a slice at a time (``sliced``): yields every ``TURNS_A_SLICE`` turns of the
    search the agents moved in them (a PIBT step moves every agent), the same result in the end."""
    start, goal = tuple(starts), tuple(goals)
    step = _Step(neighbours, distances, rotations, random.Random(seed))
    n = len(start)

    def node(config: Config, parent: _Node | None) -> _Node:
        if parent is None:  # at first, the farthest from its goal goes first
            priority = [distances[i][start[i]] / (1 + n) for i in range(n)]
        else:  # then an agent gains a step of priority each tick it is not on its goal
            priority = [0.0 if config[i] == goal[i] else parent.priority[i] + 1.0 for i in range(n)]
        order = sorted(range(n), key=lambda i: -priority[i])
        return _Node(config, parent, order, priority)

    first = node(start, None)
    explored: dict[Config, _Node] = {start: first}
    stack = [first]
    for turn in range(20 * max_nodes):  # known configurations come back on the stack: bound the turns too
        if not stack:
            return LacamResult(None, len(explored), exhausted=True)
        if turn % TURNS_A_SLICE == TURNS_A_SLICE - 1:
            yield TURNS_A_SLICE * n
        top = stack[-1]
        if top.config == goal:
            configs: list[Config] = []
            at: _Node | None = top
            while at is not None:
                configs.append(at.config)
                at = at.parent
            return LacamResult(configs[::-1], len(explored))
        if not top.tree:
            stack.pop()
            continue
        c = top.tree.popleft()
        if len(c.who) < n:
            i = top.order[len(c.who)]
            here = top.config[i]
            cands = [here, *neighbours(here)]
            _shuffle(step.bits, cands)
            for v in cands:
                top.tree.append(_Constraint((*c.who, i), (*c.where, v)))
        config = step.next(top, c)
        if config is None:
            continue
        known = explored.get(config)
        if known is not None:
            stack.append(known)
            continue
        if len(explored) >= max_nodes:
            return LacamResult(None, len(explored))
        new = node(config, top)
        explored[config] = new
        stack.append(new)
    return LacamResult(None, len(explored))
