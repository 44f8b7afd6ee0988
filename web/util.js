// @ts-check
/**
 * Small helpers the lab's modules share: numbers as people read them, an error's message, and
 * index.html's elements by id.
 *
 * @module util
 */

/** @param {number} n */
export const fmt = (n) => (Number.isFinite(n) ? n.toLocaleString('en-US') : String(n));

/** @param {number | undefined | null} n @param {number} [d=1] */
export const fixed = (n, d = 1) =>
  typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: d }) : '–';

/** @param {unknown} e */
export const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/**
 * An element of index.html by id (it must be there).
 * @param {string} id
 */
export function $(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`index.html lacks #${id}`);
  return el;
}

/**
 * A count with its noun, singular for exactly 1 ("1 tile", "2 tiles", "1 stretch"): every count
 * the page writes goes through here.
 * @param {number} n
 * @param {string} one  the singular
 * @param {string} [many]  the plural (default: `one` + "s")
 */
export const plural = (n, one, many = `${one}s`) => `${fmt(n)} ${n === 1 ? one : many}`;
