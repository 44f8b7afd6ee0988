// @ts-check
/**
 * Patrol and nearest orders for the selected units: the order a right-click gives (move, the
 * default; patrol; nearest) and the points marked for it so far (`app.world.order`).
 *
 * As in a real-time strategy game: choose Patrol (P) or Nearest (T, for targets), right-click the
 * points (each is checked on the map as it is marked; Backspace takes the last one back), then
 * Enter sends the order (Shift+Enter queues it after what the units do) and Esc cancels it. A
 * patrol visits its points in turn and loops; with one point it goes between where each unit
 * stands and that point. Nearest sends each unit to the target nearest to it by the ground. After
 * an order is sent, right-click moves again.
 *
 * Tile units (centres at +0.5), y down.
 *
 * @module orders
 */

import { fixed, messageOf, plural } from './util.js';
import { say } from './world.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./engine.js').Engine} Engine */

/** What a right-click orders. */
export const ORDER_KINDS = Object.freeze(/** @type {const} */ (['move', 'patrol', 'nearest']));
/** The most points an order takes when the core does not say (world_info's limits.points). */
const MAX_POINTS = 64;

/**
 * @typedef {Object} PendingOrder
 * @property {'move' | 'patrol' | 'nearest'} kind  what a right-click orders
 * @property {Array<[number, number]>} points  the points marked so far (tiles), for patrol and nearest
 */

/** @param {number} x @param {number} y */
const at = (x, y) => `(${fixed(x, 1)}, ${fixed(y, 1)})`;

/**
 * The ids of the selected units that are in the world.
 * @param {AppState} app
 */
function selectedIds(app) {
  const w = app.world;
  return [...w.selected].filter((id) => w.units.some((u) => u.id === id));
}

/** @param {AppState} app */
function maxPoints(app) {
  const n = Number(app.world.info?.limits?.points);
  return Number.isInteger(n) && n > 0 ? n : MAX_POINTS;
}

/**
 * What to do next, for people.
 * @param {AppState} app
 */
export function orderHint(app) {
  const o = app.world.order;
  const n = o.points.length;
  if (o.kind === 'patrol') {
    return n === 0
      ? 'Patrol: right-click the points to visit in turn (one point: back and forth from where each unit stands). Enter sends, Esc cancels.'
      : `Patrol: ${plural(n, 'point')} marked. Right-click more, Backspace takes the last back, Enter sends (Shift+Enter queues), Esc cancels.`;
  }
  if (o.kind === 'nearest') {
    return n === 0
      ? 'Nearest: right-click the targets; each selected unit goes to the one nearest to it by the ground. Enter sends, Esc cancels.'
      : `Nearest: ${plural(n, 'target')} marked. Right-click more, Backspace takes the last back, Enter sends (Shift+Enter queues), Esc cancels.`;
  }
  return 'Right-click: move there (Shift: queued).';
}

/**
 * Choose what a right-click orders; the points marked so far are dropped.
 * @param {AppState} app
 * @param {'move' | 'patrol' | 'nearest'} kind
 */
export function setOrderKind(app, kind) {
  if (!ORDER_KINDS.includes(kind)) throw new Error(`an order is one of ${ORDER_KINDS.join(', ')} (got ${JSON.stringify(kind)})`);
  const w = app.world;
  w.order = { kind, points: [] };
  if (w.mode !== 'units') {
    w.mode = 'units';
    app.emit('view');
  }
  if (kind === 'move') say(app, 'Right-click orders a move again.');
  else say(app, `${selectedIds(app).length ? '' : 'Select the units first (click one, or drag a box round several). '}${orderHint(app)}`);
}

/**
 * Drop the order being marked (Esc): right-click moves again.
 * @param {AppState} app
 * @returns {boolean} whether there was one
 */
export function cancelOrder(app) {
  const w = app.world;
  if (w.order.kind === 'move') return false;
  const what = w.order.kind;
  w.order = { kind: 'move', points: [] };
  say(app, `The ${what} order was cancelled; nothing was sent.`);
  return true;
}

/**
 * Mark a point of the pending patrol or nearest order (a right-click). A point off the map or
 * on a tile no unit can stand on is refused with a message, and nothing changes.
 * @param {AppState} app
 * @param {number} x  tiles
 * @param {number} y
 */
export function addOrderPoint(app, x, y) {
  const w = app.world;
  const o = w.order;
  const tx = Math.floor(x);
  const ty = Math.floor(y);
  const m = app.model;
  if (!Number.isFinite(x) || !Number.isFinite(y) || !m.inBounds(tx, ty)) return say(app, `${at(x, y)} is off the map: no point marked.`, true);
  if (!m.isOpen(tx, ty)) return say(app, `Tile (${tx}, ${ty}) is a wall (or impassable): no point marked there.`, true);
  if (o.points.length >= maxPoints(app)) return say(app, `An order takes at most ${maxPoints(app)} points: press Enter to send these, or Esc to cancel.`, true);
  o.points.push([x, y]);
  say(app, orderHint(app));
}

/**
 * Take the last marked point back (Backspace).
 * @param {AppState} app
 * @returns {boolean} whether there was one
 */
export function dropOrderPoint(app) {
  const o = app.world.order;
  if (o.kind === 'move' || !o.points.length) return false;
  o.points.pop();
  say(app, orderHint(app));
  return true;
}

/**
 * Send the pending patrol or nearest order to the selected units (Enter); with `queue`, after
 * what they do. A patrol of one point goes between where each unit stands and that point (one
 * order per unit). What the core refuses is said, and the points stay marked to fix or cancel.
 * @param {AppState} app
 * @param {Engine} engine
 * @param {boolean} queue
 */
export async function sendOrder(app, engine, queue) {
  const w = app.world;
  const o = w.order;
  if (o.kind === 'move') return say(app, 'Choose Patrol (P) or Nearest (T) first, then right-click the points.', true);
  const ids = selectedIds(app);
  if (!ids.length) return say(app, `Select units first (click one, or drag a box round several), then press Enter to send the ${o.kind} order.`, true);
  if (!o.points.length) return say(app, `Right-click at least one ${o.kind === 'patrol' ? 'point to patrol' : 'target'} first.`, true);
  const points = o.points.map((p) => [p[0], p[1]]);
  /** @type {Map<string, string>} what each unit was told, for the panel */
  const words = new Map();
  try {
    if (o.kind === 'patrol' && points.length === 1) {
      for (const id of ids) {
        const u = w.units.find((v) => v.id === id);
        if (!u) continue;
        await engine.request({ type: 'world_order', units: [id], order: 'patrol', points: [[u.x, u.y], points[0]], queue });
        words.set(id, `patrol ${at(u.x, u.y)} \u2194 ${at(points[0][0], points[0][1])}`);
      }
    } else {
      await engine.request({ type: 'world_order', units: ids, order: o.kind, points, queue });
      const text = o.kind === 'patrol'
        ? `patrol ${points.map((p) => at(p[0], p[1])).join(' \u2192 ')} \u21BA`
        : `nearest of ${points.map((p) => at(p[0], p[1])).join(', ')}`;
      for (const id of ids) words.set(id, text);
    }
  } catch (e) {
    for (const [id, text] of words) setOrders(app, id, text, queue);
    return say(app, `Could not give the ${o.kind} order${words.size ? ` to all (${words.size} of ${ids.length} have it)` : ''}: ${messageOf(e)}`, true);
  }
  for (const [id, text] of words) setOrders(app, id, text, queue);
  w.order = { kind: 'move', points: [] };
  const who = ids.length === 1 ? ids[0] : plural(ids.length, 'unit');
  say(app, `${who}: ${o.kind === 'patrol' ? 'patrolling' : `to the nearest of ${plural(points.length, 'target')}`}${queue ? ', queued' : ''}.${w.running ? '' : ' Press Play (Space) to watch.'}`);
}

/**
 * Record an order the page gave a unit, for the unit panel.
 * @param {AppState} app
 * @param {string} id
 * @param {string} text
 * @param {boolean} queue
 */
function setOrders(app, id, text, queue) {
  const u = app.world.units.find((v) => v.id === id);
  if (!u) return;
  if (queue) u.orders.push(text);
  else u.orders = [text];
}
