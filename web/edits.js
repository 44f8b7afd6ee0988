// @ts-check
/**
 * What a change of the map does to the rest of the state: a new map drops the search drawn and
 * fits the view; an edit of the terrain or a cost ends a replay (the search stays drawn, dimmed
 * as stale), says the result is out of date, and stops the unit or re-plans from where it is
 * (the unit's "On map edit" setting); moved markers choose the benchmark scenario they match.
 *
 * @module edits
 */

import { hasPath } from './app.js';
import { dropReplay, endReplay } from './playback.js';
import { followMarkers } from './scenarios.js';
import { runSearch } from './search.js';
import { editedStatus } from './verdict.js';

/** @typedef {import('./app.js').AppState} AppState */
/** @typedef {import('./engine.js').Engine} Engine */
/** @typedef {[number, number]} Tile */

/** How long edits must pause before the unit re-plans (a drag stroke re-plans once), ms. */
export const REPLAN_DELAY_MS = 250;

/** The status states that show a search's result (an edit makes them out of date). */
const RESULT_STATES = Object.freeze(['found', 'no_path', 'unreachable']);

/**
 * The map was edited under the last result: stop the unit (re-plan later if so set) and say
 * the result is out of date.
 * @param {AppState} app
 * @param {Engine} engine
 */
function editedUnderResult(app, engine) {
  const r = app.result;
  if (!r || !app.resultStale) return;
  const unit = app.unit;
  const wasDriving = unit.moving || app.timers.replan !== 0;
  if (unit.moving) unit.stop();
  const replan = app.unitInput.on_edit === 'replan' && wasDriving && hasPath(r.status);
  if (replan) {
    clearTimeout(app.timers.replan);
    app.timers.replan = window.setTimeout(() => replanFromUnit(app, engine), REPLAN_DELAY_MS);
  }
  if (!app.searching && (RESULT_STATES.includes(app.status.state) || app.status.state === 'stale')) {
    app.setStatus('stale', editedStatus(replan ? 'replanning' : wasDriving ? 'stopped' : 'idle'), 1);
  }
}

/**
 * Plan again from the tile the unit stands on to the goal, on the map as it is now.
 * @param {AppState} app
 * @param {Engine} engine
 */
function replanFromUnit(app, engine) {
  app.timers.replan = 0;
  if (app.searching || app.engineState !== 'ready') return;
  const m = app.model;
  /** @type {Tile} */
  const here = [Math.floor(app.unit.pose.x), Math.floor(app.unit.pose.y)];
  if (!m.isOpen(here[0], here[1])) {
    app.setStatus('stale', `${editedStatus('stopped')} It cannot re-plan: its tile (${here[0]}, ${here[1]}) is no longer open.`, 1);
    return;
  }
  runSearch(app, engine, here, [...m.goal]).catch(() => {
    /* shown in the status line */
  });
}

/**
 * Follow the app state's map model.
 * @param {AppState} app
 * @param {Engine} engine  re-plans after an edit, when the unit is set to
 */
export function followModel(app, engine) {
  const { model, unit } = app;
  model.subscribe((kind) => {
    if (kind === 'load') {
      dropReplay(app, 'none');
      clearTimeout(app.timers.replan);
      app.timers.replan = 0;
      app.shown = null;
      app.hover = null;
      unit.placeAt(model.start, 0);
      app.viewport.showMap(model.width, model.height);
      app.emit('costs', 'hover', 'view');
    } else if (kind === 'cells' || kind === 'costs') {
      endReplay(app);
      editedUnderResult(app, engine);
      if (kind === 'costs') app.emit('costs');
    } else if (kind === 'markers') {
      endReplay(app);
      if (!unit.moving && !app.result?.path?.length) unit.placeAt(model.start);
      followMarkers(app);
    }
    app.emit('controls', 'map');
  });
}
