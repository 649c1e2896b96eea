// The "Preview" of a request document: the exact plan, as Markdown, without
// sending anything. No vscode import; every sentence comes from `PreviewStrings`
// (the UI passes localized ones).
import type { JobPlan, PlanPart } from '../../bulk/types';
import type { AddWorkItemRequest } from '../../schema/additions';

/** The items a part names: those it updates or deletes, or for an add the items it makes (its sub-items counted). */
function itemsOf(part: PlanPart): number {
  const count = (item: AddWorkItemRequest): number => 1 + (item.subItems ?? []).reduce((n, s) => n + count(s), 0);
  return part.kind === 'add' && part.add ? count(part.add.item) : part.ids.length;
}

export interface PreviewStrings {
  title(documentName: string): string;
  target(serviceLabel: string, baseUrl: string): string;
  /** "N items in K requests" */
  summary(items: number, requests: number): string;
  nothingSent: string;
  duplicates(count: number, ids: string): string;
  warningsHeading: string;
  bodyHeading: string;
  requestsHeading: string;
  request(index: number, total: number, items: number): string;
  /** A change set's request heading: "Request 2 of 3 in the document: 4 items (Status)". */
  part(index: number, total: number, items: number, description?: string): string;
  limits(maxIds: number, maxUrl: number): string;
  /** e.g. "and 12 more" */
  more(count: number): string;
}

/** English strings (tests, and the fallback shape of the localized ones). */
export const ENGLISH_PREVIEW: PreviewStrings = {
  title: (name) => `Preview of ${name}`,
  target: (label, baseUrl) => `Service: ${label} (${baseUrl})`,
  summary: (items, requests) => `${items} ${items === 1 ? 'item' : 'items'} in ${requests} ${requests === 1 ? 'request' : 'requests'}`,
  nothingSent: 'Nothing has been sent. Send the document to run these requests.',
  duplicates: (count, ids) => `${count} duplicate ${count === 1 ? 'entry is' : 'entries are'} sent once: ${ids}`,
  warningsHeading: 'Warnings',
  bodyHeading: 'Body (the same for every request)',
  requestsHeading: 'Requests',
  request: (index, total, items) => `Request ${index} of ${total}: ${items} ${items === 1 ? 'item' : 'items'}`,
  part: (index, total, items, description) => `Request ${index} of ${total} in the document: ${items} ${items === 1 ? 'item' : 'items'}${description ? ` (${description})` : ''}`,
  limits: (maxIds, maxUrl) => `Split into requests of at most ${maxIds} IDs and at most ${maxUrl} characters of URL.`,
  more: (count) => `and ${count} more`,
};

/** A fence that the text cannot close early. */
function fence(text: string, lang = ''): string {
  let ticks = '```';
  while (text.includes(ticks)) ticks += '`';
  return `${ticks}${lang}\n${text}\n${ticks}`;
}

function listSome(values: readonly string[], max: number, s: PreviewStrings): string {
  const shown = values.slice(0, max).join(', ');
  return values.length > max ? `${shown} ${s.more(values.length - max)}` : shown;
}

export interface PreviewInput {
  documentName: string;
  serviceLabel: string;
  plan: JobPlan;
  /** Warnings of the document check (already sentences). */
  documentWarnings: readonly string[];
}

/** The preview text: target, totals, warnings (duplicates first), the body, and every request's method and URL. */
export function renderPreview(input: PreviewInput, s: PreviewStrings = ENGLISH_PREVIEW): string {
  const { plan } = input;
  const out: string[] = [];
  out.push(`# ${s.title(input.documentName)}`, '');
  out.push(s.target(input.serviceLabel, plan.baseUrl), '');
  const added = plan.parts.reduce((n, p) => n + (p.kind === 'add' ? itemsOf(p) : 0), 0);
  out.push(`**${s.summary(plan.ids.length + added, plan.requests.length)}**. ${s.limits(plan.maxIdsPerRequest, plan.maxUrlLength)}`, '');
  out.push(`_${s.nothingSent}_`, '');
  const warnings: string[] = [];
  if (plan.duplicates.length > 0) {
    const dropped = plan.warnings.find((w) => w.code === 'duplicate-ids')?.count ?? plan.duplicates.length;
    warnings.push(s.duplicates(dropped, listSome(plan.duplicates, 20, s)));
  }
  warnings.push(...input.documentWarnings);
  if (warnings.length > 0) {
    out.push(`## ${s.warningsHeading}`, '');
    for (const w of warnings) out.push(`- ${w.replace(/\n/g, ' ')}`);
    out.push('');
  }
  const base = plan.baseUrl.replace(/\/+$/, '');
  plan.parts.forEach((part, k) => {
    // A change set: each request of the document with its body, then its batches.
    if (plan.parts.length > 1) out.push(`## ${s.part(k + 1, plan.parts.length, itemsOf(part), part.description)}`, '');
    // An add sends its item (with its sub-items) in one POST; a delete sends no body.
    const body = part.kind === 'add' ? (part.add?.item ?? {}) : part.kind === 'delete' ? undefined : part.update;
    if (body !== undefined) out.push(`${plan.parts.length > 1 ? '###' : '##'} ${s.bodyHeading}`, '', fence(JSON.stringify(body, null, 2), 'json'), '');
    out.push(`${plan.parts.length > 1 ? '###' : '##'} ${s.requestsHeading}`, '');
    const method = part.kind === 'add' ? 'POST' : part.kind === 'delete' ? 'DELETE' : 'PUT';
    for (const r of plan.requests) {
      if ((r.part ?? 0) !== k) continue;
      out.push(`${plan.parts.length > 1 ? '####' : '###'} ${s.request(r.index + 1, plan.requests.length, part.kind === 'add' ? itemsOf(part) : r.ids.length)}`, '', fence(`${method} ${base}${r.path}`, 'http'), '');
    }
  });
  return out.join('\n');
}
