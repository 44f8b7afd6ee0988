// @ts-check
/**
 * Hex maths for the lab, as the core does it (pycore/arcstar/maps/hexmap.py, after Red Blob
 * Games): cells are stored as an offset rectangle, (col, row), odd-r rows when pointy-top and
 * odd-q columns when flat-top; the core plans in axial (q, r). The lab's map model keeps the
 * offset cells, so converting to axial happens only at the worker's edge and drawing happens in
 * the core's drawing units (hex size 1, centre to corner; x right, y down; box from 0, 0).
 *
 * @module maps/hexgeom
 */

/** @typedef {'pointy' | 'flat'} Orientation */
/** @typedef {[number, number]} Cell  offset [col, row] */

export const SQRT3 = Math.sqrt(3);
/** @type {readonly Orientation[]} */
export const ORIENTATIONS = Object.freeze(['pointy', 'flat']);
/** (dq, dr) of the six neighbours in axial coordinates (the core's AXIAL_DIRECTIONS). */
const AXIAL_DIRECTIONS = Object.freeze([[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]);

/**
 * Axial (q, r) of the stored cell (col, row).
 * @param {number} col @param {number} row @param {Orientation} o
 * @returns {[number, number]}
 */
export function toAxial(col, row, o) {
  if (o === 'pointy') return [col - (row - (row & 1)) / 2, row];
  return [col, row - (col - (col & 1)) / 2];
}

/**
 * The stored cell (col, row) of axial (q, r).
 * @param {number} q @param {number} r @param {Orientation} o
 * @returns {Cell}
 */
export function toOffset(q, r, o) {
  if (o === 'pointy') return [q + (r - (r & 1)) / 2, r];
  return [q, r + (q - (q & 1)) / 2];
}

/**
 * The centre of a cell in drawing units.
 * @param {number} col @param {number} row @param {Orientation} o
 * @returns {[number, number]}
 */
export function hexCenter(col, row, o) {
  if (o === 'pointy') return [SQRT3 * (col + 0.5 * (row & 1)) + SQRT3 / 2, 1.5 * row + 1];
  return [1.5 * col + 1, SQRT3 * (row + 0.5 * (col & 1)) + SQRT3 / 2];
}

/**
 * The six corners of a hexagon of radius `size` about (cx, cy), clockwise on the screen.
 * @param {number} cx @param {number} cy @param {number} size @param {Orientation} o
 * @returns {Array<[number, number]>}
 */
export function hexCorners(cx, cy, size, o) {
  const start = o === 'pointy' ? -30 : 0;
  /** @type {Array<[number, number]>} */
  const out = [];
  for (let i = 0; i < 6; i++) {
    const a = ((start + 60 * i) * Math.PI) / 180;
    out.push([cx + size * Math.cos(a), cy + size * Math.sin(a)]);
  }
  return out;
}

/**
 * The drawing's width and height (the bounding box of every cell).
 * @param {number} w  columns @param {number} h  rows @param {Orientation} o
 * @returns {[number, number]}
 */
export function hexExtent(w, h, o) {
  if (o === 'pointy') return [SQRT3 * (w + (h > 1 ? 0.5 : 0)), 1.5 * h + 0.5];
  return [1.5 * w + 0.5, SQRT3 * (h + (w > 1 ? 0.5 : 0))];
}

/**
 * The axial cell nearest fractional (fq, fr): cube rounding, so a point on the map falls in
 * exactly the hexagon that holds it.
 * @param {number} fq @param {number} fr
 * @returns {[number, number]}
 */
export function axialRound(fq, fr) {
  const fs = -fq - fr;
  let q = Math.round(fq);
  let r = Math.round(fr);
  const s = Math.round(fs);
  const dq = Math.abs(q - fq);
  const dr = Math.abs(r - fr);
  const ds = Math.abs(s - fs);
  if (dq > dr && dq > ds) q = -r - s;
  else if (dr > ds) r = -q - s;
  return [q + 0, r + 0];
}

/**
 * The stored cell whose hexagon holds the drawing point (x, y) (it may lie off the map).
 * @param {number} x @param {number} y @param {Orientation} o
 * @returns {Cell}
 */
export function hexCellAt(x, y, o) {
  let fq;
  let fr;
  if (o === 'pointy') {
    const px = x - SQRT3 / 2;
    const py = y - 1;
    fq = (SQRT3 / 3) * px - py / 3;
    fr = (2 / 3) * py;
  } else {
    const px = x - 1;
    const py = y - SQRT3 / 2;
    fq = (2 / 3) * px;
    fr = -px / 3 + (SQRT3 / 3) * py;
  }
  const [q, r] = axialRound(fq, fr);
  return toOffset(q, r, o);
}

/**
 * Steps between two stored cells on an open hex grid.
 * @param {Cell} a @param {Cell} b @param {Orientation} o
 */
export function hexDistance(a, b, o) {
  const [aq, ar] = toAxial(a[0], a[1], o);
  const [bq, br] = toAxial(b[0], b[1], o);
  const dq = aq - bq;
  const dr = ar - br;
  return Math.max(Math.abs(dq), Math.abs(dr), Math.abs(dq + dr));
}

/**
 * The cells within `radius` steps of a cell (the brush on hexes), on the map or not.
 * @param {Cell} c @param {number} radius @param {Orientation} o
 * @returns {Cell[]}
 */
export function hexDisc(c, radius, o) {
  const [q0, r0] = toAxial(c[0], c[1], o);
  /** @type {Cell[]} */
  const out = [];
  for (let dq = -radius; dq <= radius; dq++) {
    for (let dr = Math.max(-radius, -dq - radius); dr <= Math.min(radius, -dq + radius); dr++) {
      out.push(toOffset(q0 + dq, r0 + dr, o));
    }
  }
  return out;
}

/**
 * The cells on the straight line between two cells, both ends included, each a neighbour of the
 * one before (so a painted stroke is a wall with no gap).
 * @param {Cell} a @param {Cell} b @param {Orientation} o
 * @returns {Cell[]}
 */
export function hexLine(a, b, o) {
  const n = hexDistance(a, b, o);
  const [aq, ar] = toAxial(a[0], a[1], o);
  const [bq, br] = toAxial(b[0], b[1], o);
  /** @type {Cell[]} */
  const out = [];
  for (let i = 0; i <= n; i++) {
    // nudged off the edges between cells so the rounding never ties
    const t = n === 0 ? 0 : i / n;
    const [q, r] = axialRound(aq + (bq - aq) * t + 1e-6, ar + (br - ar) * t + 2e-6);
    out.push(toOffset(q, r, o));
  }
  return out;
}

/**
 * The on-map neighbours of a stored cell.
 * @param {Cell} c @param {number} w @param {number} h @param {Orientation} o
 * @returns {Cell[]}
 */
export function hexNeighbours(c, w, h, o) {
  const [q, r] = toAxial(c[0], c[1], o);
  return AXIAL_DIRECTIONS.map(([dq, dr]) => toOffset(q + dq, r + dr, o)).filter(([x, y]) => x >= 0 && y >= 0 && x < w && y < h);
}
