// The in-cell editor's elements for a cell's editor (the extension's CellEditorSpec): a list of
// choices, or a text box. Dates are typed as the table shows them (yyyy-MM-dd) or in any form a
// paste accepts (2026/5/25, full-width digits: the extension parses the text as typed), with a
// small calendar button beside the box that opens the browser's date picker and writes the
// picked day back as yyyy-MM-dd. Numbers are text too (a number box would drop "50%" or
// full-width digits as empty).
import type { CellEditorSpec, TableStrings } from '../protocol';
import { choiceFor, pickerValue } from './virtual';

/** The editor's elements: `box` is what is placed over the cell, `el` holds the value. */
export interface EditorElements {
  box: HTMLElement;
  el: HTMLInputElement | HTMLSelectElement;
  /** Opened by typing on the cell (the typed text replaced the value). */
  typed: boolean;
}

/** A small calendar drawn in the text's color (no icon font or emoji needed). */
function calendarIcon(): SVGSVGElement {
  const NS = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '14');
  svg.setAttribute('height', '14');
  svg.setAttribute('aria-hidden', 'true');
  const parts: [string, Record<string, string>][] = [
    ['rect', { x: '1.5', y: '2.5', width: '13', height: '12', rx: '1.5' }],
    ['path', { d: 'M1.5 6.5h13M5 1v3M11 1v3' }],
    ['path', { d: 'M4 9h2M7 9h2M10 9h2M4 12h2M7 12h2' }],
  ];
  for (const [tag, attrs] of parts) {
    const el = document.createElementNS(NS, tag);
    for (const k of Object.keys(attrs)) el.setAttribute(k, attrs[k]!);
    el.setAttribute('fill', 'none');
    el.setAttribute('stroke', 'currentColor');
    svg.append(el);
  }
  return svg;
}

/** The editor's elements for `spec`; `typed`: the text typed on the focused cell that opened the editor (replaces the value). */
export function editorElements(spec: CellEditorSpec, strings: Pick<TableStrings, 'empty' | 'pickDate'>, typed: string | undefined): EditorElements {
  if (spec.kind === 'choice') {
    const sel = document.createElement('select');
    const choices = spec.choices ?? [];
    if (spec.allowEmpty || !choices.some((x) => x.value === spec.value)) {
      const o = document.createElement('option');
      o.value = '';
      o.textContent = strings.empty;
      sel.append(o);
    }
    for (const ch of choices) {
      const o = document.createElement('option');
      o.value = ch.value;
      o.textContent = ch.label;
      sel.append(o);
    }
    sel.value = spec.value;
    // Typed on the cell: the choice the text names (else the value stays).
    const picked = typed === undefined ? undefined : choiceFor(choices, typed);
    if (picked !== undefined) sel.value = picked;
    sel.className = 'cell-editor';
    return { box: sel, el: sel, typed: typed !== undefined };
  }
  const input = document.createElement('input');
  input.type = 'text';
  input.spellcheck = false;
  input.value = typed ?? spec.value;
  if (spec.kind === 'number') input.inputMode = 'decimal';
  if (spec.kind !== 'date') {
    input.className = 'cell-editor';
    return { box: input, el: input, typed: typed !== undefined };
  }
  input.placeholder = 'yyyy-MM-dd';
  input.className = 'date-text';
  const box = document.createElement('div');
  box.className = 'cell-editor date-editor';
  const pick = document.createElement('button');
  pick.type = 'button';
  pick.className = 'date-pick';
  pick.tabIndex = -1;
  pick.title = strings.pickDate || '';
  pick.setAttribute('aria-label', strings.pickDate || '');
  pick.append(calendarIcon());
  // The browser's picker, under the button (it must be in the page to open); its value goes to the text box.
  const picker = document.createElement('input');
  picker.type = 'date';
  picker.className = 'date-picker';
  picker.tabIndex = -1;
  picker.setAttribute('aria-hidden', 'true');
  // The text box keeps the focus while the button is pressed (a blur would commit).
  pick.addEventListener('mousedown', (e) => e.preventDefault());
  pick.addEventListener('click', () => {
    picker.value = pickerValue(input.value);
    try {
      picker.showPicker();
    } catch {
      picker.focus();
    }
  });
  picker.addEventListener('change', () => {
    if (picker.value) input.value = picker.value;
    input.focus();
    input.select();
  });
  box.append(input, pick, picker);
  return { box, el: input, typed: typed !== undefined };
}
