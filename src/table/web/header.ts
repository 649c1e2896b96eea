// The table's column headers: the label (with the sort mark), the full header, system name and
// what a click does on hover; a click sorts, a drag moves the column before another, the edge
// resizes it (the new width told when the drag ends).
import type { ColumnInfo, FromWebview } from '../protocol';
import { headerLabel, type Sort } from './rowView';

export function buildHeader(
  header: HTMLElement,
  spacer: HTMLElement,
  columns: ColumnInfo[],
  sort: Sort,
  sortHint: string,
  post: (m: FromWebview) => void,
  resized: () => void,
): void {
  header.textContent = '';
  header.setAttribute('aria-rowindex', '1');
  columns.forEach((c, i) => {
    const h = document.createElement('div');
    h.className = `hcell ${c.type}`;
    h.setAttribute('role', 'columnheader');
    h.setAttribute('aria-colindex', String(i + 1));
    h.style.width = `${c.width}px`;
    // The full header (cut when the column is narrow), its system name, and what a click does.
    h.title = `${c.label === c.key ? c.label : `${c.label} (${c.key})`}\n${sortHint}`;
    h.draggable = true;
    h.dataset.key = c.key;
    const label = document.createElement('span');
    label.className = 'label';
    const l = headerLabel(c, sort);
    label.textContent = l.text;
    h.setAttribute('aria-sort', l.ariaSort);
    h.append(label);
    h.addEventListener('click', (e) => {
      if ((e.target as HTMLElement).classList.contains('resizer')) return;
      post({ type: 'sort', key: c.key });
    });
    h.addEventListener('dragstart', (e) => e.dataTransfer?.setData('text/x-column', c.key));
    h.addEventListener('dragover', (e) => e.preventDefault());
    h.addEventListener('drop', (e) => {
      e.preventDefault();
      const key = e.dataTransfer ? e.dataTransfer.getData('text/x-column') : '';
      if (key && key !== c.key) post({ type: 'reorder', key, before: c.key });
    });
    const resizer = document.createElement('div');
    resizer.className = 'resizer';
    resizer.draggable = false;
    resizer.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      e.stopPropagation();
      resizer.setPointerCapture(e.pointerId);
      const x0 = e.clientX;
      const w0 = c.width;
      const move = (m: PointerEvent): void => {
        c.width = Math.max(40, Math.min(1200, w0 + m.clientX - x0));
        h.style.width = `${c.width}px`;
        resized();
      };
      const up = (): void => {
        resizer.removeEventListener('pointermove', move);
        resizer.removeEventListener('pointerup', up);
        post({ type: 'resize', key: c.key, width: c.width });
      };
      resizer.addEventListener('pointermove', move);
      resizer.addEventListener('pointerup', up);
    });
    h.append(resizer);
    header.append(h);
  });
  spacer.style.width = `${columns.reduce((n, c) => n + c.width, 0)}px`;
}
