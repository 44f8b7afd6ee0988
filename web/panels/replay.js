// @ts-check
/**
 * The replay bar: to the start, a step back, play/pause, a step forward, to the end, the speed
 * (expansions per second) and where the replay stands.
 *
 * @module panels/replay
 */

import { endReplay, seekReplay, sliderToSpeed, stepReplay, togglePlay } from '../playback.js';
import { TRACE_LIMIT } from '../search.js';
import { $, fmt } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */

/** What the replay bar says when there is nothing to replay, by reason. */
const NOTHING = Object.freeze({
  none: 'no search to replay yet: press Enter',
  searching: 'searching…',
  edited: 'nothing to replay: the map was edited after the search',
  off: 'nothing to replay: "Record and draw the search" was off',
  too_large: `nothing to replay: the search was too large to record (over ${fmt(TRACE_LIMIT)} expansions)`,
  unrecorded: 'nothing to replay: this search recorded no steps',
  cancelled: 'nothing to replay: the search was cancelled',
  failed: 'nothing to replay: the search failed',
});

/** @param {AppState} app */
export function replayPanel(app) {
  const buttons = {
    start: /** @type {HTMLButtonElement} */ ($('rp-start')),
    back: /** @type {HTMLButtonElement} */ ($('rp-back')),
    play: /** @type {HTMLButtonElement} */ ($('rp-play')),
    step: /** @type {HTMLButtonElement} */ ($('rp-step')),
    end: /** @type {HTMLButtonElement} */ ($('rp-end')),
  };
  const speed = /** @type {HTMLInputElement} */ ($('rp-speed'));
  const speedOut = $('rp-speed-out');
  const position = $('rp-pos');

  buttons.start.addEventListener('click', () => seekReplay(app, 0));
  buttons.back.addEventListener('click', () => stepReplay(app, -1));
  buttons.play.addEventListener('click', () => togglePlay(app));
  buttons.step.addEventListener('click', () => stepReplay(app, 1));
  buttons.end.addEventListener('click', () => seekReplay(app, Infinity));
  speed.addEventListener('input', () => {
    app.replaySlider = Number(speed.value);
    showSpeed();
  });

  function showSpeed() {
    speed.value = String(app.replaySlider);
    speedOut.textContent = `${fmt(sliderToSpeed(app.replaySlider))}/s`;
  }

  function show() {
    const r = app.replay?.player ?? null;
    buttons.start.disabled = !r || r.k === 0;
    buttons.back.disabled = !r || r.k === 0;
    buttons.step.disabled = !r || r.atEnd;
    buttons.end.disabled = !r || r.atEnd;
    buttons.play.disabled = !r;
    const playing = !!r && r.playing;
    buttons.play.classList.toggle('playing', playing);
    buttons.play.setAttribute('aria-label', playing ? 'Pause' : 'Play');
    position.textContent = r ? `expansion ${fmt(r.k)} of ${fmt(r.n)}${r.atEnd ? ' (end)' : ''}` : NOTHING[app.noReplay];
    position.title = position.textContent;
  }

  // A waypoint graph edited after its search ends the replay, as a map edit does on squares and hexes.
  app.on('map', () => {
    const m = app.model;
    if (app.replay && m.kind === 'waypoints' && app.shown?.graphVersion !== m.waypoints.version) endReplay(app);
  });
  app.on('replay', show);
  show();
  showSpeed();
}
