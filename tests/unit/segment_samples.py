"""Poses along real plans' paths, by the core's ``Path.pose_at``: what tests/js/segments.test.mjs
checks the lab's own pose lookup (web/segments.js, which drives the unit at 60 frames a second on
the page, where the worker cannot answer each frame) against. Run as a module, it prints JSON."""

from __future__ import annotations

import json
import math

import numpy as np

import arcstar


def samples(per_path: int = 60) -> list[dict]:
    """For several plans (turned A*, Directional-24 with reversing, the hybrid): the segments as
    the protocol sends them, and [distance, x, y, heading] at ``per_path`` distances."""
    blocked = np.zeros((12, 16), dtype=bool)
    blocked[3:9, 7] = True
    m = arcstar.TileMap.from_blocked(blocked)
    plans = [
        arcstar.plan(m, (1, 6, 0.0), (14, 6, math.pi), turning="tighter", radius=1.5, width=0.8),
        arcstar.plan(m, (2, 2, math.pi / 2), (13, 10), method="directional24", radius=1.5, width=1.0),
        arcstar.plan(arcstar.TileMap.from_blocked(np.zeros((5, 9), dtype=bool)), (4, 2, 0.0), (2, 2, 0.0),
                     method="directional24", radius=1.5, width=1.0, can_reverse=True),
        arcstar.plan(m, (1, 1, 0.0), (14, 10), method="hybrid", radius=1.0, width=1.0),
    ]
    out = []
    for r in plans:
        assert r.segments is not None and r.status == "found", r.message
        path = r.segments
        poses = []
        for k in range(per_path + 1):
            d = path.length * k / per_path
            p = path.pose_at(d)
            poses.append([d, p.x, p.y, p.heading])
        out.append({"segments": path.to_json()["segments"], "length": path.length, "poses": poses,
                    "reverses": any(s.gear < 0 for s in path.segments)})
    return out


if __name__ == "__main__":
    print(json.dumps(samples()))
