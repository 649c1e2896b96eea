// Parses an update body (and the bodies of an add and a duplicate) the way the real
// service binds it: member names are matched case-insensitively (the spec's own example
// sends `Adds`, `PartyId`, `PlannedTime`, `PartyType` inside `assignmentChange`), unknown members and
// wrong types are rejected naming the member and the value. Keys INSIDE `fields`
// and `fieldCalcTypes` are field names and stay case-sensitive (rule 3).
// No vscode import.
import { z } from 'zod';
import { AssignmentAdd, AssignmentChange, AssignmentUpdate, PropagateToChildrenField, UpdateWorkItemsBody } from '../../schema/api';
import { keepOwnKeys, setOwn } from '../../schema/ownKeys';
import { showValue, valueAt } from '../values';

export interface BodyProblem {
  code: 'BODY_NOT_OBJECT' | 'UNKNOWN_MEMBER' | 'MEMBER_DUPLICATE' | 'MEMBER_REQUIRED' | 'WRONG_TYPE';
  /** JSON path of the member, e.g. `assignmentChange.adds[0].plannedTime`. */
  member?: string;
  params: Record<string, string | number>;
}

export type BodyParse<T = UpdateWorkItemsBody> = { ok: true; body: T } | { ok: false; problems: BodyProblem[] };

type Shape = Record<string, z.ZodType>;

/** How the members of each object level are normalized. */
export interface Level {
  where: string;
  members: readonly string[];
  /** Member name -> how its value is normalized. */
  nested?: Record<string, { kind: 'object' | 'array'; level: Level }>;
}

export const keysOf = (schema: { shape: Shape }): string[] => Object.keys(schema.shape);

/** An added assignment's members (assignmentChange.adds; also the `assignments` of an added work item). */
export const ADD_LEVEL: Level = { where: 'an added assignment (assignmentChange.adds)', members: keysOf(AssignmentAdd) };
const UPDATE_LEVEL: Level = { where: 'an updated assignment (assignmentChange.updates)', members: keysOf(AssignmentUpdate) };
const CHANGE_LEVEL: Level = {
  where: 'assignmentChange',
  members: keysOf(AssignmentChange),
  nested: { adds: { kind: 'array', level: ADD_LEVEL }, updates: { kind: 'array', level: UPDATE_LEVEL } },
};
const PROPAGATE_LEVEL: Level = { where: 'propagateToChildren', members: keysOf(PropagateToChildrenField) };
const BODY_LEVEL: Level = {
  where: 'the update body',
  members: keysOf(UpdateWorkItemsBody),
  nested: { assignmentChange: { kind: 'object', level: CHANGE_LEVEL }, propagateToChildren: { kind: 'object', level: PROPAGATE_LEVEL } },
};

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function normalizeLevel(value: Record<string, unknown>, level: Level, path: string, problems: BodyProblem[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const seenAs = new Map<string, string>();
  const byLower = new Map(level.members.map((m) => [m.toLowerCase(), m]));
  for (const [key, raw] of Object.entries(value)) {
    const canonical = byLower.get(key.toLowerCase());
    const memberPath = path ? `${path}.${key}` : key;
    if (!canonical) {
      problems.push({
        code: 'UNKNOWN_MEMBER',
        member: memberPath,
        params: { member: memberPath, where: level.where, allowed: level.members.join(', ') },
      });
      continue;
    }
    const earlier = seenAs.get(canonical);
    if (earlier !== undefined) {
      problems.push({ code: 'MEMBER_DUPLICATE', member: memberPath, params: { member: key, expected: earlier } });
      continue;
    }
    seenAs.set(canonical, key);
    const nested = level.nested?.[canonical];
    const canonicalPath = path ? `${path}.${canonical}` : canonical;
    // setOwn: a member named like a prototype property (`__proto__`) stays a plain member.
    if (nested && nested.kind === 'object' && isPlainObject(raw)) {
      setOwn(out, canonical, normalizeLevel(raw, nested.level, canonicalPath, problems));
    } else if (nested && nested.kind === 'array' && Array.isArray(raw)) {
      setOwn(
        out,
        canonical,
        raw.map((entry, i) => (isPlainObject(entry) ? normalizeLevel(entry, nested.level, `${canonicalPath}[${i}]`, problems) : entry)),
      );
    } else {
      setOwn(out, canonical, raw);
    }
  }
  return out;
}

function pathText(path: readonly PropertyKey[]): string {
  let text = '';
  for (const p of path) {
    if (typeof p === 'number') text += `[${p}]`;
    else text += text ? `.${String(p)}` : String(p);
  }
  return text;
}

const EXPECTED_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  record: 'an object',
};

function expectedOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return EXPECTED_WORDS[issue.expected] ?? String(issue.expected);
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_small':
      return issue.origin === 'string' ? 'a non-empty string' : `at least ${String(issue.minimum)}`;
    default:
      return issue.message;
  }
}

/** Normalizes member casing, then checks the shapes with the shared strict wire schema. */
export function parseUpdateBody(body: unknown): BodyParse {
  return parseBody(body, BODY_LEVEL, UpdateWorkItemsBody);
}

/**
 * A body read as the service binds it: member names of `level` (and the levels nested in
 * it) matched case-insensitively, then the shapes checked with the strict wire `schema`.
 */
export function parseBody<T extends object>(body: unknown, level: Level, schema: z.ZodType<T>, options: { required?: boolean } = {}): BodyParse<T> {
  if (!isPlainObject(body)) {
    return {
      ok: false,
      problems: [{ code: 'BODY_NOT_OBJECT', params: { actual: body === undefined ? 'an empty body' : showValue(body) } }],
    };
  }
  const problems: BodyProblem[] = [];
  const normalized = normalizeLevel(body, level, '', problems);
  if (problems.length > 0) return { ok: false, problems };
  const parsed = schema.safeParse(normalized);
  if (parsed.success) return { ok: true, body: keepOwnKeys(parsed.data, normalized) };
  for (const issue of parsed.error.issues) {
    const member = pathText(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const m = member ? `${member}.${key}` : key;
        problems.push({ code: 'UNKNOWN_MEMBER', member: m, params: { member: m, where: member || level.where, allowed: '' } });
      }
      continue;
    }
    const value = valueAt(normalized, issue.path);
    if (options.required && issue.code === 'invalid_type' && value === undefined) {
      // A required member left out (the help: a POST without a required member is an error).
      problems.push({ code: 'MEMBER_REQUIRED', member, params: { member, where: level.where } });
      continue;
    }
    problems.push({ code: 'WRONG_TYPE', member, params: { member, expected: expectedOf(issue), actual: showValue(value) } });
  }
  return { ok: false, problems };
}
