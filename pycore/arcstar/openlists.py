"""Open-list strategies for the search engine.

- ``heap``: a binary heap with lazy deletion (O(log n) push and pop). The default.
- ``unsorted``: Pinter's fixed-matrix list ("A Faster Implementation of the Standard A*"): the
  open list is threaded through the node arrays by previous/next links, so insertion, removal
  and re-scoring are O(1) and allocate nothing, while finding the best node is an O(n) scan.
  Fast for the small searches Pinter bounds to a 60x60 window; slow for long searches.

Both pop the lowest F, ties toward the lower H, then the lower node id.
"""

from __future__ import annotations

from heapq import heappop, heappush

OPEN_LISTS = ("heap", "unsorted")


class HeapOpenList:
    """A binary heap of (f, h, node); stale entries are skipped by the engine's closed check."""

    def __init__(self) -> None:
        self.heap: list[tuple[float, float, int]] = []

    def push(self, f: float, h: float, node: int, new: bool) -> None:
        heappush(self.heap, (f, h, node))

    def pop(self) -> int:
        return heappop(self.heap)[2] if self.heap else -1

    def __len__(self) -> int:
        return len(self.heap)


class UnsortedOpenList:
    """Pinter's unsorted list, linked through per-node arrays borrowed from the workspace."""

    def __init__(self, size: int, links: tuple[list, list, list, list] | None = None) -> None:
        self.next, self.prev, self.f, self.h = links or ([-1] * size, [-1] * size, [0.0] * size, [0.0] * size)
        self.head = -1
        self.count = 0

    def push(self, f: float, h: float, node: int, new: bool) -> None:
        self.f[node] = f
        self.h[node] = h
        if new:  # link at the head; a re-scored node is already on the list
            self.next[node] = self.head
            self.prev[node] = -1
            if self.head >= 0:
                self.prev[self.head] = node
            self.head = node
            self.count += 1

    def pop(self) -> int:
        best = self.head
        if best < 0:
            return -1
        f, h, nxt = self.f, self.h, self.next
        bf, bh = f[best], h[best]
        node = nxt[best]
        while node >= 0:
            nf = f[node]
            if nf < bf or (nf == bf and (h[node] < bh or (h[node] == bh and node < best))):
                best, bf, bh = node, nf, h[node]
            node = nxt[node]
        p, n = self.prev[best], nxt[best]
        if p >= 0:
            nxt[p] = n
        else:
            self.head = n
        if n >= 0:
            self.prev[n] = p
        self.count -= 1
        return best

    def __len__(self) -> int:
        return self.count


def make_open_list(kind: str, size: int, links: tuple[list, list, list, list] | None = None):
    """The open list named ``kind`` for a graph of ``size`` nodes."""
    if kind == "heap":
        return HeapOpenList()
    if kind == "unsorted":
        return UnsortedOpenList(size, links)
    raise ValueError(f"open_list must be one of {', '.join(OPEN_LISTS)}, got {kind!r}")
