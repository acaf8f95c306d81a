// Building elements without HTML strings: every text goes in as a text node.

/** Attributes and handlers of an element. */
export type Attrs = Record<string, string | number | boolean | EventListener | undefined>;

/** A child: an element, text (set as text, never parsed), or nothing. */
export type Child = Node | string | null | undefined | false;

/** Makes `<tag>` with attributes (`on…` are listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
}

/** The app's root element. */
export function root(): HTMLElement {
  const el = document.getElementById('app');
  if (!el) throw new Error('no #app element');
  return el;
}
