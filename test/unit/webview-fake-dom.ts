// A small stand-in for a webview's DOM, enough to run the very scripts of media/changes
// (page.js, cells.js, table.js) in a unit test: elements with children, text, titles,
// classes, styles and data attributes; the webview's acquireVsCodeApi; messages to the
// window; requestAnimationFrame and setTimeout run when the test says (`flush`).
import * as fs from 'node:fs';
import * as path from 'node:path';

export class FakeElement {
  readonly children: FakeElement[] = [];
  readonly style: Record<string, string> = {};
  readonly dataset: Record<string, string> = {};
  readonly attributes: Record<string, string> = {};
  readonly listeners: Record<string, (() => void)[]> = {};
  className = '';
  title = '';
  value = '';
  scrollTop = 0;
  clientHeight = 240;
  private text = '';
  constructor(readonly tagName: string) {}
  get textContent(): string {
    return this.children.length > 0 ? this.children.map((c) => c.textContent).join('') : this.text;
  }
  set textContent(t: string) {
    this.text = String(t);
    this.children.length = 0;
  }
  appendChild(c: FakeElement): FakeElement {
    this.children.push(c);
    return c;
  }
  setAttribute(k: string, v: string): void {
    this.attributes[k] = v;
  }
  addEventListener(type: string, h: () => void): void {
    (this.listeners[type] ??= []).push(h);
  }
  /** Elements below this one (depth first) whose class list has `cls`. */
  all(cls: string): FakeElement[] {
    const out: FakeElement[] = [];
    for (const c of this.children) {
      if (c.className.split(' ').includes(cls)) out.push(c);
      out.push(...c.all(cls));
    }
    return out;
  }
}

export interface FakePage {
  document: { body: FakeElement; getElementById(id: string): FakeElement | null };
  elements: Record<string, FakeElement>;
  /** What the page posted to the extension. */
  posted: unknown[];
  state: unknown;
  /** A message from the extension to the page (as postMessage delivers it). */
  deliver(data: unknown): void;
  /** Runs what waits for the next frame and timers, until nothing is left. */
  flush(): void;
  /** The rows of the grid shown (not hidden), each as the text of its cells. */
  shownRows(): string[][];
}

const MEDIA = path.join(__dirname, '..', '..', 'media', 'changes');

/**
 * Runs the Before/After page's scripts (page.js, cells.js, table.js, in the page's order)
 * over a page whose section has `rows` data (`posted` or `embedded`), with body data `body`
 * and embedded JSON `json` (#wis-head / #wis-data) when given.
 */
export function runChangesPage(o: { body: Record<string, string>; rows: 'posted' | 'embedded'; json?: { head: string; data: string } }): FakePage {
  const elements: Record<string, FakeElement> = {};
  const make = (tag: string, id: string): FakeElement => (elements[id] = new FakeElement(tag));
  make('section', 'wis-changes').dataset.rows = o.rows;
  make('div', 'wis-grid');
  make('span', 'wis-shown').dataset.template = '-1 of -2 items';
  make('select', 'wis-filter').value = 'all';
  make('input', 'wis-search').value = '';
  make('tbody', 'wis-counts-body');
  make('ul', 'wis-lines');
  make('span', 'wis-status');
  if (o.json) {
    make('script', 'wis-head').textContent = o.json.head;
    make('script', 'wis-data').textContent = o.json.data;
  }
  const body = new FakeElement('body');
  Object.assign(body.dataset, o.body);
  const frames: (() => void)[] = [];
  const timers: (() => void)[] = [];
  const windowListeners: Record<string, ((e: { data: unknown }) => void)[]> = {};
  const page: FakePage = {
    document: { body, getElementById: (id) => elements[id] ?? null },
    elements,
    posted: [],
    state: undefined,
    deliver: (data) => {
      for (const h of windowListeners.message ?? []) h({ data });
    },
    flush: () => {
      for (let i = 0; i < 100 && (frames.length > 0 || timers.length > 0); i++) {
        for (const f of frames.splice(0)) f();
        for (const t of timers.splice(0)) t();
      }
    },
    shownRows: () =>
      elements['wis-grid']!.children[1]!.children.filter((r) => r.style.display !== 'none' && r.className.startsWith('wis-row')).map((r) => r.children.map((c) => c.textContent)),
  };
  const document = {
    ...page.document,
    readyState: 'complete',
    createElement: (tag: string) => new FakeElement(tag),
    querySelectorAll: () => [],
    addEventListener: () => undefined,
  };
  const window = { addEventListener: (type: string, h: (e: { data: unknown }) => void) => (windowListeners[type] ??= []).push(h) };
  const api = { setState: (s: unknown) => (page.state = s), postMessage: (m: unknown) => page.posted.push(m) };
  const source = ['page.js', 'cells.js', 'table.js'].map((f) => fs.readFileSync(path.join(MEDIA, f), 'utf8')).join('\n');
  new Function('document', 'window', 'acquireVsCodeApi', 'requestAnimationFrame', 'setTimeout', source)(
    document,
    window,
    () => api,
    (f: () => void) => frames.push(f),
    (f: () => void) => timers.push(f),
  );
  return page;
}
