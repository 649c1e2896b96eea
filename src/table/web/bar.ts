// The work item table's bar: the filter box (at least as wide as its placeholder, growing with
// its text), Undo and Redo side by side, Review Changes, and the other actions, which stay in the
// bar while the bar is one row; those that do not fit go to the "…" menu, the least used first
// (virtual.ts itemsInBar decides). The bar is fitted again when the page is resized and when its
// texts change.
import type { BarCommand, FromWebview, TableStrings } from '../protocol';
import { itemsInBar } from './virtual';

let measure: CanvasRenderingContext2D | null = null;
/** The width of `text` in the font of `el`. */
function textWidth(el: HTMLElement, text: string): number {
  if (!measure) measure = document.createElement('canvas').getContext('2d');
  if (!measure) return text.length * 8;
  const cs = getComputedStyle(el);
  measure.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  return measure.measureText(text).width;
}

export interface Bar {
  filterInput: HTMLInputElement;
  undoBtn: HTMLButtonElement;
  redoBtn: HTMLButtonElement;
  setLowest(v: boolean): void;
}

/** An item of the bar: its element in the bar, its entry in the menu, and what it does. */
interface BarItem {
  bar: HTMLElement;
  menu: HTMLElement;
  run(): void;
}

export function buildBar(bar: HTMLElement, strings: TableStrings, filterText: string, lowestOnly: boolean, post: (m: FromWebview) => void): Bar {
  bar.textContent = '';
  const filterInput = document.createElement('input');
  filterInput.id = 'filter';
  filterInput.type = 'text';
  filterInput.spellcheck = false;
  filterInput.placeholder = strings.filterPlaceholder;
  filterInput.setAttribute('aria-label', strings.filterPlaceholder);
  filterInput.value = filterText;
  const button = (id: string, label: string, onClick: () => void): HTMLButtonElement => {
    const b = document.createElement('button');
    b.id = id;
    b.textContent = label;
    b.addEventListener('click', onClick);
    return b;
  };
  const undoBtn = button('undo', strings.undo, () => post({ type: 'undo' }));
  undoBtn.disabled = true;
  const redoBtn = button('redo', strings.redo, () => post({ type: 'redo' }));
  redoBtn.disabled = true;
  const review = button('review', strings.review, () => post({ type: 'command', name: 'review' }));

  const more = document.createElement('button');
  more.id = 'more';
  more.textContent = '…';
  more.title = strings.moreActions || '…';
  more.setAttribute('aria-label', strings.moreActions || '…');
  more.setAttribute('aria-haspopup', 'menu');
  more.setAttribute('aria-expanded', 'false');
  const menu = document.createElement('div');
  menu.id = 'more-menu';
  menu.setAttribute('role', 'menu');
  menu.hidden = true;

  const lowestBox = document.createElement('input');
  lowestBox.type = 'checkbox';
  const lowestItem = document.createElement('button');
  lowestItem.setAttribute('role', 'menuitemcheckbox');
  lowestItem.textContent = strings.lowestOnly;
  const setLowest = (v: boolean): void => {
    lowestBox.checked = v;
    lowestItem.setAttribute('aria-checked', String(v));
  };
  setLowest(lowestOnly);
  lowestBox.addEventListener('change', () => {
    setLowest(lowestBox.checked);
    post({ type: 'lowestOnly', value: lowestBox.checked });
  });
  const lowLabel = document.createElement('label');
  lowLabel.append(lowestBox, document.createTextNode(' ' + strings.lowestOnly));

  /** An action of the bar: its button in the bar and its entry in the menu. */
  const action = (label: string, name: BarCommand): BarItem => {
    const b = document.createElement('button');
    b.textContent = label;
    b.dataset.command = name;
    b.addEventListener('click', () => post({ type: 'command', name }));
    const item = document.createElement('button');
    item.setAttribute('role', 'menuitem');
    item.textContent = label;
    item.dataset.command = name;
    return { bar: b, menu: item, run: () => post({ type: 'command', name }) };
  };
  const cond = action(strings.build, 'build');
  const named = action(strings.named, 'named');
  const save = action(strings.save, 'save');
  const cols = action(strings.columns, 'columns');
  const low: BarItem = {
    bar: lowLabel,
    menu: lowestItem,
    run: () => {
      setLowest(!lowestBox.checked);
      post({ type: 'lowestOnly', value: lowestBox.checked });
    },
  };
  const use = action(strings.useInRequest, 'useInRequest');
  const exp = action(strings.exportCsv, 'export');
  const imp = action(strings.importCsv, 'import');
  const discard = action(strings.discard, 'discard');
  discard.bar.id = 'discard';
  const addRow = action(strings.addRow, 'addRow');
  const addSub = action(strings.addSubItem, 'addSubItem');
  const dup = action(strings.duplicateRows, 'duplicateRows');
  const pasteNew = action(strings.pasteNewItems, 'pasteNewItems');
  // The bar's order; the menu's order is the same.
  const inOrder = [cond, named, save, cols, low, addRow, addSub, dup, pasteNew, discard, use, exp, imp];
  // Most used first: the last ones go to the menu first.
  const byUse = [cond, named, cols, low, addRow, save, exp, imp, discard, addSub, use, dup, pasteNew];
  for (const o of inOrder) {
    menu.append(o.menu);
    o.menu.addEventListener('click', () => {
      close(true);
      o.run();
    });
  }
  bar.append(filterInput, cond.bar, named.bar, save.bar, cols.bar, low.bar, undoBtn, redoBtn, review, addRow.bar, addSub.bar, dup.bar, pasteNew.bar, discard.bar, use.bar, exp.bar, imp.bar, more, menu);

  const entries = (): HTMLElement[] => inOrder.map((o) => o.menu).filter((m) => !m.hidden);
  function open(): void {
    menu.hidden = false;
    more.setAttribute('aria-expanded', 'true');
    entries()[0]?.focus();
  }
  function close(refocus: boolean): void {
    if (menu.hidden) return;
    menu.hidden = true;
    more.setAttribute('aria-expanded', 'false');
    if (refocus) more.focus();
  }
  more.addEventListener('click', () => (menu.hidden ? open() : close(true)));
  menu.addEventListener('keydown', (e) => {
    const list = entries();
    const at = list.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      list[(at + (e.key === 'ArrowDown' ? 1 : list.length - 1)) % list.length]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') close(false);
  });
  document.addEventListener('mousedown', (e) => {
    const t = e.target as Node;
    if (!menu.hidden && !menu.contains(t) && t !== more) close(false);
  });

  /** The width the filter box needs: its placeholder, or its text while that is longer (up to 60 % of the bar). */
  function filterNeed(available: number): number {
    const cs = getComputedStyle(filterInput);
    const chrome = parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + parseFloat(cs.borderLeftWidth) + parseFloat(cs.borderRightWidth) + 8;
    const placeholder = textWidth(filterInput, filterInput.placeholder) + chrome;
    const text = textWidth(filterInput, filterInput.value) + chrome;
    return text > placeholder ? Math.max(placeholder, Math.min(text, available * 0.6)) : placeholder;
  }

  function fit(): void {
    for (const o of inOrder) {
      o.bar.hidden = false;
      o.menu.hidden = true;
    }
    more.hidden = false;
    const cs = getComputedStyle(bar);
    const gap = parseFloat(cs.columnGap) || 6;
    const available = bar.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    const need = filterNeed(available);
    filterInput.style.flexBasis = `${Math.ceil(need)}px`;
    const fixed = [undoBtn, redoBtn, review, more].reduce((n, el) => n + el.getBoundingClientRect().width + gap, 0);
    const kept = itemsInBar(
      available,
      fixed,
      need,
      byUse.map((o) => o.bar.getBoundingClientRect().width),
      gap,
    );
    byUse.forEach((o, i) => {
      o.bar.hidden = i >= kept;
      o.menu.hidden = i < kept;
    });
    more.hidden = kept === byUse.length;
    if (more.hidden) close(false);
    // Narrower than the fixed items and the filter's least width: the bar wraps rather than cut.
    bar.classList.toggle('wrap', fixed + Math.min(need, 200) > available);
  }

  let frame = 0;
  const refit = (): void => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      fit();
    });
  };
  filterInput.addEventListener('input', refit);
  new ResizeObserver(refit).observe(bar);
  refit();
  return { filterInput, undoBtn, redoBtn, setLowest };
}
