// @ts-check
/**
 * The lab's colours (keep in step with style.css's legend). Terrain colours are by the core's
 * terrain names, so a terrain table from the core draws without a second list of codes.
 *
 * @module view/colors
 */

export const COLORS = Object.freeze({
  background: '#0b0e12',
  mapEdge: '#2a3441',
  /** by terrain name */
  terrain: /** @type {Readonly<Record<string, readonly number[]>>} */ ({
    ground: [32, 38, 46],
    wall: [104, 116, 134],
    road: [150, 128, 96],
    sand: [176, 158, 98],
    swamp: [62, 88, 52],
    hills: [122, 78, 58],
    water: [34, 70, 120],
  }),
  unknownTerrain: [200, 60, 200],
  closed: [64, 120, 230, 125], // closed list (expanded), blue like Lester's figures
  openList: [70, 200, 110, 150], // open list (frontier), green
  closedEdge: '#8fd3ff', // Lester: closed tiles outlined light blue
  openEdge: '#8dff9e', // Lester: open tiles outlined light green
  current: '#ffd166', // the tile expanded last
  pointer: '#aab3bf', // Lester's grey pointer to the parent
  score: '#f2f5f8',
  scoreShadow: 'rgba(8,10,14,0.9)',
  grid: 'rgba(255,255,255,0.07)',
  path: '#ffb347',
  start: '#3ddc84',
  goal: '#ff5c5c',
  unit: '#f5f7fa',
  unitEdge: '#0f1318',
  hover: 'rgba(255,255,255,0.55)',
  blocked: 'rgba(255, 45, 45, 0.55)',
  casing: 'rgba(8, 10, 14, 0.55)',
});

/** The colours of Pinter's Figure 1, one per plan of a comparison. */
export const COMPARE_COLORS = Object.freeze({ raw: '#c9d1d9', smooth: '#4cc9f0', ignore: '#f72585', chosen: '#ffb347' });

/**
 * A terrain's colour as [r, g, b].
 * @param {string} name  the core's terrain name
 */
export function terrainRgb(name) {
  return COLORS.terrain[name] || COLORS.unknownTerrain;
}

/**
 * A terrain's colour as CSS.
 * @param {string} name  the core's terrain name
 */
export function terrainCss(name) {
  const c = terrainRgb(name);
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}

/**
 * Pack a colour for a Uint32 view of ImageData (little-endian RGBA).
 * @param {readonly number[]} c  [r, g, b] or [r, g, b, a]
 */
export function rgba(c) {
  const a = c.length > 3 ? c[3] : 255;
  return ((a << 24) | (c[2] << 16) | (c[1] << 8) | c[0]) >>> 0;
}
