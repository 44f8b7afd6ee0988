// @ts-check
/**
 * The Map panel's kind switch: squares, hex (pointy- or flat-top) or waypoints, and on a
 * waypoint graph its tools (move or link) and the buttons that act on the selected point.
 *
 * @module panels/mapkind
 */

import { setKind, setOrientation } from '../maps/kinds.js';
import { removePoint, setEnd } from '../waypointedit.js';
import { $, messageOf } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */

/** @param {AppState} app */
export function mapKindPanel(app) {
  const kind = /** @type {HTMLSelectElement} */ ($('map-kind'));
  const orientation = /** @type {HTMLSelectElement} */ ($('hex-orientation'));
  const hexPart = $('hex-part');
  const wpPart = $('waypoint-part');
  const linkTool = /** @type {HTMLInputElement} */ ($('wp-link'));
  const count = $('wp-count');
  const act = (/** @type {() => void} */ fn) => {
    try {
      fn();
    } catch (e) {
      app.setStatus('error', `Error: ${messageOf(e)}`, 0);
    }
  };
  kind.addEventListener('change', () => act(() => setKind(app, kind.value)));
  orientation.addEventListener('change', () => act(() => setOrientation(app, orientation.value)));
  linkTool.addEventListener('change', () => {
    app.model.waypoints.tool = linkTool.checked ? 'link' : 'point';
  });
  for (const which of /** @type {const} */ (['start', 'goal'])) {
    $(`wp-${which}`).addEventListener('click', () => setEnd(app, which, app.model.waypoints.selected));
  }
  $('wp-delete').addEventListener('click', () => {
    const g = app.model.waypoints;
    if (g.selected === null) app.setStatus('error', 'Select a point first (click it), then Delete.', 0);
    else removePoint(app, g.selected);
  });
  const show = () => {
    const m = app.model;
    kind.value = m.kind;
    orientation.value = m.orientation;
    hexPart.hidden = m.kind !== 'hex';
    wpPart.hidden = m.kind !== 'waypoints';
    const g = m.waypoints;
    linkTool.checked = g.tool === 'link';
    count.textContent = `${g.nodes.length} points, ${g.edges.length} edges${g.selected === null ? '' : `; point ${g.selected} selected`}`;
  };
  app.on('map', show);
  app.on('controls', show);
  show();
}
