"""The units' routes planned within a budget of work a tick: first asked, first planned.

A game that must keep its ticks short cannot plan every route the moment a unit needs one: a
crowd's re-plans come in bursts (Pinter's look finds a dozen head-on pairs in the same half
second), and one route with its turning stage costs a few milliseconds. As Detour's crowd does
with its path queue, a world with ``World.route_work`` set spends at most that much work a tick
on routes (the planner's units, about an expansion each: ``orders.plan_route_steps``) and on
the avoidance methods' re-plan checks; a route not done by then goes on in the next tick, its
unit standing meanwhile, and the checks wait for a tick with work left. A route is planned for
the leg and the pose its unit asked it for; asked for another (a new order, a step aside), the
old one is dropped. Without a budget every route is planned when asked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..outcomes import BadInput, shown
from ..search.sliced import Sliced
from .orders import Route

#: The largest ``route_work`` accepted (larger is as None: no budget).
MAX_ROUTE_WORK = 1 << 30


def check_work(value: Any, field: str, most: int) -> int | None:
    """``value`` as a tick's budget of work from 1 to ``most`` (None: no budget); ``BadInput``
    naming ``field`` for anything else."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= most):
        raise BadInput(f"{field} must be a whole number from 1 to {most}, or null (no budget), got {shown(value)}",
                       field)
    return value


@dataclass
class RouteJob:
    """A route being planned: what it was asked for, its work, the tick it was asked in and the
    route once done."""

    ask: tuple
    work: Sliced[Route]
    since: int
    route: Route | None = None


class RouteQueue:
    """Routes planned within ``budget`` units of work a tick (None: each when asked), first
    asked, first planned. ``new_tick`` starts a tick's budget and goes on with the routes asked
    before; ``ask`` asks for a unit's route; ``spend`` plans one at once (a re-plan check),
    counting its work. ``planned``, ``waited`` and ``longest``: routes handed out, the ticks
    they waited in all, the longest wait (ticks)."""

    def __init__(self, budget: int | None = None) -> None:
        self.budget = check_work(budget, "route_work", MAX_ROUTE_WORK)
        self.left = 0
        self.tick = 0
        self.jobs: dict[str, RouteJob] = {}
        self.planned = self.waited = self.longest = 0

    def new_tick(self, tick: int) -> None:
        self.tick = tick
        if self.budget is not None:
            self.left = self.budget
            self._advance()

    def can_plan(self) -> bool:
        """Whether this tick has work left for routes."""
        return self.budget is None or self.left > 0

    def charge(self, work: int) -> None:
        """Count ``work`` done this tick for avoidance (claims, say) against the budget."""
        if self.budget is not None:
            self.left -= work

    def spend(self, work: Sliced[Route]) -> Route:
        """Plan ``work`` to its end now; its work counts against the tick's budget."""
        while True:
            try:
                done = next(work)
            except StopIteration as end:
                return end.value
            self.charge(done)

    def ask(self, uid: str, ask: tuple, make: Callable[[], Sliced[Route]]) -> Route | None:
        """Unit ``uid``'s route for ``ask`` (its leg and pose), planned by ``make()``'s work: the
        route once done, else None (it waits). A job asked for anything else is dropped."""
        job = self.jobs.get(uid)
        if job is not None and job.ask != ask:
            del self.jobs[uid]
            job = None
        if job is None:
            if self.budget is None:
                return self._handed(self.spend(make()), 0)
            job = self.jobs[uid] = RouteJob(ask, make(), self.tick)
            self._advance()
        if job.route is None:
            return None
        del self.jobs[uid]
        return self._handed(job.route, self.tick - job.since)

    def drop(self, uid: str) -> None:
        """Forget unit ``uid``'s route (the unit is gone or was given another order)."""
        self.jobs.pop(uid, None)

    def _handed(self, route: Route, waited: int) -> Route:
        self.planned += 1
        self.waited += waited
        self.longest = max(self.longest, waited)
        return route

    def _advance(self) -> None:
        """Go on with the routes in the order they were asked while the tick has work left."""
        for job in self.jobs.values():
            if self.left <= 0:
                return
            while job.route is None and self.left > 0:
                try:
                    self.left -= next(job.work)
                except StopIteration as end:
                    job.route = end.value
