// @ts-check
/**
 * Map text formats and map generators for the lab.
 *
 * The ASCII format: one line per row (top row first), all rows the same length.
 *   `.` open ground, `#` wall, `S` the start (open), `G` the goal (open).
 * Tile (x, y) is column x of line y; x grows right, y grows down. Cells are
 * stored row-major: index y * width + x.
 *
 * @module maps
 */

/** Terrain codes shared with the Python core (uint8). */
export const TERRAIN = Object.freeze({ OPEN: 0, WALL: 1 });

/** Largest accepted map side, in tiles. */
export const MAX_SIDE = 4096;

/**
 * A parsed map.
 * @typedef {Object} ParsedMap
 * @property {number} width
 * @property {number} height
 * @property {Uint8Array} cells  terrain codes, row-major (y * width + x)
 * @property {[number, number] | null} start  from an `S`, if any
 * @property {[number, number] | null} goal   from a `G`, if any
 */

/** @type {Record<string, number>} */
const CHAR_TO_CODE = { '.': TERRAIN.OPEN, '#': TERRAIN.WALL, S: TERRAIN.OPEN, G: TERRAIN.OPEN };

/**
 * Parse the ASCII map format.
 *
 * @param {string | string[]} source  the whole text, or an array of rows
 * @returns {ParsedMap}
 * @throws {Error} with a readable message when the map is malformed
 */
export function parseAscii(source) {
  /** @type {string[]} */
  let rows;
  if (typeof source === 'string') {
    rows = source.replace(/\r/g, '').split('\n');
    // Trailing blank lines (a final newline) are not rows.
    while (rows.length && rows[rows.length - 1].trim() === '') rows.pop();
  } else if (Array.isArray(source)) {
    rows = source;
  } else {
    throw new Error('A map must be given as an array of strings (rows), e.g. ["..#", "..."]');
  }
  if (rows.length === 0) throw new Error('The map is empty: give at least one row');
  rows.forEach((r, y) => {
    if (typeof r !== 'string') {
      throw new Error(`Row ${y} is not a string (got ${r === null ? 'null' : typeof r})`);
    }
  });
  const width = rows[0].length;
  const height = rows.length;
  if (width === 0) throw new Error('Row 0 is empty: rows must have at least one tile');
  if (width > MAX_SIDE || height > MAX_SIDE) {
    throw new Error(`The map is ${width}x${height}; the largest side allowed is ${MAX_SIDE}`);
  }
  const cells = new Uint8Array(width * height);
  /** @type {[number, number] | null} */
  let start = null;
  /** @type {[number, number] | null} */
  let goal = null;
  for (let y = 0; y < height; y++) {
    const row = rows[y];
    if (row.length !== width) {
      throw new Error(
        `The map is not rectangular: row ${y} has ${row.length} tiles but row 0 has ${width}`,
      );
    }
    for (let x = 0; x < width; x++) {
      const ch = row[x];
      const code = CHAR_TO_CODE[ch];
      if (code === undefined) {
        throw new Error(
          `Unknown map character ${JSON.stringify(ch)} at x=${x}, y=${y}: ` +
            'use "." for open ground, "#" for a wall, "S" for the start and "G" for the goal',
        );
      }
      cells[y * width + x] = code;
      if (ch === 'S') {
        if (start) throw new Error(`Two starts ("S") in the map: at ${start} and at ${x},${y}`);
        start = [x, y];
      } else if (ch === 'G') {
        if (goal) throw new Error(`Two goals ("G") in the map: at ${goal} and at ${x},${y}`);
        goal = [x, y];
      }
    }
  }
  return { width, height, cells, start, goal };
}

/**
 * Write a map in the ASCII format.
 *
 * @param {{width: number, height: number, cells: Uint8Array,
 *          start?: [number, number] | null, goal?: [number, number] | null}} map
 * @returns {string[]} the rows
 */
export function toAscii(map) {
  const { width, height, cells } = map;
  /** @type {string[]} */
  const rows = [];
  for (let y = 0; y < height; y++) {
    let row = '';
    for (let x = 0; x < width; x++) {
      if (map.start && map.start[0] === x && map.start[1] === y) row += 'S';
      else if (map.goal && map.goal[0] === x && map.goal[1] === y) row += 'G';
      else row += cells[y * width + x] === TERRAIN.OPEN ? '.' : '#';
    }
    rows.push(row);
  }
  return rows;
}

/**
 * An open map with a border wall.
 *
 * @param {number} width
 * @param {number} height
 * @returns {ParsedMap}
 */
export function emptyMap(width, height) {
  const cells = new Uint8Array(width * height);
  for (let x = 0; x < width; x++) {
    cells[x] = TERRAIN.WALL;
    cells[(height - 1) * width + x] = TERRAIN.WALL;
  }
  for (let y = 0; y < height; y++) {
    cells[y * width] = TERRAIN.WALL;
    cells[y * width + width - 1] = TERRAIN.WALL;
  }
  return { width, height, cells, start: [2, 2], goal: [width - 3, height - 3] };
}

/**
 * A large open map crossed by a serpentine wall: horizontal walls every
 * `spacing` rows, each leaving a gap at alternating ends, so the path from the
 * top-left to the bottom-left zigzags across the whole map and A* expands most
 * of it. Made for trying (and testing) cancel on a long search.
 *
 * @param {number} [size=1024]  width and height in tiles
 * @param {number} [spacing=8]  rows between two walls
 * @returns {ParsedMap}
 */
export function serpentineMap(size = 1024, spacing = 8) {
  const width = size;
  const height = size;
  const cells = new Uint8Array(width * height);
  let k = 0;
  for (let y = spacing; y < height - 1; y += spacing, k++) {
    const gapAtRight = k % 2 === 0;
    for (let x = 0; x < width; x++) {
      const inGap = gapAtRight ? x >= width - 3 : x < 3;
      if (!inGap) cells[y * width + x] = TERRAIN.WALL;
    }
  }
  return { width, height, cells, start: [1, 1], goal: [1, height - 2] };
}
