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
 * The unit: drives a polyline at `speed` tiles per second, time-based, so
 * the motion is the same whatever the frame rate.
 */
export class Unit {
  /** @param {number} [speed=8]  tiles per second */
  constructor(speed = 8) {
    this.speed = speed;
    /** @type {Polyline | null} */
    this.route = null;
    /** @type {number} start time of the drive (ms, performance.now clock) */
    this.t0 = 0;
    /** @type {Pose} */
    this.pose = { x: 0.5, y: 0.5, heading: 0 };
    this.moving = false;
    /** distance travelled at the last update, tiles */
    this.travelled = 0;
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
    this.pose = { x: tile[0] + 0.5, y: tile[1] + 0.5, heading };
  }

  /**
   * Start driving along a tile path (from its first tile).
   * @param {Array<[number, number]>} tiles
   * @param {number} now  ms
   */
  drive(tiles, now) {
    this.route = Polyline.fromTiles(tiles);
    this.t0 = now;
    this.travelled = 0;
    this.moving = this.route.length > 0;
    this.pose = this.route.poseAt(0, this.pose.heading);
  }

  /**
   * Change the speed without a jump in position.
   * @param {number} speed  tiles per second
   * @param {number} now    ms
   */
  setSpeed(speed, now) {
    if (this.route && this.moving) {
      this.update(now);
      this.t0 = now - (this.travelled / speed) * 1000;
    }
    this.speed = speed;
  }

  /**
   * Advance to time `now`.
   * @param {number} now  ms
   * @returns {boolean} whether the unit is still moving
   */
  update(now) {
    if (!this.route || !this.moving) return false;
    const d = ((now - this.t0) / 1000) * this.speed;
    this.travelled = Math.min(d, this.route.length);
    this.pose = this.route.poseAt(this.travelled, this.pose.heading);
    if (d >= this.route.length) this.moving = false;
    return this.moving;
  }
}
