// @ts-check
/**
 * The headings of the start and the goal, and the methods that plan curves themselves.
 *
 * A heading is kept as typed (text, degrees) in the unit's settings (`app.unitInput.start_heading`,
 * `goal_heading`), so it is saved and restored with them; the empty text means the core's
 * default: the start faces east, the goal takes any heading. Degrees turn clockwise on the
 * screen from east (0 = east, 90 = south, y down), as the core's radians do. Every change made
 * here (a drag of the marker's handle, the wheel over a marker, the keys) is one undo step; the
 * wheel's notches on one marker within a moment join into one.
 *
 * Headings are sent as [x, y, radians] (the protocol's `end`).
 *
 * @module headings
 */

import { decimal } from './controls.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./engine.js').End} End */
/** @typedef {'start' | 'goal'} Which */

/** The steps of the keys and the wheel, degrees. */
export const KEY_STEP_DEG = 45;
export const WHEEL_STEP_DEG = 15;
/** Wheel notches this close together (ms) on one marker are one undo step. */
const WHEEL_JOIN_MS = 800;

/**
 * The unit settings' field of a marker's heading.
 * @param {Which} which
 * @returns {'start_heading' | 'goal_heading'}
 */
function fieldOf(which) {
  return which === 'start' ? 'start_heading' : 'goal_heading';
}

/**
 * A heading as typed, read: degrees in [0, 360), null for none, or an error for people.
 * @param {string} raw
 * @param {Which} which
 * @returns {{deg: number | null, error: string}}
 */
export function readHeading(raw, which) {
  const text = String(raw).trim();
  const name = which === 'start' ? 'Start heading' : 'Goal heading';
  const none = which === 'start' ? 'leave it empty to face east' : 'leave it empty for any heading';
  if (text === '' || (which === 'goal' && /^any$/i.test(text))) return { deg: null, error: '' };
  const v = decimal(text.replace(/°$/, ''));
  if (!Number.isFinite(v)) return { deg: null, error: `${name} "${text}" is not a number of degrees (0 = east, 90 = south): give one, or ${none}.` };
  if (Math.abs(v) > 3600) return { deg: null, error: `${name} ${v}° is absurd: give degrees from 0 to 360, or ${none}.` };
  return { deg: normalDeg(v), error: '' };
}

/**
 * Degrees in [0, 360), rounded to a thousandth.
 * @param {number} deg
 */
export function normalDeg(deg) {
  const d = Math.round((((deg % 360) + 360) % 360) * 1000) / 1000;
  return d === 360 ? 0 : d;
}

/**
 * Both markers' headings as sent (radians; null: none), and the errors of the fields that cannot be.
 * @param {{start_heading: string, goal_heading: string}} input
 * @returns {{start: number | null, goal: number | null, errors: Record<string, string>}}
 */
export function readHeadings(input) {
  /** @type {Record<string, string>} */
  const errors = {};
  const s = readHeading(input.start_heading, 'start');
  const g = readHeading(input.goal_heading, 'goal');
  if (s.error) errors.start_heading = s.error;
  if (g.error) errors.goal_heading = g.error;
  const rad = (/** @type {number | null} */ d) => (d === null ? null : (d * Math.PI) / 180);
  return { start: rad(s.deg), goal: rad(g.deg), errors };
}

/**
 * A marker's heading now, degrees (null: none or unreadable).
 * @param {AppState} app
 * @param {Which} which
 */
export function headingDeg(app, which) {
  return readHeading(app.unitInput[fieldOf(which)], which).deg;
}

/**
 * A tile and a heading as the protocol's `end`: [x, y] without one, [x, y, radians] with one.
 * @param {[number, number]} tile
 * @param {number | null} heading  radians
 * @returns {End}
 */
export function endOf(tile, heading) {
  return heading === null ? [tile[0], tile[1]] : [tile[0], tile[1], heading];
}

/**
 * Set a marker's heading (degrees, or null for none), one undo step. With `join`, a change right
 * after the last one of the same marker made with `join` joins its step (the wheel's notches).
 * @param {AppState} app
 * @param {Which} which
 * @param {number | null} deg
 * @param {{join?: boolean, label?: string}} [how]
 * @returns {boolean} whether it changed
 */
export function setHeading(app, which, deg, how = {}) {
  if (deg !== null && !Number.isFinite(deg)) throw new Error(`a heading must be a finite number of degrees or null (got ${deg})`);
  const key = fieldOf(which);
  const before = app.unitInput[key];
  const after = deg === null ? '' : String(normalDeg(deg));
  app.markerFocus = which;
  if (after === before) {
    app.emit('unit', 'view');
    return false;
  }
  const put = (/** @type {string} */ text) => {
    app.unitInput[key] = text;
    app.markerFocus = which;
    app.emit('unit', 'view');
  };
  const now = performance.now();
  const last = app.model.undoStack[app.model.undoStack.length - 1];
  const joined = how.join && last && last === app.headingStep.step && app.headingStep.which === which && now - app.headingStep.at < WHEEL_JOIN_MS;
  if (joined && app.headingStep.step) {
    const step = app.headingStep.step;
    step.redo = () => put(after);
    app.headingStep.at = now;
    put(after);
    return true;
  }
  /** @type {import('./state.js').Command} */
  const step = {
    label: how.label ?? `turn the ${which}`,
    undo: () => put(before),
    redo: () => put(after),
  };
  put(after);
  app.model.record(step);
  app.headingStep = { step: how.join ? step : null, which, at: now };
  return true;
}

/**
 * Turn a marker by `deg` degrees (clockwise on the screen); a marker with no heading starts from
 * east (the start's default) or from its nearest step.
 * @param {AppState} app
 * @param {Which} which
 * @param {number} deg
 * @param {{join?: boolean}} [how]
 */
export function rotateHeading(app, which, deg, how = {}) {
  const now = headingDeg(app, which);
  const from = now === null ? 0 : now;
  const step = Math.abs(deg);
  // Keys land on multiples of their step; the wheel turns by its step from where it is.
  const to = how.join ? from + deg : Math.round((from + deg) / step) * step;
  return setHeading(app, which, to, { join: how.join });
}
