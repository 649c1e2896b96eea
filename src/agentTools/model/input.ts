// The inputs of the language model tools, checked before anything is read or opened: an
// agent writes them, so every problem is named (the member and what was wrong with it)
// in a sentence the agent can act on. No vscode import; IDs are checked as every read
// checks them (src/api/paths.ts validateWorkItemIdForPath, through core()).
import { core } from '../../core/load';

/** The most items one find answers (its `maxResults` is capped here). */
export const MAX_FIND_RESULTS = 200;
/** The items one find answers when `maxResults` is not given. */
export const DEFAULT_FIND_RESULTS = 50;
/** The most IDs one read takes. */
export const MAX_READ_IDS = 200;
/** The longest filter text a find takes (the filter bar's own limit is the text's problems, not its length). */
export const MAX_FILTER_LENGTH = 2000;
/** The most field names one read asks for. */
export const MAX_READ_FIELDS = 100;

export type Checked<T> = { ok: true; value: T } | { ok: false; problems: string[] };

export interface FindInput {
  /** The project whose items are searched (its root folder's subtree), or… */
  projectId?: string;
  /** …the folder (or work item) whose sub-items are searched. */
  folderId?: string;
  filter: string;
  maxResults: number;
}

export interface ReadInput {
  ids: string[];
  fields?: string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v);

/** An ID as an agent may write it (a string, or a whole number), checked as a read checks it. */
function readId(v: unknown, where: string, problems: string[]): string | undefined {
  const id = typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? String(v) : v;
  if (typeof id !== 'string') {
    problems.push(`${where}: expected an ID (a string such as "121"), got ${kindOf(v)}`);
    return undefined;
  }
  const bad = core().validateWorkItemIdForPath(id.trim());
  if (bad !== undefined) {
    problems.push(`${where}: ${bad}`);
    return undefined;
  }
  return id.trim();
}

function unknownMembers(input: Record<string, unknown>, known: readonly string[], problems: string[]): void {
  for (const k of Object.keys(input)) if (!known.includes(k)) problems.push(`unknown member "${k}" (the members are ${known.join(', ')})`);
}

/** The input of workItemStudio_findWorkItems: one of projectId and folderId, a filter text, a cap. */
export function checkFindInput(input: unknown): Checked<FindInput> {
  if (!isObject(input)) return { ok: false, problems: [`the input must be an object with "projectId" or "folderId" and "filter", got ${kindOf(input)}`] };
  const problems: string[] = [];
  unknownMembers(input, ['projectId', 'folderId', 'filter', 'maxResults'], problems);
  const hasProject = input['projectId'] !== undefined && input['projectId'] !== '';
  const hasFolder = input['folderId'] !== undefined && input['folderId'] !== '';
  if (hasProject === hasFolder) problems.push(hasProject ? 'give either "projectId" or "folderId", not both' : 'give "projectId" (a project\'s ID, e.g. "3001") or "folderId" (a folder\'s work item ID)');
  const projectId = hasProject ? readId(input['projectId'], 'projectId', problems) : undefined;
  const folderId = hasFolder ? readId(input['folderId'], 'folderId', problems) : undefined;
  const filter = input['filter'] ?? '';
  if (typeof filter !== 'string') problems.push(`filter: expected the filter text (e.g. "status:完了 leader:suzuki"), got ${kindOf(filter)}`);
  else if (filter.length > MAX_FILTER_LENGTH) problems.push(`filter: at most ${MAX_FILTER_LENGTH} characters (this one has ${filter.length})`);
  const max = input['maxResults'] ?? DEFAULT_FIND_RESULTS;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_FIND_RESULTS) {
    problems.push(`maxResults: expected a whole number from 1 to ${MAX_FIND_RESULTS}, got ${typeof max === 'number' ? String(max) : kindOf(max)}`);
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { ...(projectId ? { projectId } : {}), ...(folderId ? { folderId } : {}), filter: filter as string, maxResults: max as number } };
}

/** The input of workItemStudio_readWorkItems: up to MAX_READ_IDS IDs (a list, or one string of IDs), optional field names. */
export function checkReadInput(input: unknown): Checked<ReadInput> {
  if (!isObject(input)) return { ok: false, problems: [`the input must be an object with "ids", got ${kindOf(input)}`] };
  const problems: string[] = [];
  unknownMembers(input, ['ids', 'fields'], problems);
  const raw = input['ids'];
  const list: unknown[] = typeof raw === 'string' ? core().parseWorkItemIds(raw) : Array.isArray(raw) ? raw : [];
  if (typeof raw !== 'string' && !Array.isArray(raw)) problems.push(`ids: expected a list of work item IDs (e.g. ["121", "122"]), got ${kindOf(raw)}`);
  else if (list.length === 0) problems.push('ids: give at least one work item ID');
  else if (list.length > MAX_READ_IDS) problems.push(`ids: at most ${MAX_READ_IDS} IDs per call (got ${list.length}); read them in several calls`);
  const ids: string[] = [];
  if (list.length <= MAX_READ_IDS) {
    list.forEach((v, i) => {
      const id = readId(v, `ids[${i}]`, problems);
      if (id !== undefined && !ids.includes(id)) ids.push(id);
    });
  }
  let fields: string[] | undefined;
  const f = input['fields'];
  if (f !== undefined) {
    if (!Array.isArray(f) || f.some((x) => typeof x !== 'string' || !/^[A-Za-z_][A-Za-z0-9_.]*$/.test(x))) {
      problems.push('fields: expected a list of field system names (e.g. ["Name", "StatusTypeId", "PlannedFinishDate"])');
    } else if (f.length > MAX_READ_FIELDS) {
      problems.push(`fields: at most ${MAX_READ_FIELDS} names`);
    } else if (f.length > 0) {
      fields = [...new Set(f as string[])];
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { ids, ...(fields ? { fields } : {}) } };
}

/** The input of workItemStudio_draftRequestDocument: the document (an object, or its JSON text) and an optional file name. */
export interface DraftInput {
  /** The document's JSON text: the agent's text as given, or its object written out. */
  text: string;
  baseName: string;
}

/** A base name for the untitled file: letters, digits, "-" and "_", at most 40 characters. */
export function draftBaseName(name: unknown): string {
  const cleaned = typeof name === 'string' ? name.replace(/\.workitems\.json$/i, '').replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 40) : '';
  return cleaned === '' ? 'agent-draft' : cleaned;
}

export function checkDraftInput(input: unknown): Checked<DraftInput> {
  if (!isObject(input)) return { ok: false, problems: [`the input must be an object with "document", got ${kindOf(input)}`] };
  const problems: string[] = [];
  unknownMembers(input, ['document', 'name'], problems);
  const doc = input['document'];
  let text = '';
  if (typeof doc === 'string') {
    if (doc.trim() === '') problems.push('document: the request document is empty');
    text = doc;
  } else if (isObject(doc)) {
    text = `${JSON.stringify(doc, null, 2)}\n`;
  } else {
    problems.push(`document: expected the request document as a JSON object (e.g. {"workItemIds": ["121"], "update": {"moveScheduleDays": 7}}), got ${kindOf(doc)}`);
  }
  if (input['name'] !== undefined && typeof input['name'] !== 'string') problems.push(`name: expected a short file name, got ${kindOf(input['name'])}`);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, value: { text, baseName: draftBaseName(input['name']) } };
}
