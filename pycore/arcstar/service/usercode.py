"""The lab's Python panel: a heuristic or a tile cost written by the user, run inside a search.

The user's code is compiled in a fresh namespace and may define

- ``heuristic(x, y, gx, gy) -> float``: the estimate from tile (x, y) to the goal (gx, gy), in the
  search's cost units (Lester's costs: 10 a straight step), scaled by the search's weight;
- ``cost(x, y, terrain) -> float | None``: the cost of entering tile (x, y), a multiplier of the
  step's base cost that replaces the terrain's cost (``terrain`` is its name, e.g. "water");
  None or inf makes the tile impassable. It is asked only about tiles the map lets a unit enter
  (walls stay walls), once per tile per search.

Both run lazily inside the engine's slices (``UserGraph`` wraps the map's ``GridGraph``), so the
search's budget and cancel still work between calls. Anything wrong (a syntax error, a missing or
wrong-arity function, an exception, NaN, a negative or non-number value) raises ``UserCodeError``:
a ``BadInput`` whose ``code_error`` names the function, the line in the user's source (read from
the traceback's frames, not from text) and a ``reason`` code. This is no sandbox: the code is the
user's own, run in their own tab; an endless loop can only be stopped by restarting the worker.

``optimal`` with a user heuristic is a check of what the search saw: the heuristic stayed within
the admissible octile (or Manhattan) bound at every node it was asked about and never dropped by
more than a step's cost along a step the search examined (consistency). A cost function with no
heuristic searches as Dijkstra (no built-in estimate is known to be admissible under the user's
costs), which is least-cost.
"""

from __future__ import annotations

import builtins
import inspect
import math
import numbers
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np

from ..maps.tilemap import TileMap
from ..outcomes import BadInput, Status, shown
from ..planner import PlanOptions, PlanResult
from ..search import AStar, GridGraph, graph_for, make_heuristic, path_length

#: The user's source file name in tracebacks, so its frames can be told from arcstar's.
CODE_FILE = "<python panel>"
#: The longest source the service compiles (a panel's functions are a few dozen lines).
MAX_CODE_CHARS = 65_536
#: The functions the code may define, with the arguments each is called with.
ARITY = {"heuristic": 4, "cost": 3}
#: The methods user code runs with (plain best-first search over the wrapped graph).
METHODS = ("astar", "dijkstra")
#: Relative slack for the admissibility and consistency checks (float rounding, not a licence).
SLACK = 1e-9


class Reason(StrEnum):
    """Why user code was refused: what the lab reads (``code_error.reason``)."""

    NOT_TEXT = "not_text"
    TOO_LONG = "too_long"
    SYNTAX = "syntax"
    EXCEPTION = "exception"
    MISSING = "missing"
    NOT_CALLABLE = "not_callable"
    ARITY = "arity"
    NOT_A_NUMBER = "not_a_number"
    NAN = "nan"
    NEGATIVE = "negative"
    INFINITE = "infinite"


class UserCodeError(BadInput):
    """User code that failed: ``code_error`` = {function, line, reason} (function: "heuristic",
    "cost", or "module" for the code's top level; line: 1-based in the user's source, or None)."""

    def __init__(self, message: str, reason: Reason, function: str | None = None, line: int | None = None) -> None:
        super().__init__(message, "code")
        self.code_error: dict[str, Any] = {"function": function, "line": line, "reason": reason.value}


def _user_line(tb: Any) -> int | None:
    """The line of the deepest frame of a traceback that is in the user's source."""
    line = None
    for frame in traceback.extract_tb(tb):
        if frame.filename == CODE_FILE:
            line = frame.lineno
    return line


def _raised(function: str, exc: BaseException) -> UserCodeError:
    line = _user_line(exc.__traceback__)
    where = f" (line {line})" if line is not None else ""
    text = str(exc)
    detail = f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__
    return UserCodeError(f"{function}() raised {detail}{where}", Reason.EXCEPTION, function, line)


@dataclass(frozen=True)
class UserCode:
    """Compiled user code: its functions (None where not defined)."""

    heuristic: Callable[..., Any] | None
    cost: Callable[..., Any] | None

    @property
    def functions(self) -> list[str]:
        return [name for name in ARITY if getattr(self, name) is not None]


def _def_line(fn: Callable[..., Any]) -> int | None:
    code = getattr(fn, "__code__", None)
    return code.co_firstlineno if code is not None and code.co_filename == CODE_FILE else None


def _check_arity(name: str, fn: Callable[..., Any]) -> None:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # a builtin without a signature: its calls will tell
        return
    try:
        sig.bind(*range(ARITY[name]))
    except TypeError:
        wanted = "x, y, gx, gy" if name == "heuristic" else "x, y, terrain"
        raise UserCodeError(f"{name}{sig} must take {ARITY[name]} arguments: {name}({wanted})", Reason.ARITY,
                            name, _def_line(fn)) from None


def compile_code(source: object) -> UserCode:
    """Compile and run ``source`` in a fresh namespace and take its functions; ``UserCodeError``
    for text that is not code, too long, or defines neither function (or one of the wrong shape)."""
    if not isinstance(source, str):
        raise UserCodeError(f"code must be text (a string), got {type(source).__name__}", Reason.NOT_TEXT)
    if len(source) > MAX_CODE_CHARS:
        raise UserCodeError(f"code is {len(source):,} characters, more than the {MAX_CODE_CHARS:,} it may have",
                            Reason.TOO_LONG)
    try:
        compiled = compile(source, CODE_FILE, "exec")
    except SyntaxError as e:
        raise UserCodeError(f"syntax error on line {e.lineno}: {e.msg}", Reason.SYNTAX, None, e.lineno) from None
    except ValueError as e:  # e.g. a NUL character
        raise UserCodeError(f"the code cannot be compiled: {e}", Reason.SYNTAX) from None
    namespace: dict[str, Any] = {"__name__": "arcstar_user", "__builtins__": builtins}
    try:
        exec(compiled, namespace)  # the user's own code, in their own tab: no sandbox is claimed
    except (Exception, SystemExit) as e:
        raise _raised("module", e) from None
    found: dict[str, Callable[..., Any] | None] = {}
    for name in ARITY:
        fn = namespace.get(name)
        if fn is not None and not callable(fn):
            raise UserCodeError(f"{name} must be a function, got {type(fn).__name__}", Reason.NOT_CALLABLE, name)
        if fn is not None:
            _check_arity(name, fn)
        found[name] = fn
    code = UserCode(found["heuristic"], found["cost"])
    if not code.functions:
        raise UserCodeError("the code must define heuristic(x, y, gx, gy) or cost(x, y, terrain)", Reason.MISSING)
    return code


def sample(code: UserCode) -> None:
    """Call each function once on made-up arguments, so a Run shows what is wrong at once."""
    if code.heuristic is not None:
        call_heuristic(code.heuristic, 0, 0, 3, 4)
    if code.cost is not None:
        call_cost(code.cost, 0, 0, "ground")


def _number(name: str, fn: Callable[..., Any], value: object, args: tuple[Any, ...]) -> float:
    if type(value) is float or type(value) is int:  # the usual case, checked without building a message
        v = float(value)
        if v >= 0.0:
            return v
    call = f"{name}({', '.join(repr(a) for a in args)})"
    line = _def_line(fn)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise UserCodeError(f"{call} returned {shown(value)}, not a number", Reason.NOT_A_NUMBER, name, line)
    v = float(value)
    if math.isnan(v):
        raise UserCodeError(f"{call} returned NaN", Reason.NAN, name, line)
    if v < 0:
        raise UserCodeError(f"{call} returned {v:g}: it must not be negative", Reason.NEGATIVE, name, line)
    return v


def call_heuristic(fn: Callable[..., Any], x: int, y: int, gx: int, gy: int) -> float:
    """The user's heuristic at (x, y) toward (gx, gy), checked: a finite number >= 0."""
    try:
        value = fn(x, y, gx, gy)
    except (Exception, SystemExit) as e:
        raise _raised("heuristic", e) from None
    v = _number("heuristic", fn, value, (x, y, gx, gy))
    if math.isinf(v):
        raise UserCodeError(f"heuristic({x}, {y}, {gx}, {gy}) returned inf: it must be finite", Reason.INFINITE,
                            "heuristic", _def_line(fn))
    return v


def call_cost(fn: Callable[..., Any], x: int, y: int, terrain: str) -> float:
    """The user's cost of entering (x, y), checked: a number >= 0, inf for None (impassable)."""
    try:
        value = fn(x, y, terrain)
    except (Exception, SystemExit) as e:
        raise _raised("cost", e) from None
    return math.inf if value is None else _number("cost", fn, value, (x, y, terrain))


@dataclass
class Verdict:
    """What the checks of a user heuristic saw during one search."""

    within_bound: bool = True
    consistent: bool = True
    note: str = ""

    def fail(self, text: str) -> None:
        if not self.note:
            self.note = text


class UserGraph:
    """A map's ``GridGraph`` with the user's heuristic (``"user"``) and/or tile costs; the
    ``search.graph.CellGraph`` protocol, evaluated lazily and cached per node."""

    def __init__(self, base: GridGraph, tilemap: TileMap, code: UserCode, goals: Sequence[int],
                 check: bool) -> None:
        self.base = base
        self.tilemap = tilemap
        self.code = code
        self.node_count, self.cell_count = base.node_count, base.cell_count
        self.heuristics = (*base.heuristics, "user")
        self.default_heuristic = base.default_heuristic
        straight, diagonal = base.options.units
        self._moves = [(d, straight if sa == 0 else diagonal, sa, sb) for d, _c, _k, sa, sb in base.moves]
        self._rule = base.options.diagonal
        self._cost: dict[int, float] = {}
        self._h: dict[int, float] = {}
        self._goals = list(goals)
        self._check = check and code.heuristic is not None
        self._bound = self._reference()
        self.verdict = Verdict()
        self.closed = False  # once the search has ended, no more user calls (a cancel's snapshot)
        self.calls = {"heuristic": 0, "cost": 0}
        self._user_h: Callable[[int], float] = lambda node: 0.0

    def _reference(self) -> Callable[[int], float] | None:
        """An admissible, consistent estimate on the map's own costs to check the user's against."""
        if not self._check or self.code.cost is not None:
            return None
        name = "manhattan" if self.base.admissible("manhattan") else "octile"
        hs = [make_heuristic(name, self.base, g) for g in self._goals]
        return lambda n: min(h(n) for h in hs)

    # -- tile costs ---------------------------------------------------------------------------
    def tile_cost(self, node: int) -> float:
        """The cost multiplier of entering ``node`` (inf: impassable), the user's where given."""
        c = self._cost.get(node)
        if c is None:
            if not self.base.passable[node]:
                c = math.inf
            elif self.code.cost is None:
                c = 1.0
            else:
                x, y = self.base.tile(node)
                self.calls["cost"] += 1
                name = self.tilemap.terrains[int(self.tilemap.terrain[y, x])].name
                c = call_cost(self.code.cost, x, y, name)
            self._cost[node] = c
        return c

    def usable(self, node: int) -> bool:
        return self.base.usable(node) and math.isfinite(self.tile_cost(node))

    def successors(self, node: int) -> Iterable[tuple[int, float]]:
        if self.code.cost is None:
            out: Iterable[tuple[int, float]] = self.base.successors(node)
        else:
            out = self._cost_successors(node)
        if self._check:
            out = list(out)
            self._check_steps(node, out)
        return out

    def _cost_successors(self, node: int) -> list[tuple[int, float]]:
        open_ = self.tile_cost
        out = []
        for d, unit, sa, sb in self._moves:
            c = open_(node + d)
            if math.isinf(c):
                continue
            if sa and self._rule != "always":
                a, b = math.isfinite(open_(node + sa)), math.isfinite(open_(node + sb))
                if not (a and b if self._rule == "both" else a or b):
                    continue
            out.append((node + d, unit * c))
        return out

    # -- the heuristic ------------------------------------------------------------------------
    def heuristic(self, goals: Sequence[int], name: str, weight: float = 1.0) -> Callable[[int], float]:
        if name != "user":
            return self.base.heuristic(goals, name, weight)
        fn = self.code.heuristic
        assert fn is not None
        ends = [self.base.tile(g) for g in goals]
        cache, bound, verdict = self._h, self._bound, self.verdict

        def h(node: int) -> float:
            v = cache.get(node)
            if v is None:
                if self.closed:
                    return 0.0
                x, y = self.base.tile(node)
                self.calls["heuristic"] += 1
                v = call_heuristic(fn, x, y, *ends[0])
                for gx, gy in ends[1:]:
                    v = min(v, call_heuristic(fn, x, y, gx, gy))
                if bound is not None and verdict.within_bound and v > bound(node) * (1 + SLACK) + SLACK:
                    verdict.within_bound = False
                    verdict.fail(f"heuristic({x}, {y}, ...) = {v:g} is above the admissible "
                                 f"{bound(node):g}: the path may not be least-cost")
                cache[node] = v
            return v * weight

        self._user_h = h
        return h

    def _check_steps(self, node: int, steps: list[tuple[int, float]]) -> None:
        """Consistency on the steps the search examines: H may drop by at most a step's cost."""
        h = self._user_h
        here = h(node)
        for j, c in steps:
            there = h(j)
            if here > c + there + SLACK * max(1.0, here) and self.verdict.consistent:
                self.verdict.consistent = False
                (x, y), (x2, y2) = self.base.tile(node), self.base.tile(j)
                self.verdict.fail(f"heuristic drops by {here - there:g} on the step ({x}, {y}) -> ({x2}, {y2}) "
                                  f"of cost {c:g}: not consistent, the path may not be least-cost")

    def admissible(self, name: str, weight: float = 1.0) -> bool:
        return False if name == "user" else self.base.admissible(name, weight)

    def place(self, node: int) -> tuple[float, float]:
        return self.base.place(node)

    def cell_index(self, nodes: np.ndarray) -> np.ndarray:
        return self.base.cell_index(nodes)


def _checked_options(options: PlanOptions) -> None:
    if options.method not in METHODS:
        raise BadInput(f"Python functions run with A* or Dijkstra (method {', '.join(METHODS)}), "
                       f"not {options.method}", "options.method")
    if options.unit.width is not None or options.turning.method is not None:
        raise BadInput("Python functions plan the tile path of a point unit: no width or turning method",
                       "options.turning" if options.turning.method is not None else "options.width")


@dataclass
class UserPlan:
    """A plan run with user code, stepped like ``planner.PlanJob`` by the service: ``step``,
    ``done``, ``cancel``, ``result``, ``search`` and ``graph``."""

    search: AStar
    graph: UserGraph
    options: PlanOptions
    heuristic: str
    notes: list[str] = field(default_factory=list)
    _result: PlanResult | None = None

    @classmethod
    def start(cls, tilemap: TileMap, start: object, goal: object, options: PlanOptions, code: UserCode) -> UserPlan:
        """Check the options and the ends, sample the functions there, and start the search."""
        _checked_options(options)
        view = options.costs.view(tilemap)
        base = graph_for(view, options.search.grid)
        ends = []
        for role, point in (("start", start), ("goal", goal)):
            if not isinstance(point, (list, tuple)) or len(point) != 2:
                raise BadInput(f"{role} must be [x, y] with Python functions (no heading)", role)
            x, y = point
            if not (isinstance(x, int) and isinstance(y, int) and view.in_bounds(x, y)):
                raise BadInput(f"{role} {shown(point)} is not a tile of the {view.width}x{view.height} map", role)
            ends.append(base.node(x, y))
        notes = []
        use_h = code.heuristic is not None and options.method == "astar"
        if code.heuristic is not None and not use_h:
            notes.append("heuristic() is not used by Dijkstra")
        elif code.cost is not None and not use_h:
            notes.append("cost() without heuristic(): searched as Dijkstra (least-cost)")
        graph = UserGraph(base, view, code, ends[1:], check=use_h)
        for role, node in zip(("start", "goal"), ends):
            if not graph.usable(node):
                x, y = base.tile(node)
                why = "a blocked tile" if not base.usable(node) else "impassable under cost()"
                raise BadInput(f"{role} ({x}, {y}) is {why}", role)
        name = "user" if use_h else "none"
        if use_h:
            assert code.heuristic is not None
            graph.heuristic(ends[1:], "user", options.search.weight)(ends[0])  # sample it at the start
        s = options.search
        search = AStar(graph, ends[0], ends[1:], heuristic=name, weight=s.weight, stop=s.stop,
                       max_expansions=s.max_expansions, trace=s.trace, open_list=s.open_list,
                       turn_penalty=s.turn_penalty, fast=False)
        return cls(search, graph, options, name, notes)

    @property
    def done(self) -> bool:
        return self._result is not None

    def step(self, budget: int = 1024) -> Status:
        """About ``budget`` expansions; a ``UserCodeError`` from the user's code ends the plan."""
        if self._result is None and self.search.step(budget) != Status.RUNNING:
            self._finish()
        return Status.RUNNING if self._result is None else self._result.status

    def cancel(self) -> None:
        self.graph.closed = True
        if self._result is None:
            self.search.cancel()
            self._finish()

    def result(self) -> PlanResult:
        if self._result is None:
            raise RuntimeError("the plan is still running: step it to the end first")
        return self._result

    def _finish(self) -> None:
        s, g = self.search, self.graph
        g.closed = True
        nodes = s.path_nodes or []
        path = [g.base.tile(n) for n in nodes]
        found = s.status == Status.FOUND
        v = g.verdict
        admissible = self.heuristic == "none" or (v.within_bound and v.consistent and g.code.cost is None)
        optimal = found and self.options.spec.optimal(self.options.search, admissible) \
            and (self.heuristic == "none" or self.options.search.weight <= 1.0)
        notes = list(self.notes)
        if self.heuristic == "user" and not admissible:
            notes.append(v.note or "heuristic() with cost(): no bound is known, the path may not be least-cost")
        status_text = {Status.NO_PATH: "no path: the goal cannot be reached from the start",
                       Status.CANCELLED: "cancelled"}.get(s.status, "")
        if s.status == Status.BUDGET_EXHAUSTED:
            status_text = f"gave up after {s.expanded} expansions (max_expansions {s.max_expansions})"
        message = "; ".join(m for m in (status_text, *notes) if m)
        self._result = PlanResult(status=s.status, path=path, cost=s.cost, length=path_length(path),
                                  expanded=s.expanded, ms=s.ms, optimal=optimal, message=message,
                                  method=self.options.method, trace=s.trace)

    def user_json(self) -> dict[str, Any]:
        """What the result says about the user's code (the schema's ``user_code``)."""
        v = self.graph.verdict
        checked = self.heuristic == "user" and self.graph.code.cost is None
        return {"functions": self.graph.code.functions, "calls": dict(self.graph.calls),
                "heuristic_used": self.heuristic == "user",
                "admissible": (v.within_bound and v.consistent) if checked else None}
