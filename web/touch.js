// @ts-check
/**
 * Fingers on the map canvas (pointer events of type "touch"; the canvas has `touch-action: none`,
 * so the browser neither scrolls nor zooms the page under them).
 *
 * - One finger does what the left mouse button does (paint, drag S or G or a heading knob; in
 *   Command units mode select, place), but only once it is clear that it is one finger: when it
 *   has moved `SLOP_PX`, has been held `HOLD_MS`, or is lifted (a tap). Until then its events are
 *   held back, so a pinch whose fingers land a moment apart paints nothing.
 * - A second finger makes it a two-finger gesture: the fingers' centre drags the map and their
 *   spread zooms about that centre. A stroke the first finger had already started is taken back
 *   (no undo step is left); in Command units mode the press is cancelled.
 * - A third finger is ignored; after a two-finger gesture the finger left on the glass does
 *   nothing until it is lifted.
 *
 * The gesture listens on the canvas's parent in the capture phase, ahead of the editor and the
 * unit commander on the canvas, and hands a one-finger gesture on to them as the pointer events
 * it held back (replayed on the canvas), then lets that finger's later events through.
 *
 * @module touch
 */

/** @typedef {import('./app.js').AppState} AppState */

/** A finger that moves this far (CSS px) is a stroke of one finger. */
export const SLOP_PX = 8;
/** A finger held this long (ms) without a second one is a stroke of one finger. */
export const HOLD_MS = 150;

/**
 * @typedef {{x: number, y: number, d: number}} Pair  two fingers' centre (canvas CSS px) and distance
 */

export class TouchGestures {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {AppState} app
   * @param {() => void} cancelDrag  takes back what the editor's drag did so far
   */
  constructor(canvas, app, cancelDrag) {
    this.canvas = canvas;
    this.app = app;
    this.cancelDrag = cancelDrag;
    /** @type {Map<number, {x: number, y: number}>} the fingers on the canvas, client CSS px */
    this.fingers = new Map();
    /** @type {null | {id: number, down: PointerEvent, last: PointerEvent | null, timer: number}} a first finger
     *  not yet known to be alone: its events so far */
    this.pending = null;
    /** @type {number | null} the finger whose events go on to the editor */
    this.passing = null;
    /** @type {Pair | null} two fingers: their centre and distance at the last step */
    this.pair = null;
    /** the gesture is replaying an event on the canvas (it must pass) */
    this.replaying = false;
    const host = /** @type {HTMLElement} */ (canvas.parentElement);
    for (const type of /** @type {const} */ (['pointerdown', 'pointermove', 'pointerup', 'pointercancel'])) {
      host.addEventListener(type, (e) => this._on(e), { capture: true });
    }
  }

  /** @param {PointerEvent} e */
  _on(e) {
    if (this.replaying || e.pointerType !== 'touch' || e.target !== this.canvas) return;
    const id = e.pointerId;
    if (e.type === 'pointerdown') this._down(e);
    else if (e.type === 'pointermove') this._move(e);
    else {
      this.fingers.delete(id);
      if (this.pending && this.pending.id === id) {
        // A tap: the press and the release go on together (pointercancel: nothing happened).
        if (e.type === 'pointerup') this._commit();
        else this._drop();
      }
      // Two fingers left of three pinch afresh; one left does nothing until it is lifted.
      if (this.pair) this.pair = this._pair();
      if (this.passing === id) {
        this.passing = null;
        return; // the editor ends its stroke
      }
      this._swallow(e);
    }
  }

  /** @param {PointerEvent} e */
  _down(e) {
    this.fingers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    this._swallow(e);
    if (this.fingers.size === 1) {
      this.canvas.focus({ preventScroll: true });
      const timer = window.setTimeout(() => this._commit(), HOLD_MS);
      this.pending = { id: e.pointerId, down: e, last: null, timer };
      return;
    }
    if (this.fingers.size !== 2) return;
    if (this.pending) this._drop();
    if (this.passing !== null) {
      // The first finger's stroke becomes a pinch: take it back, and cancel its press for the commander.
      const first = this.passing;
      this.passing = null;
      this.cancelDrag();
      this._replay(e, 'pointercancel', first);
    }
    this.pair = this._pair();
  }

  /** @param {PointerEvent} e */
  _move(e) {
    const id = e.pointerId;
    if (!this.fingers.has(id)) return;
    this.fingers.set(id, { x: e.clientX, y: e.clientY });
    if (this.passing === id) return;
    this._swallow(e);
    if (this.pending && this.pending.id === id) {
      this.pending.last = e;
      const d = this.pending.down;
      if (Math.hypot(e.clientX - d.clientX, e.clientY - d.clientY) >= SLOP_PX) this._commit();
    } else if (this.pair) {
      const now = this._pair();
      if (!now) return;
      this.app.viewport.pinch(this.pair, now);
      this.pair = now;
      this.app.emit('view');
    }
  }

  /** The two fingers' centre (canvas CSS px) and distance, or null when there are not two. */
  _pair() {
    if (this.fingers.size !== 2) return null;
    const [a, b] = [...this.fingers.values()];
    const r = this.canvas.getBoundingClientRect();
    return { x: (a.x + b.x) / 2 - r.left, y: (a.y + b.y) / 2 - r.top, d: Math.hypot(a.x - b.x, a.y - b.y) };
  }

  /** It is one finger: hand its press (and its last move) on to the editor. */
  _commit() {
    const p = this.pending;
    if (!p) return;
    this._drop();
    this.passing = p.id;
    this._replay(p.down, 'pointerdown', p.id);
    if (p.last && this.passing === p.id) this._replay(p.last, 'pointermove', p.id);
  }

  /** Forget the finger held back (it became part of a pinch, or was cancelled). */
  _drop() {
    if (this.pending) window.clearTimeout(this.pending.timer);
    this.pending = null;
  }

  /**
   * Dispatch a copy of a pointer event on the canvas, past this gesture.
   * @param {PointerEvent} e  where and how
   * @param {string} type
   * @param {number} pointerId
   */
  _replay(e, type, pointerId) {
    const copy = new PointerEvent(type, {
      bubbles: true,
      cancelable: true,
      composed: true,
      pointerId,
      pointerType: 'touch',
      isPrimary: pointerId === e.pointerId ? e.isPrimary : true,
      clientX: e.clientX,
      clientY: e.clientY,
      screenX: e.screenX,
      screenY: e.screenY,
      button: type === 'pointermove' ? -1 : 0,
      buttons: type === 'pointerdown' || type === 'pointermove' ? 1 : 0,
      width: e.width,
      height: e.height,
      pressure: e.pressure,
      shiftKey: e.shiftKey,
    });
    this.replaying = true;
    try {
      this.canvas.dispatchEvent(copy);
    } finally {
      this.replaying = false;
    }
  }

  /** @param {PointerEvent} e  an event the editor must not see */
  _swallow(e) {
    e.stopPropagation();
    if (e.cancelable) e.preventDefault();
  }
}
