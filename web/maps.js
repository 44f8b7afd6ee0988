// @ts-check
/**
 * Map text formats and map generators for the lab.
 *
 * The lab's ASCII format: one line per row (top row first), all rows the same
 * length, one character per tile: each terrain's own character (`.` ground,
 * `#` wall, `=` road, `:` sand, `%` swamp, `^` hills, `~` water), plus `S` the
 * start and `G` the goal (both on ground). Tile (x, y) is column x of line y;
 * x grows right, y grows down. Cells are stored row-major: index y * width + x.
 *
 * Files (.map, .scen, .json, .txt) are read by the Python core in the worker
 * (`load_map`, `load_scen`), not here; this parser serves `setMap(rows)`, the
 * bundled maps and the "Copy text" round trip.
 *
 * @module maps
 */

/** Terrain codes shared with the Python core (uint8; arcstar.tilemap.DEFAULT_TERRAINS). */
export const TERRAIN = Object.freeze({ OPEN: 0, GROUND: 0, WALL: 1, ROAD: 2, SAND: 3, SWAMP: 4, HILLS: 5, WATER: 6 });

/**
 * A terrain type: code in the map array, name, ASCII character, and move cost
 * (multiplies a step entering the tile; null = impassable).
 * @typedef {{code: number, name: string, char: string, cost: number | null}} TerrainType
 */

/**
 * The core's default terrain types. The engine's `info` answer replaces this
 * list once it has loaded; until then the editor uses it (same values).
 * @type {ReadonlyArray<TerrainType>}
 */
export const DEFAULT_TERRAINS = Object.freeze([
  { code: 0, name: 'ground', char: '.', cost: 1 },
  { code: 1, name: 'wall', char: '#', cost: null },
  { code: 2, name: 'road', char: '=', cost: 0.5 },
  { code: 3, name: 'sand', char: ':', cost: 2 },
  { code: 4, name: 'swamp', char: '%', cost: 4 },
  { code: 5, name: 'hills', char: '^', cost: 3 },
  { code: 6, name: 'water', char: '~', cost: null },
]);

/**
 * Lester's worked example ("A* Pathfinding for Beginners", figures 1 to 7):
 * the start, a wall three tiles tall, the target three tiles to the right of
 * the tile beside the start. Searched with 10/14 step costs and Manhattan x 10.
 */
export const LESTER_ROWS = Object.freeze(['.......', '...#...', '.S.#.G.', '...#...', '.......']);

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
const CHAR_TO_CODE = { S: TERRAIN.GROUND, G: TERRAIN.GROUND };
/** @type {string[]} */
const CODE_TO_CHAR = [];
for (const t of DEFAULT_TERRAINS) {
  CHAR_TO_CODE[t.char] = t.code;
  CODE_TO_CHAR[t.code] = t.char;
}
const CHAR_HELP = DEFAULT_TERRAINS.map((t) => `"${t.char}" ${t.name}`).join(', ') + ', "S" the start, "G" the goal';

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
          `Unknown map character ${JSON.stringify(ch)} at x=${x}, y=${y}: use ${CHAR_HELP}`,
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
 * Write a map in the lab's ASCII format (a terrain code with no character is `?`).
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
      else row += CODE_TO_CHAR[cells[y * width + x]] ?? '?';
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

/** Lester's worked example as a map. @returns {ParsedMap} */
export function lesterMap() {
  return parseAscii([...LESTER_ROWS]);
}
