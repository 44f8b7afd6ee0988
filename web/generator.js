// @ts-check
/**
 * Generated and resized maps. Generate asks the core (`generate` in the worker) for a seeded
 * maze, rooms and doors, caves, random obstacles or roads; the map comes back with a start and a
 * goal the core chose far apart on joined tiles. Resize keeps what fits and fills new tiles with
 * ground; the start and the goal are clamped inside. Each is one undo step (the map before comes
 * back whole), and the last generator's settings are kept in `app.generator` (autosaved).
 *
 * @module generator
 */

import { showMap } from './io/maps.js';
import { plural } from './util.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./engine.js').Engine} Engine */
/** @typedef {import('./protocol.js').GeneratorKind} GeneratorKind */
/** @typedef {[number, number]} Tile */

/**
 * A generator's settings as the lab keeps them (autosaved; a share link carries them).
 * @typedef {{kind: GeneratorKind, width: number, height: number, seed: number, density: number | null}} GeneratorSettings
 * density: null for maze and rooms, which take none
 */

/** The kinds, and their names in the menu. */
export const KIND_NAMES = Object.freeze({
  maze: 'Maze', rooms: 'Rooms, doors', caves: 'Caves', obstacles: 'Obstacles', roads: 'Roads',
});
/** What each kind makes, in a sentence. */
const KIND_WORDS = Object.freeze({
  maze: 'a maze', rooms: 'rooms and doors', caves: 'caves', obstacles: 'random obstacles', roads: 'roads',
});
/** @type {readonly GeneratorKind[]} */
export const KINDS = /** @type {GeneratorKind[]} */ (Object.keys(KIND_NAMES));

/**
 * Per kind that takes a density: what it means, its least and most, and the default (the core's
 * arcstar.maps.generators.DENSITY; a unit test holds the two equal).
 * @type {Readonly<Record<string, readonly [string, number, number, number]>>}
 */
export const DENSITY = Object.freeze({
  obstacles: ['share of tiles that are walls', 0, 0.9, 0.25],
  caves: ['share of tiles that start as walls', 0.3, 0.65, 0.45],
  roads: ['share of rough terrain', 0, 0.9, 0.5],
});
/** A generated map's sides, tiles (the core's MIN_SIDE, MAX_SIDE). */
export const GEN_SIDE = Object.freeze([3, 1024]);
/** The largest seed (32 bits: exact in a number, short in a link). */
export const MAX_SEED = 2 ** 32 - 1;
/** A resized map's sides, tiles (the lab opens maps of at most 4096 a side). */
export const RESIZE_SIDE = Object.freeze([2, 4096]);

/** @type {GeneratorSettings} What the Generate part shows before anything was generated. */
export const DEFAULT_GENERATOR = Object.freeze({ kind: 'maze', width: 49, height: 33, seed: 1, density: null });

/** A bad setting, with the field it is about (kind, width, height, seed, density). */
export class SettingError extends Error {
  /** @param {string} message @param {string} field */
  constructor(message, field) {
    super(message);
    this.name = 'SettingError';
    this.field = field;
  }
}

/**
 * Check generator settings from anywhere untrusted (saved work, a link, the API): throws a
 * SettingError naming the field.
 * @param {unknown} raw
 * @returns {GeneratorSettings}
 */
export function checkSettings(raw) {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new SettingError('the generator settings are not an object', '');
  const v = /** @type {Record<string, unknown>} */ (raw);
  const kind = /** @type {GeneratorKind} */ (v.kind);
  if (!KINDS.includes(kind)) throw new SettingError(`there is no generator ${JSON.stringify(v.kind)?.slice(0, 40)} (${KINDS.join(', ')})`, 'kind');
  const int = (/** @type {string} */ name, /** @type {number} */ low, /** @type {number} */ high) => {
    const n = v[name];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < low || n > high) {
      throw new SettingError(`${name} must be a whole number from ${low} to ${high} (got ${JSON.stringify(n)?.slice(0, 40)})`, name);
    }
    return n;
  };
  const width = int('width', GEN_SIDE[0], GEN_SIDE[1]);
  const height = int('height', GEN_SIDE[0], GEN_SIDE[1]);
  const seed = int('seed', 0, MAX_SEED);
  const range = DENSITY[kind];
  let density = null;
  if (range && v.density !== null && v.density !== undefined) {
    const d = v.density;
    if (typeof d !== 'number' || !Number.isFinite(d) || d < range[1] || d > range[2]) {
      throw new SettingError(`density (${range[0]}) must be a number from ${range[1]} to ${range[2]} (got ${JSON.stringify(d)?.slice(0, 40)})`, 'density');
    }
    density = d;
  }
  return { kind, width, height, seed, density };
}

/** A new random seed. */
export function newSeed() {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}

/**
 * Generate a map with the core and show it as one undo step. Rejects with the core's error (an
 * EngineError whose `field` names the bad setting) and keeps the map.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {GeneratorSettings} settings
 * @returns {Promise<GeneratorSettings>} the settings as used (the density the kind used)
 */
export async function generateMap(app, engine, settings) {
  const { density, ...rest } = settings;
  if (app.engineState !== 'ready') app.setStatus('loading', 'Waiting for the engine to generate the map…', null);
  /** @type {import('./protocol.js').GeneratedMessage} */
  const answer = await engine.request({ type: 'generate', ...rest, ...(DENSITY[settings.kind] ? { density } : {}) });
  const { width, height, cells } = answer;
  if (!Number.isInteger(width) || !Number.isInteger(height) || !(cells instanceof Uint8Array) || cells.length !== width * height) {
    throw new Error('the engine generated the map but sent back no tiles');
  }
  for (const t of answer.terrains ?? []) {
    if (!app.terrainOf(t.code)) throw new Error(`it uses the terrain "${t.name}" (code ${t.code}), which the lab does not know`);
  }
  const joined = !!(answer.start && answer.goal);
  /** @type {Tile} */
  const start = answer.start ? [answer.start[0], answer.start[1]] : [0, 0];
  /** @type {Tile} */
  const goal = answer.goal ? [answer.goal[0], answer.goal[1]] : [width - 1, height - 1];
  const used = { ...settings, density: DENSITY[settings.kind] ? answer.params.density : null };
  const name = KIND_WORDS[settings.kind];
  showMap(app, engine, { width, height, cells }, '', { label: `generate ${name}`, start, goal });
  app.generator = used;
  const ready = app.engineState === 'ready';
  const said = `Generated ${name} ${width} x ${height}, seed ${settings.seed}${used.density === null ? '' : `, density ${used.density}`}.`;
  const ends = joined ? ' S and G are far apart on joined tiles.' : ' It has no two joined open tiles: S and G stand in the corners.';
  app.setStatus(ready ? 'ready' : 'loading', `${said}${ends} Undo (Ctrl+Z) brings back the map before.`, 1);
  app.emit('maps');
  return used;
}

/**
 * Resize the map (one undo step): the tiles that fit stay, new ones are ground; the start and
 * the goal are clamped inside (the goal steps aside if both land on one tile). Throws a
 * SettingError naming the field (width, height) and keeps the map.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {unknown} width
 * @param {unknown} height
 */
export function resizeMap(app, engine, width, height) {
  for (const [name, n] of /** @type {const} */ ([['width', width], ['height', height]])) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < RESIZE_SIDE[0] || n > RESIZE_SIDE[1]) {
      throw new SettingError(`The ${name} must be a whole number of tiles from ${RESIZE_SIDE[0]} to ${RESIZE_SIDE[1]} (got ${JSON.stringify(n)?.slice(0, 40)})`, name);
    }
  }
  const w = /** @type {number} */ (width);
  const h = /** @type {number} */ (height);
  const m = app.model;
  if (w === m.width && h === m.height) return false;
  const cells = new Uint8Array(w * h).fill(m.ground);
  const keepW = Math.min(w, m.width);
  for (let y = 0; y < Math.min(h, m.height); y++) cells.set(m.cells.subarray(y * m.width, y * m.width + keepW), y * w);
  /** @param {Tile} t @returns {Tile} */
  const clamp = (t) => [Math.min(t[0], w - 1), Math.min(t[1], h - 1)];
  const start = clamp(m.start);
  let goal = clamp(m.goal);
  if (goal[0] === start[0] && goal[1] === start[1]) goal = start[0] > 0 ? [start[0] - 1, start[1]] : [start[0], start[1] - 1];
  const before = `${m.width} x ${m.height}`;
  showMap(app, engine, { width: w, height: h, cells }, '', { label: `resize to ${w} x ${h}`, start, goal });
  app.setStatus(app.engineState === 'ready' ? 'ready' : 'loading',
    `Resized the map from ${before} to ${w} x ${h} (${plural(w * h, 'tile')}). Undo (Ctrl+Z) brings back the map before.`, 1);
  app.emit('maps');
  return true;
}
