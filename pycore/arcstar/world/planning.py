"""The plans units wait for, done within a tick's budget of work (Detour's path queue).

A unit that needs a route, or a check whether a detour exists, hands the world a task: work
done a slice at a time (``search.sliced``) that applies its own outcome when it ends. With no
budget (``work`` None) a task runs to its end as it is handed over, so a world without one is
the same as if it planned in place. With a budget, tasks are served first come, first served:
each tick the ones waiting go on for the tick's work, and a task handed over later in the tick
starts at once only if none waits before it and work is left. A unit with a task waiting
stands (or drives on, for a check) until it ends; a tick then costs its budget of planning
at most, give or take a slice, however many units plan at once.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from ..search.sliced import Sliced


@dataclass
class _Task:
    work: Sliced[None]
    stamp: Hashable  # what the task was asked for; it is stale once the unit's differs


class PlanQueue:
    """Tasks by unit id, served in the order they came within ``work`` units a tick (None: no
    limit). ``spent``: the work done so far this tick (``start_tick`` sets it to 0)."""

    def __init__(self, work: int | None) -> None:
        self.work = work
        self.spent = 0
        self._tasks: dict[str, _Task] = {}  # in the order they came

    def __len__(self) -> int:
        return len(self._tasks)

    def start_tick(self) -> None:
        """A new tick: its work goes first to the tasks waiting, in order."""
        self.spent = 0
        for uid in list(self._tasks):
            if not self._left():
                return
            task = self._tasks.get(uid)
            if task is not None and self.drive(task.work):
                self._tasks.pop(uid, None)

    def hand(self, uid: str, work: Sliced[None], stamp: Hashable = None) -> bool:
        """Take ``work`` for unit ``uid`` (replacing one it had): started now if no task waits
        before it and work is left this tick. Returns whether it is done already."""
        self.drop(uid)
        if not self._tasks and self._left() and self.drive(work):
            return True
        self._tasks[uid] = _Task(work, stamp)
        return False

    def waiting(self, uid: str, stamp: Hashable = None) -> bool:
        """Whether unit ``uid`` has a task waiting that was asked for ``stamp`` (one asked for
        something else is stale: it is dropped)."""
        task = self._tasks.get(uid)
        if task is None:
            return False
        if task.stamp != stamp:
            self.drop(uid)
            return False
        return True

    def drop(self, uid: str) -> None:
        """Forget unit ``uid``'s task, if it has one (its outcome is never applied)."""
        task = self._tasks.pop(uid, None)
        if task is not None:
            task.work.close()

    def drive(self, work: Sliced[None]) -> bool:
        """Do ``work`` on for what is left of this tick's budget; whether it is done."""
        try:
            while self._left():
                self.spent += next(work)
        except StopIteration:
            return True
        return False

    def _left(self) -> bool:
        return self.work is None or self.spent < self.work
