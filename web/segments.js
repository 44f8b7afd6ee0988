// @ts-check
/**
 * A realistic path as the core sends it: straight lines and circular arcs
 * (Pinter's Listing 2), with the pose at any distance along it.
 *
 * Tile units, y down: the centre of tile (x, y) is (x + 0.5, y + 0.5);
 * headings are radians, 0 = +x, pi/2 = +y (down the screen). A positive arc
 * sweep means the heading increases: clockwise on the screen, which is the
 * canvas's `anticlockwise = false`. A segment with gear -1 is driven in
 * reverse: the unit still faces `heading` but moves backwards.
 *
 * @module segments
 */

/**
 * One segment as the core's JSON has it (x, y: where it starts).
 * @typedef {Object} Segment
 * @property {'line' | 'arc'} type
 * @property {number} x
 * @property {number} y
 * @property {number} heading   the unit's facing at the start, radians
 * @property {number} length    tiles (>= 0)
 * @property {number} gear      1 forward, -1 reverse
 * @property {[number, number]} [center]  arcs: the circle's centre
 * @property {number} [radius]  arcs
 * @property {number} [sweep]   arcs: heading change, radians (> 0 clockwise on screen)
 */

/**
 * @typedef {Object} PathPose
 * @property {number} x
 * @property {number} y
 * @property {number} heading  radians, continuous along the path (not wrapped)
 * @property {number} gear     1 forward, -1 reverse
 */

/**
 * Check and copy a list of segments from the core. Throws an Error with a
 * readable message on a malformed one.
 * @param {unknown} raw
 * @returns {Segment[]}
 */
export function parseSegments(raw) {
  if (!Array.isArray(raw)) throw new Error(`segments must be a list (got ${typeof raw})`);
  return raw.map((s, i) => {
    const num = (/** @type {string} */ k) => {
      const v = s?.[k];
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`segment ${i}: ${k} must be a finite number (got ${JSON.stringify(v)})`);
      return v;
    };
    if (!s || (s.type !== 'line' && s.type !== 'arc')) throw new Error(`segment ${i}: type must be "line" or "arc"`);
    /** @type {Segment} */
    const seg = { type: s.type, x: num('x'), y: num('y'), heading: num('heading'), length: Math.max(0, num('length')), gear: s.gear === -1 ? -1 : 1 };
    if (s.type === 'arc') {
      if (!Array.isArray(s.center) || s.center.length !== 2) throw new Error(`segment ${i}: an arc needs a center [cx, cy]`);
      seg.center = [Number(s.center[0]), Number(s.center[1])];
      seg.radius = num('radius');
      seg.sweep = num('sweep');
      if (!(seg.radius > 0)) throw new Error(`segment ${i}: radius must be > 0`);
    }
    return seg;
  });
}

/**
 * The pose a distance `s` into one segment.
 * @param {Segment} seg
 * @param {number} s  0..seg.length
 * @returns {PathPose}
 */
export function segmentPose(seg, s) {
  if (seg.type === 'line') {
    const d = s * seg.gear;
    return { x: seg.x + Math.cos(seg.heading) * d, y: seg.y + Math.sin(seg.heading) * d, heading: seg.heading, gear: seg.gear };
  }
  const [cx, cy] = /** @type {[number, number]} */ (seg.center);
  const r = /** @type {number} */ (seg.radius);
  const sweep = /** @type {number} */ (seg.sweep);
  // The body turns rigidly about the centre: position angle and heading turn together.
  const turn = seg.length > 0 ? (sweep * s) / seg.length : 0;
  const a0 = Math.atan2(seg.y - cy, seg.x - cx);
  return { x: cx + r * Math.cos(a0 + turn), y: cy + r * Math.sin(a0 + turn), heading: seg.heading + turn, gear: seg.gear };
}

/** A path of lines and arcs with cumulative distances. */
export class SegmentPath {
  /** @param {Segment[]} segments  (see parseSegments) */
  constructor(segments) {
    this.segments = segments;
    /** @type {Float64Array} distance at the start of each segment, plus the total */
    this.starts = new Float64Array(segments.length + 1);
    for (let i = 0; i < segments.length; i++) this.starts[i + 1] = this.starts[i] + segments[i].length;
    this.length = this.starts[segments.length];
    // Unwrapped headings: each segment's start heading moved by 2 pi steps to follow the one before.
    /** @type {number[]} */
    this.headingShift = [];
    let prev = segments.length ? segments[0].heading : 0;
    for (const seg of segments) {
      const shift = Math.round((prev - seg.heading) / (2 * Math.PI)) * 2 * Math.PI;
      this.headingShift.push(shift);
      prev = segmentPose(seg, seg.length).heading + shift;
    }
  }

  /** @param {unknown} raw  the core's `segments` */
  static fromJson(raw) {
    return new SegmentPath(parseSegments(raw));
  }

  /**
   * The segment holding distance d and the distance into it.
   * @param {number} d
   * @returns {[number, number]}
   */
  segmentAt(d) {
    const n = this.segments.length;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= d) lo = mid;
      else hi = mid - 1;
    }
    // Skip empty segments at d so the heading is the one being driven.
    while (lo < n - 1 && this.segments[lo].length === 0) lo++;
    return [lo, Math.min(Math.max(d - this.starts[lo], 0), this.segments[lo].length)];
  }

  /**
   * The pose after travelling d (clamped to the path's ends); the heading is
   * unwrapped so it changes continuously along the path.
   * @param {number} d
   * @returns {PathPose}
   */
  poseAt(d) {
    if (!this.segments.length) return { x: 0, y: 0, heading: 0, gear: 1 };
    const [i, s] = this.segmentAt(Math.min(Math.max(d, 0), this.length));
    const p = segmentPose(this.segments[i], s);
    p.heading += this.headingShift[i];
    return p;
  }

  /**
   * Poses at most `step` apart along the path, both ends included.
   * @param {number} step  tiles (> 0)
   * @returns {PathPose[]}
   */
  sample(step) {
    if (!(step > 0)) throw new Error(`step must be > 0 (got ${step})`);
    const n = Math.max(1, Math.ceil(this.length / step));
    const out = [];
    for (let k = 0; k <= n; k++) out.push(this.poseAt((this.length * k) / n));
    return out;
  }

  /**
   * Distances where the unit must stop: the heading jumps between segments by
   * more than `tol` radians (it pivots on the spot there), and, with `gears`,
   * where it changes between forward and reverse.
   * @param {number} [tol=1e-3]
   * @param {boolean} [gears=true]  count the gear changes too
   * @returns {number[]}
   */
  corners(tol = 1e-3, gears = true) {
    const out = [];
    for (let i = 1; i < this.segments.length; i++) {
      const before = segmentPose(this.segments[i - 1], this.segments[i - 1].length).heading;
      let diff = this.segments[i].heading - before;
      diff = Math.atan2(Math.sin(diff), Math.cos(diff));
      if (Math.abs(diff) > tol || (gears && this.segments[i].gear !== this.segments[i - 1].gear)) out.push(this.starts[i]);
    }
    return out;
  }

  /**
   * Add the stretch [from, to] of the path to the canvas's current path
   * (lines and true arcs), scaled by `ts` pixels per tile.
   * @param {CanvasRenderingContext2D} ctx
   * @param {number} ts
   * @param {number} [from=0]
   * @param {number} [to=this.length]
   * @param {(seg: Segment) => boolean} [only]  trace only the segments this accepts
   */
  trace(ctx, ts, from = 0, to = this.length, only) {
    let penDown = false;
    for (let i = 0; i < this.segments.length; i++) {
      const seg = this.segments[i];
      const a = Math.max(from, this.starts[i]) - this.starts[i];
      const b = Math.min(to, this.starts[i + 1]) - this.starts[i];
      if (b < a || (only && !only(seg))) {
        penDown = false;
        continue;
      }
      const p = segmentPose(seg, a);
      if (!penDown) ctx.moveTo(p.x * ts, p.y * ts);
      else ctx.lineTo(p.x * ts, p.y * ts);
      penDown = true;
      if (seg.type === 'line') {
        const q = segmentPose(seg, b);
        ctx.lineTo(q.x * ts, q.y * ts);
      } else {
        const [cx, cy] = /** @type {[number, number]} */ (seg.center);
        const sweep = /** @type {number} */ (seg.sweep);
        const a0 = Math.atan2(seg.y - cy, seg.x - cx);
        const k = seg.length > 0 ? sweep / seg.length : 0;
        // y down: positive sweep is clockwise on screen, i.e. anticlockwise = false.
        ctx.arc(cx * ts, cy * ts, /** @type {number} */ (seg.radius) * ts, a0 + k * a, a0 + k * b, sweep < 0);
      }
    }
  }
}

/**
 * The speed factor at distance d, from the core's speed_limits
 * ([from, to, factor] stretches; 1 outside them; the lowest where they overlap).
 * @param {Array<[number, number, number]>} limits
 * @param {number} d
 */
export function speedFactorAt(limits, d) {
  let f = 1;
  for (const [a, b, k] of limits) if (d >= a && d < b) f = Math.min(f, k);
  return f;
}
