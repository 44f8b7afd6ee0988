// @ts-check
/**
 * Saving the work as files: the arcstar work JSON (the same snapshot as autosave and share
 * links; Open file and dropping it bring it back), the map as a Moving AI `.map` (written by the
 * core in the worker, which says what terrains it could not keep), a `.scen` of the start and
 * the goal with its optimal length (planned by the engine in the worker with Moving AI's rules),
 * and a PNG of the canvas. Each says in the status line what it wrote, or why it wrote nothing.
 *
 * @module io/export
 */

import { writeMapRequest } from '../protocol.js';
import { wireMap } from '../search.js';
import { messageOf, plural } from '../util.js';
import { workText } from './work.js';

/** @typedef {import('../app.js').AppState} AppState */
/** @typedef {import('../engine.js').Engine} Engine */
/** @typedef {import('../protocol.js').MapTextMessage} MapTextMessage */

/** Moving AI's rules for a scenario's optimal length: 8 neighbours, no corner cutting, 1 and sqrt 2. */
export const MOVINGAI_OPTIONS = Object.freeze({
  method: 'astar', neighbours: 8, diagonal: 'both', costs: 'octile', heuristic: 'octile', weight: 1, turn_penalty: 0,
  stop: 'closed', trace: false,
});
/** How many decimals a .scen's optimal length is written with (Moving AI's files use 8). */
const SCEN_DECIMALS = 8;

/**
 * Hand a file to the browser to save.
 * @param {string} name
 * @param {Blob} blob
 */
export function download(name, blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The files' base name: the map menu's entry, or "arcstar-map".
 * @param {AppState} app
 */
export function baseName(app) {
  const key = app.mapKey.replace(/^bench:/, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '');
  return key || 'arcstar-map';
}

/**
 * Save the work as an arcstar JSON file.
 * @param {AppState} app
 * @returns {string | null} the file's name, or null when the work is too large (the status line says so)
 */
export function exportWork(app) {
  const snap = workText(app);
  if ('why' in snap) {
    app.setStatus('error', `Error: the work was not saved: ${snap.why}. Use Copy text or the .map export for the map.`, 0);
    return null;
  }
  const name = `${baseName(app)}.arcstar.json`;
  download(name, new Blob([snap.text], { type: 'application/json' }));
  app.setStatus(app.status.state === 'error' ? 'ready' : app.status.state, `Saved ${name}: the map, costs, start and goal, settings${app.world.on && app.world.units.length ? ', units' : ''}. Open it with Open file or drop it on the map.`);
  return name;
}

/**
 * The map as the core writes a Moving AI .map under the lab's terrain costs.
 * @param {AppState} app
 * @param {Engine} engine
 * @returns {Promise<MapTextMessage>}
 */
async function movingAiText(app, engine) {
  return engine.request(writeMapRequest(wireMap(app)));
}

/**
 * What a .map could not keep, for people ('' when nothing).
 * @param {MapTextMessage} answer
 */
export function lostWords(answer) {
  const as = (/** @type {'.' | '@'} */ ch) => answer.lost.filter((t) => t.written === ch).map((t) => `${t.name} (${plural(t.tiles, 'tile')})`);
  const open = as('.');
  const shut = as('@');
  const parts = [];
  if (open.length) parts.push(`${open.join(', ')} written as '.', open ground of cost 1`);
  if (shut.length) parts.push(`${shut.join(', ')} written as '@', walls`);
  return parts.length ? `Moving AI maps know only open and blocked tiles: ${parts.join('; ')}.` : '';
}

/**
 * Save the map as a Moving AI .map.
 * @param {AppState} app
 * @param {Engine} engine
 * @returns {Promise<string | null>} the file's name, or null (the status line says why)
 */
export async function exportMovingAi(app, engine) {
  try {
    const answer = await movingAiText(app, engine);
    const name = `${baseName(app)}.map`;
    download(name, new Blob([answer.text], { type: 'text/plain' }));
    const lost = lostWords(answer);
    app.setStatus(lost ? 'ready' : app.status.state === 'error' ? 'ready' : app.status.state, `Saved ${name} (${app.model.width} x ${app.model.height}).${lost ? ` ${lost}` : ' Nothing was lost.'}`);
    return name;
  } catch (e) {
    app.setStatus('error', `Error: the .map was not saved: ${messageOf(e)}`, 0);
    return null;
  }
}

/**
 * Save the start and the goal as a Moving AI .scen with its optimal length, planned in the worker
 * with Moving AI's rules on the map as the .map export writes it (open or blocked). Nothing is
 * saved when they are not connected.
 * @param {AppState} app
 * @param {Engine} engine
 * @returns {Promise<{name: string, optimal: number} | null>} null: nothing saved (the status line says why)
 */
export async function exportScen(app, engine) {
  const m = app.model;
  const [start, goal] = [m.start, m.goal];
  const fail = (/** @type {string} */ why) => {
    app.setStatus('error', `Error: no .scen was saved: ${why}`, 0);
    return null;
  };
  if (app.searching) return fail('a search is running; let it finish (or cancel it) first.');
  for (const [name, t] of /** @type {const} */ ([['start', start], ['goal', goal]])) {
    if (!m.isOpen(t[0], t[1])) return fail(`the ${name} (${t[0]}, ${t[1]}) is on a blocked tile.`);
  }
  const map = wireMap(app);
  /** @type {Array<[number, number | null]>} only open or blocked, as in the .map */
  const terrainCosts = map.terrainCosts.map(([code, c]) => [code, c === null ? null : 1]);
  app.setStatus('searching', 'Finding the optimal length for the .scen (Moving AI rules: 8 neighbours, no corner cutting, diagonal \u221A2)…', null);
  let res;
  try {
    res = await engine.findPath({
      // Its own version (versions are positive): the worker gets these cells with these costs.
      map: { ...map, version: -m.version, terrainCosts },
      start: [start[0], start[1]],
      goal: [goal[0], goal[1]],
      options: { ...MOVINGAI_OPTIONS },
    });
  } catch (e) {
    return fail(`the optimal length could not be found: ${messageOf(e)}`);
  }
  if (res.status !== 'found' || typeof res.cost !== 'number') {
    return fail(`the start (${start[0]}, ${start[1]}) and the goal (${goal[0]}, ${goal[1]}) are not connected under Moving AI's rules (8 neighbours, no corner cutting, only open and blocked tiles).`);
  }
  const optimal = res.cost;
  const base = baseName(app);
  const line = [Math.floor(optimal / 4), `${base}.map`, m.width, m.height, start[0], start[1], goal[0], goal[1], optimal.toFixed(SCEN_DECIMALS)].join('\t');
  const name = `${base}.map.scen`;
  download(name, new Blob([`version 1\n${line}\n`], { type: 'text/plain' }));
  app.setStatus('ready', `Saved ${name}: (${start[0]}, ${start[1]}) to (${goal[0]}, ${goal[1]}), optimal length ${optimal.toFixed(4)} by Moving AI's rules. It goes with ${base}.map (Save .map).`, 1);
  return { name, optimal };
}

/**
 * Save the canvas as a PNG, as it shows now.
 * @param {AppState} app
 * @param {HTMLCanvasElement} canvas
 * @returns {Promise<string | null>}
 */
export async function exportPng(app, canvas) {
  /** @type {Blob | null} */
  const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) {
    app.setStatus('error', 'Error: the browser could not make a PNG of the map.', 0);
    return null;
  }
  const name = `${baseName(app)}.png`;
  download(name, blob);
  app.setStatus(app.status.state === 'error' ? 'ready' : app.status.state, `Saved ${name} (${canvas.width} x ${canvas.height} px, the map as shown).`);
  return name;
}
