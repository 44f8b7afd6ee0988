"""Checks of world trajectories written without the world's code: samples [t, x, y, heading,
speed] against a blocked mask and a unit's limits (tiles, seconds, radians)."""

from __future__ import annotations

import math

import numpy as np


def wrap(a: float) -> float:
    """An angle in (-pi, pi]."""
    return math.atan2(math.sin(a), math.cos(a))


def disc_overlap(blocked: np.ndarray, x: float, y: float, width: float) -> float:
    """How deep a disc of diameter ``width`` at (x, y) reaches into the nearest blocked tile or
    past the map's edge (0 when clear; touching is clear)."""
    r = width / 2.0
    h, w = blocked.shape
    worst = max(0.0, r - x, r - y, x + r - w, y + r - h)
    for ty in range(max(0, math.floor(y - r) - 1), min(h, math.floor(y + r) + 2)):
        for tx in range(max(0, math.floor(x - r) - 1), min(w, math.floor(x + r) + 2)):
            if blocked[ty, tx]:
                dx = max(tx - x, 0.0, x - (tx + 1))
                dy = max(ty - y, 0.0, y - (ty + 1))
                worst = max(worst, r - math.hypot(dx, dy))
    return worst


def check_trajectory(samples, dt: float, speed: float, acceleration: float, braking: float,
                     blocked: np.ndarray | None = None, width: float = 0.0, eps: float = 1e-6,
                     radius: float | None = None) -> None:
    """Assert the physical limits on a trajectory: ticks of ``dt``, |speed| <= ``speed``,
    speed changes within ``acceleration`` / ``braking`` per second, moves no longer than the
    speed allows (so no jumps), the heading along the motion (backwards when the speed is
    negative), and (with ``blocked``) the body never in a wall. On one arc or line the chord of a
    tick runs along the mean of its end headings; ``radius`` (the tightest arc) allows a tick
    that spans an S-bend to swing by up to its length / radius more."""
    s = np.asarray(samples, dtype=float)
    assert s.ndim == 2 and s.shape[1] == 5
    assert np.allclose(np.diff(s[:, 0]), dt, atol=eps)
    assert np.all(np.abs(s[:, 4]) <= speed + eps), "over the top speed"
    for a, b in zip(s, s[1:]):
        va, vb = abs(a[4]), abs(b[4])
        if a[4] * b[4] >= 0:
            assert vb - va <= acceleration * dt + eps, f"accelerates too hard at t={b[0]}"
            assert va - vb <= braking * dt + eps, f"brakes too hard at t={b[0]}"
        else:
            assert va <= braking * dt + eps and vb <= acceleration * dt + eps, "gear flipped at speed"
        step = math.hypot(b[1] - a[1], b[2] - a[2])
        assert step <= speed * dt + eps, f"jumps {step} at t={b[0]}"
        # within a tick a unit may speed up and brake again: from speed v back to v at most
        # a b / (a + b) dt^2 / 2 further than v dt (a creep onto a stop from standing)
        creep = acceleration * braking / (acceleration + braking) * dt * dt / 2.0
        assert step <= max(va, vb) * dt + creep + eps, f"moves {step} faster than its speeds {va}, {vb} at t={b[0]}"
        if step > 1e-4:
            motion = math.atan2(b[2] - a[2], b[1] - a[1]) + (math.pi if b[4] < 0 else 0.0)
            turn = wrap(b[3] - a[3])
            mid = a[3] + turn / 2.0  # the chord of an arc runs along the mean heading
            slack = 0.02 + (step / radius if radius else 0.0)
            assert abs(wrap(motion - mid)) <= abs(turn) / 2.0 + slack, f"heading off the motion at t={b[0]}"
    if blocked is not None:
        for row in s:
            assert disc_overlap(blocked, row[1], row[2], width) <= 1e-6, f"in a wall at t={row[0]}"


def deepest_overlap(runs, widths) -> float:
    """The deepest two bodies ever overlap (tiles; 0 when they never touch), from per-unit
    samples [t, x, y, heading, speed] taken at the same ticks; units' last samples stand for
    the ticks after they stop being sampled."""
    n = max(len(s) for s in runs)
    pos = np.zeros((n, len(runs), 2))
    for i, s in enumerate(runs):
        a = np.asarray(s, dtype=float)[:, 1:3]
        pos[:len(a), i] = a
        pos[len(a):, i] = a[-1]
    w = np.asarray(widths, dtype=float)
    need = (w[:, None] + w[None, :]) / 2.0
    worst = 0.0
    for frame in pos:
        d = np.hypot(frame[:, None, 0] - frame[None, :, 0], frame[:, None, 1] - frame[None, :, 1])
        np.fill_diagonal(d, np.inf)
        worst = max(worst, float((need - d).max()))
    return worst


def longest_stuck(samples, arrived: float | None, eps: float = 1e-9, goal=None) -> float:
    """The longest stretch (s) a unit stood still before it arrived (standing on its goal
    afterwards does not count); given ``goal`` (x, y), the longest it stood still anywhere but
    on its goal, before its arrival or after it (made to step aside)."""
    s = np.asarray(samples, dtype=float)
    end = arrived if arrived is not None and goal is None else s[-1, 0]
    longest, since = 0.0, None
    for a, b in zip(s, s[1:]):
        if b[0] > end + eps:
            break
        still = math.hypot(b[1] - a[1], b[2] - a[2]) <= eps
        if goal is not None and math.hypot(b[1] - goal[0], b[2] - goal[1]) <= 0.01:
            still = False
        if still and since is None:
            since = a[0]
        elif not still:
            since = None
        if since is not None:
            longest = max(longest, b[0] - since)
    return longest
