// @ts-check
/**
 * The replay bar: to the start, a step back, play/pause, a step forward, to the end, the speed
 * (expansions per second) and where the replay stands.
 *
 * @module panels/replay
 */

import { seekReplay, sliderToSpeed, stepReplay, togglePlay } from '../playback.js';
import { $, fmt } from '../util.js';

/** @typedef {import('../app.js').AppState} AppState */

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
    position.textContent = r ? `expansion ${fmt(r.k)} of ${fmt(r.n)}${r.atEnd ? ' (end)' : ''}` : 'no search to replay';
  }

  app.on('replay', show);
  show();
  showSpeed();
}
