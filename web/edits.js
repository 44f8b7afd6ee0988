// @ts-check
/**
 * What a change of the map does to the rest of the state: a new map drops the search drawn and
 * fits the view; an edit of the terrain, a cost or a marker ends a replay (the search stays
 * drawn, dimmed as stale); moved markers choose the benchmark scenario they match.
 *
 * @module edits
 */

import { dropReplay, endReplay } from './playback.js';
import { followMarkers } from './scenarios.js';

/** @typedef {import('./app.js').AppState} AppState */

/** Follow the app state's map model. @param {AppState} app */
export function followModel(app) {
  const { model, unit } = app;
  model.subscribe((kind) => {
    if (kind === 'load') {
      dropReplay(app);
      app.shown = null;
      app.hover = null;
      unit.placeAt(model.start, 0);
      app.viewport.showMap(model.width, model.height);
      app.emit('costs', 'hover', 'view');
    } else if (kind === 'cells' || kind === 'costs') {
      endReplay(app);
      if (kind === 'costs') app.emit('costs');
    } else if (kind === 'markers') {
      endReplay(app);
      if (!unit.moving && !app.result?.path?.length) unit.placeAt(model.start);
      followMarkers(app);
    }
    app.emit('controls', 'map');
  });
}
