// Checks of an update body before it is sent: shapes (the strict zod model in
// api.ts, with its issues translated into readable DocumentIssues) and every
// cross-member rule the client can check (service-api.md rules and errors,
// known-facts.md). Each problem is reported on the exact member's JSON path.
import type { z } from 'zod';
import {
  AssignmentAdd,
  AssignmentChange,
  AssignmentUpdate,
  ORDER_MEMBERS,
  PropagateToChildrenField,
  UpdateWorkItemsBody,
} from './api';
import { type ErrorCode, type MessageParams } from './error-codes';
import { DateOnly, FIELD_VALUE_MODELS } from './field-values';
import { CODE_MAX_LENGTH, FORMULA_CALC_TYPE, NAME_MAX_LENGTH, caseMismatch, fieldInfo, officialFieldName, type FieldInfo } from './fields';
import { type DocumentIssue, type JsonPath, describeValue, formatJsonPath, hasErrors, makeIssue } from './issues';
import { keepOwnKeys, setOwn } from './ownKeys';
import type { FieldType } from './catalogue';
import { serviceCaseMismatch, serviceFieldValueProblems, type ServiceFieldCatalogue } from './service-fields';
import { markChecked } from './checked';

// ---------------------------------------------------------------------------
// Work item IDs
// ---------------------------------------------------------------------------

export interface WorkItemIdProblem {
  code: ErrorCode;
  params: MessageParams;
}

function displayId(id: string): string {
  const shown = id.replace(/[\p{Cc}\p{Cf}]|[\ud800-\udfff]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return shown.length > 40 ? `${shown.slice(0, 37)}...` : shown;
}

/** Longest work item ID accepted (the same bound as src/api/paths.ts; real IDs are far shorter). */
export const WORK_ITEM_ID_MAX_LENGTH = 200;

const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/u;
const WHITESPACE = /[\s\u180e\u200b]/u;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The problem with a (trimmed) work item ID, or undefined when it may be used in
 * a request path. The same rules as the client's path builder (src/api/paths.ts
 * `validateId`): rejects empty IDs, more than {@link WORK_ITEM_ID_MAX_LENGTH}
 * characters, `.` and `..`, `/`, `\`, `,` (commas separate IDs in one path
 * segment), `%`, `?`, `#`, control and invisible formatting characters,
 * whitespace, and malformed Unicode.
 */
export function workItemIdProblem(id: string): WorkItemIdProblem | undefined {
  const params = { id: displayId(id) };
  if (id.length === 0) return { code: 'ID_EMPTY', params };
  if (id.length > WORK_ITEM_ID_MAX_LENGTH) {
    return { code: 'ID_TOO_LONG', params: { ...params, length: id.length, max: WORK_ITEM_ID_MAX_LENGTH } };
  }
  if (id === '.' || id === '..') return { code: 'ID_DOT_SEGMENT', params };
  if (/[/\\]/.test(id)) return { code: 'ID_SLASH', params };
  if (id.includes(',')) return { code: 'ID_COMMA', params };
  if (id.includes('%')) return { code: 'ID_PERCENT', params };
  if (id.includes('?') || id.includes('#')) return { code: 'ID_QUERY_CHARACTER', params };
  if (CONTROL_OR_FORMAT.test(id)) return { code: 'ID_CONTROL_CHARACTER', params };
  if (WHITESPACE.test(id)) return { code: 'ID_WHITESPACE', params };
  if (LONE_SURROGATE.test(id)) return { code: 'ID_MALFORMED_UNICODE', params };
  return undefined;
}

/** The problem text for a work item ID, or undefined when it is valid (same shape as api/paths.ts `validateId`). */
export function validateWorkItemId(id: string): string | undefined {
  const p = workItemIdProblem(id);
  return p ? makeIssue(p.code, [], p.params).message : undefined;
}

// ---------------------------------------------------------------------------
// Member-name normalization (capitalised names such as `Adds`, `PartyId`)
// ---------------------------------------------------------------------------

/** Member names of an object in the update body, and which members hold nested objects or lists of objects. */
export interface MemberTree {
  readonly keys: readonly string[];
  readonly objects: Readonly<Record<string, MemberTree>>;
  readonly arrays: Readonly<Record<string, MemberTree>>;
}

function keysOf(schema: { shape: Record<string, unknown> }): string[] {
  return Object.keys(schema.shape);
}

export const ADD_NODE: MemberTree = { keys: keysOf(AssignmentAdd), objects: {}, arrays: {} };
const UPDATE_NODE: MemberTree = { keys: keysOf(AssignmentUpdate), objects: {}, arrays: {} };
const CHANGE_NODE: MemberTree = {
  keys: keysOf(AssignmentChange),
  objects: {},
  arrays: { adds: ADD_NODE, updates: UPDATE_NODE },
};
const PROPAGATE_NODE: MemberTree = { keys: keysOf(PropagateToChildrenField), objects: {}, arrays: {} };
/** The update body's member tree, from the zod models in api.ts. */
export const UPDATE_BODY_MEMBERS: MemberTree = {
  keys: keysOf(UpdateWorkItemsBody),
  objects: { assignmentChange: CHANGE_NODE, propagateToChildren: PROPAGATE_NODE },
  arrays: {},
};

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Maps paths in the normalized body back to the member names the user wrote. */
export class Renames {
  private readonly map = new Map<string, string>();
  add(normalizedPath: JsonPath, original: string): void {
    this.map.set(JSON.stringify(normalizedPath), original);
  }
  toOriginal(path: JsonPath): JsonPath {
    const out: JsonPath = [];
    for (let i = 0; i < path.length; i++) {
      const seg = path[i]!;
      out.push(typeof seg === 'string' ? (this.map.get(JSON.stringify(path.slice(0, i + 1))) ?? seg) : seg);
    }
    return out;
  }
}

function normalizeObject(value: unknown, node: MemberTree, path: JsonPath, issues: DocumentIssue[], renames: Renames): unknown {
  if (!isPlainObject(value)) return value;
  const exact = new Set(Object.keys(value).filter((k) => node.keys.includes(k)));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    let name = key;
    if (!exact.has(key)) {
      const canonical = node.keys.find((k) => k.toLowerCase() === key.toLowerCase());
      if (canonical !== undefined) {
        if (Object.prototype.hasOwnProperty.call(out, canonical) || exact.has(canonical)) {
          issues.push(makeIssue('MEMBER_DUPLICATE', renames.toOriginal([...path, key]), { member: key, expected: canonical }));
          continue;
        }
        issues.push(
          makeIssue('MEMBER_NAME_CASE', renames.toOriginal([...path, key]), { member: key, expected: canonical }, {
            fix: { kind: 'rename-member', to: canonical },
          }),
        );
        renames.add([...path, canonical], key);
        name = canonical;
      }
    }
    const childPath = [...path, name];
    const objectNode = node.objects[name];
    const arrayNode = node.arrays[name];
    // setOwn: a member named `__proto__` stays a member (an assignment would drop it).
    if (objectNode) setOwn(out, name, normalizeObject(v, objectNode, childPath, issues, renames));
    else if (arrayNode && Array.isArray(v)) setOwn(out, name, v.map((e, i) => normalizeObject(e, arrayNode, [...childPath, i], issues, renames)));
    else setOwn(out, name, v);
  }
  return out;
}

export interface NormalizedBody {
  /** The body with capitalised member names renamed to camelCase (other values untouched). */
  body: unknown;
  /** One warning per renamed member (with a rename fix), one error per member given twice. */
  issues: DocumentIssue[];
}

/**
 * Renames members written with other capitalisation (`Adds`, `PartyId`,
 * `MoveScheduleDays`, ...) to the camelCase the service documents, anywhere in
 * the body. The `fields` and `fieldCalcTypes` maps are left alone (field names
 * are case-sensitive). Issue paths use the names as written, under `basePath`.
 */
export function normalizeUpdateBody(body: unknown, basePath: JsonPath = []): NormalizedBody {
  const r = normalizeWithRenames(body);
  return { body: r.body, issues: r.issues.map((i) => ({ ...i, path: [...basePath, ...i.path] })) };
}

function normalizeWithRenames(body: unknown): { body: unknown; issues: DocumentIssue[]; renames: Renames } {
  const issues: DocumentIssue[] = [];
  const renames = new Renames();
  const normalized = normalizeObject(body, UPDATE_BODY_MEMBERS, [], issues, renames);
  return { body: normalized, issues, renames };
}

// ---------------------------------------------------------------------------
// zod issues -> DocumentIssues
// ---------------------------------------------------------------------------

const EXPECTED_TEXT: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  record: 'an object',
};

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const seg of path) {
    if (Array.isArray(v) && typeof seg === 'number') v = v[seg];
    else if (isPlainObject(v) && typeof seg === 'string') v = v[seg];
    else return undefined;
  }
  return v;
}

function objectNodeAt(path: readonly PropertyKey[], root: MemberTree): MemberTree | undefined {
  let node: MemberTree | undefined = root;
  for (let i = 0; i < path.length && node; i++) {
    const seg = path[i];
    if (typeof seg === 'number') continue;
    if (typeof seg !== 'string') return undefined;
    const n: MemberTree = node;
    node = n.objects[seg] ?? n.arrays[seg];
  }
  return node;
}

function levenshtein(a: string, b: string): number {
  const d: number[] = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = d[j]!;
      d[j] = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return d[b.length]!;
}

function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const dist = levenshtein(name.toLowerCase(), c.toLowerCase());
    if (dist < bestDistance) {
      best = c;
      bestDistance = dist;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 4)) ? best : undefined;
}

function whereText(relPath: JsonPath): string {
  return relPath.length === 0 ? 'the update' : formatJsonPath(relPath);
}

/** A zod issue of a body as the document's issues (`root`: the body's members, for "did you mean"). */
export function translateZodIssue(zi: z.core.$ZodIssue, body: unknown, renames: Renames, root: MemberTree = UPDATE_BODY_MEMBERS): DocumentIssue[] {
  const rel = zi.path.filter((s): s is string | number => typeof s !== 'symbol');
  const orig = renames.toOriginal(rel);
  const member = formatJsonPath(orig);
  const value = valueAt(body, rel);
  switch (zi.code) {
    case 'unrecognized_keys': {
      const node = objectNodeAt(rel, root);
      const allowed = node ? node.keys : [];
      return zi.keys.map((key) => {
        const where = whereText(orig);
        const suggestion = closest(key, allowed);
        return suggestion
          ? makeIssue('UNKNOWN_MEMBER_DID_YOU_MEAN', [...orig, key], { member: key, where, expected: suggestion }, {
              fix: { kind: 'rename-member', to: suggestion },
            })
          : makeIssue('UNKNOWN_MEMBER', [...orig, key], { member: key, where, allowed: allowed.join(', ') });
      });
    }
    case 'invalid_type': {
      if (value === undefined) {
        const parent = orig.slice(0, -1);
        const last = String(orig[orig.length - 1]);
        if (rel.length === 4 && rel[0] === 'assignmentChange' && rel[1] === 'updates' && rel[3] === 'user') {
          return [makeIssue('ASSIGNMENT_USER_REQUIRED', parent, {})];
        }
        return [makeIssue('MEMBER_REQUIRED', parent, { member: last, where: whereText(parent) })];
      }
      if (zi.expected === 'int' && typeof value === 'number') {
        return [makeIssue('NOT_INTEGER', orig, { member, actual: describeValue(value) })];
      }
      const expected = EXPECTED_TEXT[zi.expected] ?? zi.expected;
      return [makeIssue('WRONG_TYPE', orig, { member, expected, actual: describeValue(value) })];
    }
    case 'invalid_value':
      return [
        makeIssue(
          'INVALID_VALUE',
          orig,
          { member, allowed: zi.values.map((v) => JSON.stringify(v)).join(' or '), actual: describeValue(value) },
        ),
      ];
    case 'too_small':
      if (rel[0] === 'assignmentChange' && rel[1] === 'removeUsers') return []; // reported by the removeUsers rule
      if (typeof value === 'string') return [makeIssue('VALUE_EMPTY', orig, { member })];
      return [makeIssue('VALUE_OUT_OF_RANGE', orig, { member, range: `${zi.minimum} or more`, actual: describeValue(value) })];
    case 'too_big':
      return [makeIssue('VALUE_OUT_OF_RANGE', orig, { member, range: `${zi.maximum} or less`, actual: describeValue(value) })];
    default:
      return [makeIssue('WRONG_TYPE', orig, { member, expected: 'a valid value', actual: describeValue(value) })];
  }
}

// ---------------------------------------------------------------------------
// Cross-member rules (on the normalized body; paths are body-relative, normalized)
// ---------------------------------------------------------------------------

export type Emit = (code: ErrorCode, path: JsonPath, params?: MessageParams, extra?: Parameters<typeof makeIssue>[3]) => void;

const ID_MEMBERS = ['moveParentTo', 'changeItemTypeTo', 'restoreToParent', 'copyAssignmentsFrom', 'orderBefore', 'orderAfter'] as const;

function checkOrdering(b: Record<string, unknown>, emit: Emit): void {
  const given = Object.keys(b).filter((k): k is (typeof ORDER_MEMBERS)[number] =>
    (ORDER_MEMBERS as readonly string[]).includes(k) && b[k] !== undefined,
  );
  const first = given[0];
  for (const extra of given.slice(1)) emit('ORDER_MULTIPLE', [extra], { member: extra, other: first! });
  if (b.moveParentTo === undefined) for (const m of given) emit('ORDER_WITHOUT_PARENT', [m], { member: m });
}

function checkRestore(b: Record<string, unknown>, emit: Emit): void {
  if (b.restore !== true) return;
  for (const k of Object.keys(b)) {
    if (k === 'restore' || k === 'restoreToParent' || b[k] === undefined) continue;
    emit('RESTORE_IGNORES_MEMBER', [k], { member: k });
  }
}

function checkIdMembers(b: Record<string, unknown>, emit: Emit): void {
  for (const m of ID_MEMBERS) {
    const v = b[m];
    if (typeof v === 'string' && v.trim() === '') emit('VALUE_EMPTY', [m], { member: m });
  }
}

/** What the checks know about one field: the built-in official field and/or the service's own description. */
interface KnownField {
  builtin?: FieldInfo;
  service?: FieldType;
}

/** The field names a check knows: the connected service's catalogue (when read) and the built-in official fields. */
export interface FieldNames {
  catalogue?: ServiceFieldCatalogue;
}

function knownField(name: string, names: FieldNames): KnownField | undefined {
  const builtin = fieldInfo(name);
  const service = names.catalogue?.fields.get(name);
  if (!builtin && !service) return undefined;
  const k: KnownField = {};
  if (builtin) k.builtin = builtin;
  if (service) k.service = service;
  return k;
}

/** Read only: as the service says when it describes the field, else as the built-in list says. */
function isReadOnly(k: KnownField): boolean {
  if (k.service && k.service.isReadOnly != null) return k.service.isReadOnly;
  return k.builtin ? !k.builtin.editable : false;
}

/** The correction of a name (an old name or a name in the wrong case), or undefined. */
function correctedName(name: string, names: FieldNames): string | undefined {
  if (knownField(name, names)) return undefined;
  return officialFieldName(name) ?? caseMismatch(name)?.name ?? (names.catalogue ? serviceCaseMismatch(names.catalogue, name)?.systemName : undefined);
}

/**
 * Name checks shared by every member that names fields; returns the known field when the name is exact.
 * An old name (StartDate, EndDate, WorkCategoryId) is an error with a rename to the official
 * name, unless the connected service itself describes a field of that name.
 */
function checkFieldName(name: string, path: JsonPath, emit: Emit, names: FieldNames, fixAsValue?: (corrected: string) => string, allFixed?: string) {
  const known = knownField(name, names);
  if (known) return known;
  const fix = (to: string) =>
    fixAsValue ? ({ kind: 'replace-value', to: fixAsValue(to), ...(allFixed !== undefined ? { all: allFixed } : {}) } as const) : ({ kind: 'rename-member', to } as const);
  const official = officialFieldName(name);
  if (official) {
    emit('FIELD_OLD_NAME', path, { field: name, expected: official, where: formatJsonPath(fixAsValue ? path : path.slice(0, -1)) }, { fix: fix(official) });
    return undefined;
  }
  const mismatch = caseMismatch(name)?.name ?? (names.catalogue ? serviceCaseMismatch(names.catalogue, name)?.systemName : undefined);
  if (mismatch) {
    emit('FIELD_NAME_CASE', path, { field: name, expected: mismatch }, { fix: fix(mismatch) });
  } else if (names.catalogue) {
    emit('FIELD_UNKNOWN_TO_SERVICE', path, { field: name });
  } else {
    emit('FIELD_UNKNOWN', path, { field: name });
  }
  return undefined;
}

/** Kinds of built-in fields that may be empty (null); numbers, progress and the name may not. */
const EMPTIABLE_KINDS: ReadonlySet<string> = new Set(['date', 'id', 'userId', 'string']);

function checkFieldValue(name: string, known: KnownField, value: unknown, path: JsonPath, emit: Emit): void {
  if (!known.builtin) {
    // A field only the service describes (a custom field): its data type and range.
    for (const p of serviceFieldValueProblems(known.service!, value)) emit(p.code, path, p.params);
    return;
  }
  if (name === 'Name') {
    if (typeof value !== 'string') emit('FIELD_VALUE_TYPE', path, { field: name, expected: 'a string', actual: describeValue(value) });
    else if (value.trim() === '') emit('NAME_EMPTY', path);
    else if (value.length > NAME_MAX_LENGTH) emit('NAME_TOO_LONG', path, { length: value.length, max: NAME_MAX_LENGTH });
    return;
  }
  if (name === 'Code') {
    if (value === null) return; // no code (as the reads may return it)
    if (typeof value !== 'string') emit('FIELD_VALUE_TYPE', path, { field: name, expected: 'a string', actual: describeValue(value) });
    else if (value.length > CODE_MAX_LENGTH) emit('CODE_TOO_LONG', path, { length: value.length, max: CODE_MAX_LENGTH });
    return;
  }
  const m = FIELD_VALUE_MODELS.get(name);
  if (!m) return;
  // null empties a field that may be empty (no leader, no date, no classification, no text), as the
  // reads return such a field: an undo puts back an empty value so.
  if (value === null && EMPTIABLE_KINDS.has(known.builtin.kind)) return;
  const r = m.schema.safeParse(value);
  if (r.success) return;
  const zi = r.error.issues[0]!;
  const actual = describeValue(value);
  if (zi.code === 'too_small' || zi.code === 'too_big') {
    if (typeof value === 'string') emit('VALUE_EMPTY', path, { member: formatJsonPath(['fields', name]) });
    else emit('FIELD_VALUE_RANGE', path, { field: name, range: m.range ?? 'in range', actual });
  } else if (zi.code === 'invalid_format') emit('FIELD_DATE_FORMAT', path, { field: name, actual });
  else emit('FIELD_VALUE_TYPE', path, { field: name, expected: m.expected, actual });
}

export function checkFields(b: Record<string, unknown>, emit: Emit, names: FieldNames): void {
  const fields = b.fields;
  if (!isPlainObject(fields)) return;
  for (const [name, value] of Object.entries(fields)) {
    const path = ['fields', name];
    const known = checkFieldName(name, path, emit, names);
    if (!known) continue;
    if (isReadOnly(known)) {
      emit('FIELD_NOT_EDITABLE', path, { field: name });
      continue;
    }
    checkFieldValue(name, known, value, path, emit);
  }
  const start = fields.PlannedStartDate;
  const end = fields.PlannedFinishDate; // only strings are parsed as dates (each value that fails makes an error object)
  if (typeof start === 'string' && typeof end === 'string' && DateOnly.safeParse(start).success && DateOnly.safeParse(end).success && end < start) {
    emit('END_BEFORE_START', ['fields', 'PlannedFinishDate'], { start: start as string, end: end as string });
  }
}

export function checkCalcTypes(b: Record<string, unknown>, emit: Emit, names: FieldNames): void {
  const calc = b.fieldCalcTypes;
  if (!isPlainObject(calc)) return;
  for (const [name, value] of Object.entries(calc)) {
    const path = ['fieldCalcTypes', name];
    const known = checkFieldName(name, path, emit, names);
    if (known && isReadOnly(known)) {
      emit('FIELD_NOT_EDITABLE', path, { field: name });
      continue;
    }
    if (typeof value !== 'string') continue; // a shape error
    if (value.toLowerCase() === FORMULA_CALC_TYPE.toLowerCase()) {
      emit('CALC_TYPE_FORMULA', path, { field: name });
    } else if (known && !(known.builtin?.calcTypes ?? []).includes(value)) {
      emit('CALC_TYPE_UNKNOWN', path, { field: name, value, allowed: known.builtin?.calcTypes?.join(', ') || 'none' });
    }
  }
}

/** Checks a comma-separated list of field names (clearFieldCalcTypes, propagateToChildren.fields). */
function checkFieldNameList(value: unknown, path: JsonPath, emit: Emit, propagate: boolean, names: FieldNames): void {
  if (typeof value !== 'string') return;
  const member = formatJsonPath(path);
  if (value.trim() === '') {
    emit('VALUE_EMPTY', path, { member }, { severity: 'warning' });
    return;
  }
  const parts = value.split(',').map((s) => s.trim());
  if (parts.some((p) => p === '')) emit('LIST_EMPTY_ENTRY', path, { member });
  const listed = parts.filter((p) => p !== '');
  // The list with every sure correction made (old names, names in the wrong case): "fix all" writes it once.
  const allFixed = listed.map((n) => correctedName(n, names) ?? n).join(',');
  listed.forEach((name, i) => {
    const fix = (corrected: string) => listed.map((n, j) => (j === i ? corrected : n)).join(',');
    const known = checkFieldName(name, path, emit, names, fix, allFixed);
    if (!known) return;
    if (isReadOnly(known)) emit('FIELD_NOT_EDITABLE', path, { field: name });
    // Only the built-in list says which fields propagate; a field only the service describes is not flagged.
    else if (propagate && known.builtin && !known.builtin.propagatable) emit('FIELD_NOT_PROPAGATABLE', path, { field: name });
  });
}

function checkAssignments(b: Record<string, unknown>, emit: Emit): void {
  const change = b.assignmentChange;
  if (!isPlainObject(change)) return;
  const base = ['assignmentChange'];
  if (Array.isArray(change.removeUsers)) {
    change.removeUsers.forEach((u, i) => {
      if (typeof u === 'string' && u.trim() === '') emit('REMOVE_USERS_EMPTY_ENTRY', [...base, 'removeUsers', i], { position: i + 1 });
    });
  }
  if (typeof change.removes === 'string') {
    const member = 'assignmentChange.removes';
    if (change.removes.trim() === '') emit('VALUE_EMPTY', [...base, 'removes'], { member });
    else if (change.removes.split(',').some((s) => s.trim() === '')) emit('LIST_EMPTY_ENTRY', [...base, 'removes'], { member });
  }
  if (Array.isArray(change.adds)) {
    change.adds.forEach((a, i) => {
      if (!isPlainObject(a)) return;
      const path = [...base, 'adds', i];
      const named = (v: unknown) => typeof v === 'string' && v.trim() !== '';
      if (!named(a.user) && !named(a.partyId)) emit('ASSIGNMENT_ADD_NO_PARTY', path);
      checkPlannedTime(a.plannedTime, [...path, 'plannedTime'], emit);
    });
  }
  if (Array.isArray(change.updates)) {
    change.updates.forEach((u, i) => {
      if (!isPlainObject(u)) return;
      const path = [...base, 'updates', i];
      // Named by "user" or, as in the help's example (U3), by "partyId" alone.
      const named = (v: unknown) => typeof v === 'string' && v.trim() !== '';
      if (!named(u.user) && !named(u.partyId)) emit('ASSIGNMENT_USER_REQUIRED', u.user === undefined ? path : [...path, 'user']);
      checkPlannedTime(u.plannedTime, [...path, 'plannedTime'], emit);
    });
  }
}

export function checkPlannedTime(v: unknown, path: JsonPath, emit: Emit): void {
  if (typeof v === 'number' && Number.isInteger(v) && v < 0) {
    emit('VALUE_OUT_OF_RANGE', path, { member: formatJsonPath(path), range: '0 or more', actual: describeValue(v) });
  }
}

// ---------------------------------------------------------------------------
// The whole check
// ---------------------------------------------------------------------------

export interface UpdateCheckOptions {
  /** The connected service's field catalogue; without it the built-in official fields are used. */
  catalogue?: ServiceFieldCatalogue;
}

export interface UpdateBodyCheck {
  /** True when no issue is an error. */
  ok: boolean;
  /** The normalized, parsed body (present when ok). */
  body?: z.infer<typeof UpdateWorkItemsBody>;
  issues: DocumentIssue[];
}

/** The issues checkUpdateBody gives `{fields: {[name]: value}}` (one field, nothing else): only the field rules apply to such a body. */
export function checkFieldUpdate(name: string, value: unknown, options: UpdateCheckOptions = {}): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  checkFields({ fields: { [name]: value } }, (code, path, params = {}, extra = {}) => issues.push(makeIssue(code, path, params, extra)), options.catalogue ? { catalogue: options.catalogue } : {});
  return issues;
}

/**
 * Checks an update body: normalizes capitalised member names (warnings),
 * checks shapes with the strict zod model (errors naming the member), then the
 * cross-member rules. `basePath` prefixes every issue path (e.g. `['update']`
 * inside a request document).
 */
export function checkUpdateBody(body: unknown, basePath: JsonPath = [], options: UpdateCheckOptions = {}): UpdateBodyCheck {
  const issues: DocumentIssue[] = [];
  if (!isPlainObject(body)) {
    issues.push(
      makeIssue('WRONG_TYPE', [...basePath], { member: basePath.length ? formatJsonPath(basePath) : 'the update', expected: 'an object', actual: describeValue(body) }),
    );
    return { ok: false, issues };
  }
  const n = normalizeWithRenames(body);
  issues.push(...n.issues);
  const b = n.body as Record<string, unknown>;

  const parsed = UpdateWorkItemsBody.safeParse(b);
  if (!parsed.success) for (const zi of parsed.error.issues) issues.push(...translateZodIssue(zi, b, n.renames));

  const ruleIssues: DocumentIssue[] = [];
  const emit: Emit = (code, path, params = {}, extra = {}) => ruleIssues.push(makeIssue(code, n.renames.toOriginal(path), params, extra));
  if (Object.keys(b).length === 0) emit('UPDATE_EMPTY', []);
  checkOrdering(b, emit);
  checkRestore(b, emit);
  checkIdMembers(b, emit);
  const names: FieldNames = options.catalogue ? { catalogue: options.catalogue } : {};
  checkFields(b, emit, names);
  checkCalcTypes(b, emit, names);
  checkFieldNameList(b.clearFieldCalcTypes, ['clearFieldCalcTypes'], emit, false, names);
  if (isPlainObject(b.propagateToChildren)) {
    checkFieldNameList(b.propagateToChildren.fields, ['propagateToChildren', 'fields'], emit, true, names);
  }
  checkAssignments(b, emit);
  issues.push(...ruleIssues);

  const withBase = issues.map((i) => ({ ...i, path: [...basePath, ...i.path] }));
  const ok = parsed.success && !hasErrors(withBase);
  // Marked: the client sends this very object without parsing it again (src/schema/checked.ts).
  return ok ? { ok, body: markChecked(keepOwnKeys(parsed.data, b)), issues: withBase } : { ok, issues: withBase };
}
