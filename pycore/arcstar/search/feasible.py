"""Whether agents on a graph can reach their goals at all, whatever the time, and how: a
breadth-first search of their configurations, one agent moving at a time into a free
neighbouring node, and the moves it finds made together where they can be (``schedule``).

Moving one at a time reaches the same configurations as moving together without swaps or
rotations (a step of a train of agents is the same moves made head first), so a search run dry
proves that no plan of the cooperative planner's kind exists. LaCAM (``search.lacam``) is
complete too, but it tries joint moves under constraints, up to three to the power of the
agents per configuration, and runs out of any budget long before it has tried them all: six
agents in a corridor with two bays took LaCAM past 500,000 configurations without an answer,
and this search 41,000 configurations (0.25 s).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .sliced import Sliced

#: Successors looked at between two yields (``reachable_steps``'s unit of work).
WORK_A_SLICE = 2000

#: A configuration: each agent's node, in agent order.
Config = tuple[int, ...]


@dataclass(frozen=True)
class Reach:
    """``answer``: True (``moves`` bring every agent to its goal), False (no way exists), None
    (not settled within the work allowed). ``moves``: (agent, from, to), one at a time."""

    answer: bool | None
    moves: list[tuple[int, int, int]] = field(default_factory=list)


def reachable_steps(starts: Sequence[int], goals: Sequence[int], neighbours: Callable[[int], Sequence[int]],
                    max_work: int, free: Sequence[int] = ()) -> Sliced[Reach]:
    """Whether the agents can get from ``starts`` to ``goals`` (distinct nodes each, in agent
    order), moving one at a time into free neighbouring nodes, and the fewest such moves that
    do (``Reach``), within ``max_work`` successors looked at; the agents ``free`` (indices) may
    end anywhere (their goals are not asked for). A slice at a time (``sliced``): yields the
    successors looked at since it last yielded."""
    start = tuple(starts)
    loose = set(free)
    held = [i for i in range(len(start)) if i not in loose]
    want = tuple(goals[i] for i in held)

    def done(c: Config) -> bool:
        return tuple(c[i] for i in held) == want
    if done(start):
        return Reach(True)
    came: dict[Config, tuple[Config, int, int, int] | None] = {start: None}
    queue = deque([start])
    work = reported = 0
    while queue:
        config = queue.popleft()
        taken = set(config)
        for i, node in enumerate(config):
            for nxt in neighbours(node):
                if nxt in taken:
                    continue
                work += 1
                new = config[:i] + (nxt,) + config[i + 1:]
                if new in came:
                    continue
                came[new] = (config, i, node, nxt)
                if done(new):
                    return Reach(True, _moves(came, new))
                queue.append(new)
        if work >= max_work:
            return Reach(None)
        if work - reported >= WORK_A_SLICE:
            yield work - reported
            reported = work
    return Reach(False)


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
