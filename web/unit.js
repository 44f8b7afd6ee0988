// @ts-check
/**
 * A unit driving along a path at a steady speed.
 *
 * Geometry is in tile units: the centre of tile (x, y) is (x + 0.5, y + 0.5);
 * x grows right, y grows down; headings are radians, 0 = +x (east),
 * pi/2 = +y (south, down the screen). Same conventions as the Python core.
 *
 * @module unit
 */

/**
 * @typedef {Object} Pose
 * @property {number} x        tile units
 * @property {number} y        tile units
 * @property {number} heading  radians, 0 = +x, pi/2 = +y
 */

/**
 * A polyline with its cumulative lengths, ready for pose lookups.
 */
export class Polyline {
  /** @param {Array<[number, number]>} points  in tile units */
  constructor(points) {
    this.points = points;
    /** @type {Float64Array} cumulative distance at each point */
    this.cum = new Float64Array(points.length);
    for (let i = 1; i < points.length; i++) {
      const [ax, ay] = points[i - 1];
      const [bx, by] = points[i];
      this.cum[i] = this.cum[i - 1] + Math.hypot(bx - ax, by - ay);
    }
    this.length = points.length ? this.cum[points.length - 1] : 0;
  }

  /**
   * The tile path's centres as a polyline.
   * @param {Array<[number, number]>} tiles
   */
  static fromTiles(tiles) {
    return new Polyline(tiles.map(([x, y]) => [x + 0.5, y + 0.5]));
  }

  /**
   * The pose at a distance along the polyline (clamped to its ends).
   * The heading is that of the segment the point lies on.
   *
   * @param {number} d
   * @param {number} [fallbackHeading=0]  heading for a one-point path
   * @returns {Pose}
   */
  poseAt(d, fallbackHeading = 0) {
    const pts = this.points;
    const n = pts.length;
    if (n === 0) return { x: 0, y: 0, heading: fallbackHeading };
    if (n === 1) return { x: pts[0][0], y: pts[0][1], heading: fallbackHeading };
    const dist = Math.min(Math.max(d, 0), this.length);
    // Binary search for the segment [i-1, i] holding dist.
    let lo = 1;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cum[mid] < dist) lo = mid + 1;
      else hi = mid;
    }
    // Skip zero-length segments so the heading is defined.
    let i = lo;
    while (i < n - 1 && this.cum[i] === this.cum[i - 1]) i++;
    const [ax, ay] = pts[i - 1];
    const [bx, by] = pts[i];
    const seg = this.cum[i] - this.cum[i - 1];
    const t = seg > 0 ? (dist - this.cum[i - 1]) / seg : 1;
    const heading = seg > 0 ? Math.atan2(by - ay, bx - ax) : fallbackHeading;
    return { x: ax + (bx - ax) * t, y: ay + (by - ay) * t, heading };
  }
}

/**
 * Something a unit can drive: a Polyline or a segments.SegmentPath.
 * @typedef {{length: number, poseAt: (d: number, fallback?: number) => Pose & {gear?: number}}} Route
 */

/** How long the unit stands turning on the spot at a corner or a stop stretch, seconds. */
export const PIVOT_SECONDS = 0.35;

/**
 * The unit: drives a route at `speed` tiles per second, time-based (the same
 * motion whatever the frame rate), slowing to speed x factor inside the
 * route's speed-limit stretches; at a declared pivot (a corner of the path,
 * or a stretch with factor 0) it stops and turns on the spot briefly.
 */
export class Unit {
  /** @param {number} [speed=8]  tiles per second */
  constructor(speed = 8) {
    this.speed = speed;
    /** @type {Route | null} */
    this.route = null;
    /** @type {Array<[number, number, number]>} [from, to, factor] along the route */
    this.limits = [];
    /** @type {number[]} distances where the unit stops and pivots */
    this.pivots = [];
    /** @type {number} the clock of the last update (ms, performance.now) */
    this.last = 0;
    /** @type {Pose & {gear?: number}} */
    this.pose = { x: 0.5, y: 0.5, heading: 0 };
    this.moving = false;
    /** distance travelled at the last update, tiles */
    this.travelled = 0;
    /** the speed at the last update (tiles/s; 0 while pivoting or stopped) */
    this.currentSpeed = 0;
    /** the speed factor at the last update (1 outside speed limits) */
    this.factor = 1;
    /** @type {{at: number, left: number, from: number, to: number} | null} a pivot in progress */
    this.pivot = null;
    /** @type {Set<number>} pivots already made on this drive */
    this.pivotsDone = new Set();
    /** the unit's diameter in tiles (drawn as a disc), null: a point */
    this.width = /** @type {number | null} */ (null);
  }

  /**
   * Place the unit at a tile, stopped.
   * @param {[number, number]} tile
   * @param {number} [heading]
   */
  placeAt(tile, heading = this.pose.heading) {
    this.route = null;
    this.moving = false;
    this.travelled = 0;
    this.currentSpeed = 0;
    this.pivot = null;
    this.pose = { x: tile[0] + 0.5, y: tile[1] + 0.5, heading };
  }

  /** Stop where it is, keeping its pose (the map changed under its path). */
  stop() {
    this.route = null;
    this.moving = false;
    this.currentSpeed = 0;
    this.pivot = null;
  }

  /**
   * Start driving along a tile path (from its first tile).
   * @param {Array<[number, number]>} tiles
   * @param {number} now  ms
   */
  drive(tiles, now) {
    this.driveRoute(Polyline.fromTiles(tiles), now);
  }

  /**
   * Start driving a route from its start.
   * @param {Route} route
   * @param {number} now  ms
   * @param {{limits?: Array<[number, number, number]>, pivots?: number[]}} [opts]
   */
  driveRoute(route, now, opts = {}) {
    this.route = route;
    this.limits = (opts.limits || []).filter((l) => Array.isArray(l) && l.length >= 3).map((l) => [Number(l[0]), Number(l[1]), Math.max(0, Math.min(1, Number(l[2])))]);
    // A stop stretch (factor 0) is a pivot at its start, then crawled over.
    const stops = this.limits.filter((l) => l[2] === 0).map((l) => l[0]);
    this.pivots = [...new Set([...(opts.pivots || []), ...stops])].sort((a, b) => a - b);
    this.pivotsDone = new Set();
    this.pivot = null;
    this.last = now;
    this.travelled = 0;
    this.moving = route.length > 0;
    this.pose = route.poseAt(0, this.pose.heading);
    this.factor = this._factor(0);
    this.currentSpeed = this.moving ? this.speed * this.factor : 0;
  }

  /**
   * Change the speed without a jump in position.
   * @param {number} speed  tiles per second
   * @param {number} now    ms
   */
  setSpeed(speed, now) {
    this.update(now);
    this.speed = speed;
  }

  /** @param {number} d */
  _factor(d) {
    let f = 1;
    for (const [a, b, k] of this.limits) if (d >= a && d < b) f = Math.min(f, k);
    // A stop stretch is crawled over once the pivot is done.
    return f === 0 ? 0.2 : f;
  }

  /** The next distance after d where the speed factor may change or a pivot is due. @param {number} d */
  _nextBoundary(d) {
    let next = /** @type {Route} */ (this.route).length;
    for (const [a, b] of this.limits) {
      if (a > d && a < next) next = a;
      if (b > d && b < next) next = b;
    }
    for (const p of this.pivots) if (p > d && p < next && !this.pivotsDone.has(p)) next = p;
    return next;
  }

  /**
   * Advance to time `now`.
   * @param {number} now  ms
   * @returns {boolean} whether the unit is still moving
   */
  update(now) {
    if (!this.route || !this.moving) return false;
    const route = this.route;
    let t = Math.max(0, (now - this.last) / 1000);
    this.last = now;
    let d = this.travelled;
    for (let guard = 0; guard < 1000 && t > 0 && this.moving; guard++) {
      if (this.pivot) {
        const used = Math.min(t, this.pivot.left);
        this.pivot.left -= used;
        t -= used;
        if (this.pivot.left <= 1e-9) this.pivot = null;
        continue;
      }
      const due = this.pivots.find((p) => Math.abs(p - d) < 1e-9 && !this.pivotsDone.has(p));
      if (due !== undefined) {
        this.pivotsDone.add(due);
        const from = route.poseAt(Math.max(0, due - 1e-6), this.pose.heading).heading;
        const to = route.poseAt(Math.min(route.length, due + 1e-6), this.pose.heading).heading;
        this.pivot = { at: due, left: PIVOT_SECONDS, from, to };
        continue;
      }
      const f = this._factor(d);
      const v = this.speed * f;
      const boundary = this._nextBoundary(d);
      const need = (boundary - d) / v;
      if (need <= t) {
        d = boundary;
        t -= need;
        if (d >= route.length) this.moving = false;
      } else {
        d += v * t;
        t = 0;
      }
    }
    this.travelled = Math.min(d, route.length);
    this.pose = route.poseAt(this.travelled, this.pose.heading);
    if (this.pivot) {
      // Turn on the spot, the short way round, from the heading before to the one after.
      const p = this.pivot;
      let diff = p.to - p.from;
      diff = Math.atan2(Math.sin(diff), Math.cos(diff));
      const k = 1 - p.left / PIVOT_SECONDS;
      this.pose = { ...this.pose, heading: p.from + diff * k };
      this.currentSpeed = 0;
      this.factor = 0;
    } else {
      this.factor = this.moving ? this._factor(this.travelled) : 1;
      this.currentSpeed = this.moving ? this.speed * this.factor : 0;
    }
    return this.moving;
  }
}
