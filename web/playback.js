// @ts-check
/**
 * What plays over time: the replay of a search, one expansion at a time at a chosen speed, and
 * the unit driving the drawn path. Commands on the app state; the replay bar (panels/replay.js)
 * and the canvas show the result.
 *
 * @module playback
 */

/** @typedef {import('./app.js').AppState} AppState */

/**
 * Expansions per second for a speed slider position: 0..1000 -> 1..2000, logarithmic.
 * @param {number} v
 */
export const sliderToSpeed = (v) => Math.max(1, Math.min(2000, Math.round(Math.pow(2000, v / 1000))));

/**
 * Drive the unit along the drawn path: its lines and arcs when it has them (slowing in the speed
 * limits, pivoting at corners), else the tile path. Very long paths are driven faster, so the
 * drive takes at most a minute.
 * @param {AppState} app
 */
export function startDrive(app) {
  const shown = app.shown;
  if (!shown || !shown.path.length) return;
  const now = performance.now();
  const planned = shown.planned;
  const length = planned ? planned.route.length : tilePathLength(shown.path);
  app.unit.setSpeed(Math.max(app.driveSpeed, length / 60), now);
  if (planned) app.unit.driveRoute(planned.route, now, { limits: planned.limits, pivots: planned.pivots });
  else app.unit.drive(shown.path, now);
}

/** @param {Array<[number, number]>} path */
function tilePathLength(path) {
  let d = 0;
  for (let i = 1; i < path.length; i++) d += Math.hypot(path[i][0] - path[i - 1][0], path[i][1] - path[i - 1][1]);
  return d;
}

/**
 * The replay moved: at its end the unit drives the path; before it, the unit waits at the start
 * (on squares; hexes and waypoints have no unit).
 * @param {AppState} app
 */
function replayMoved(app) {
  const rp = app.replay;
  const shown = app.shown;
  if (!rp || !shown) return;
  if (app.model.kind !== 'squares') {
    // Hexes and waypoints have no unit to drive: the replay only draws the search.
  } else if (rp.player.atEnd) {
    if (!rp.driven && shown.path.length) {
      startDrive(app);
      rp.driven = true;
    }
  } else if (rp.driven || app.unit.route) {
    app.unit.placeAt(shown.from);
    rp.driven = false;
  }
  app.emit('replay');
}

/**
 * Show the state after k expansions (clamped), paused.
 * @param {AppState} app
 * @param {number} k
 */
export function seekReplay(app, k) {
  const rp = app.replay;
  if (!rp) return;
  rp.player.playing = false;
  rp.player.seek(k);
  replayMoved(app);
}

/**
 * @param {AppState} app
 * @param {number} d  expansions forward (negative: back)
 */
export function stepReplay(app, d) {
  if (app.replay) seekReplay(app, app.replay.player.k + d);
}

/** Play or pause; playing from the end starts again. @param {AppState} app */
export function togglePlay(app) {
  const rp = app.replay;
  if (!rp) return;
  const r = rp.player;
  if (r.playing) {
    r.playing = false;
  } else {
    if (r.atEnd) r.seek(0);
    r.playing = true;
    rp.last = performance.now();
    rp.owed = 1; // the first expansion shows at once
  }
  replayMoved(app);
}

/**
 * Advance a playing replay to the time `now` (called every frame).
 * @param {AppState} app
 * @param {number} now  performance.now()
 */
export function advanceReplay(app, now) {
  const rp = app.replay;
  if (!rp || !rp.player.playing) return;
  const r = rp.player;
  rp.owed += ((now - rp.last) / 1000) * sliderToSpeed(app.replaySlider);
  rp.last = now;
  const steps = Math.floor(rp.owed);
  if (steps > 0) {
    rp.owed -= steps;
    r.step(steps);
    if (r.atEnd) r.playing = false;
    replayMoved(app);
  }
}

/** A map edit ends the replay: the search's final state stays drawn (dimmed as stale). @param {AppState} app */
export function endReplay(app) {
  const rp = app.replay;
  if (!rp) return;
  rp.player.playing = false;
  rp.player.seek(rp.player.n);
  if (app.shown) app.shown.explored = rp.player.status;
  app.replay = null;
  app.noReplay = 'edited';
  app.emit('replay');
}

/**
 * A new map or search: forget the replay.
 * @param {AppState} app
 * @param {import('./app.js').NoReplay} why  what the replay bar says meanwhile
 */
export function dropReplay(app, why) {
  app.replay = null;
  app.noReplay = why;
  app.emit('replay');
}
