// The members that set values: `fields` (each field to a value), and the calculation
// types (clear all, clear some, set), with the shared inverses of field values and of
// calculation types. No vscode import, no I/O.
import type { UpdateWorkItemsBody } from '../../schema/api';
import { CODE_MAX_LENGTH, FORMULA_CALC_TYPE, NAME_MAX_LENGTH, fieldInfo, splitCommaList } from '../../schema/fields';
import { normalizeAssignments, normalizeValue } from '../values';
import type { Behaviours, SharedInverse } from './entry';
import { UndoItem } from './inverse';
import { compute, has, note, now, problem, setValue, type ItemState } from './predict';
import { DATES } from './schedule';

type Fields = NonNullable<UpdateWorkItemsBody['fields']>;

/** The fields of a `fields` value with what the catalogue says of each (worked out once per body, not per item). */
const compiled = new WeakMap<Fields, { name: string; value: unknown; info: ReturnType<typeof fieldInfo> }[]>();

function compiledFields(fields: Fields): { name: string; value: unknown; info: ReturnType<typeof fieldInfo> }[] {
  let c = compiled.get(fields);
  if (!c) compiled.set(fields, (c = Object.entries(fields).map(([name, value]) => ({ name, value, info: fieldInfo(name) }))));
  return c;
}

/** Each field set to its value, with the rule violations visible before sending (rules 1-3, 29). */
function setFields(st: ItemState, fields: Fields): void {
  const current = st.current;
  for (const { name, value, info } of compiledFields(fields)) {
    if (info?.cost) note(st, 'cost-permission');
    if (name === 'Name') {
      const text = typeof value === 'string' ? value : '';
      if (text.trim().length === 0) problem(st.effect, { code: 'name-empty', field: name });
      else if (text.length > NAME_MAX_LENGTH) problem(st.effect, { code: 'name-too-long', field: name, params: { length: text.length, max: NAME_MAX_LENGTH } });
    } else if (name === 'Code' && typeof value === 'string' && value.length > CODE_MAX_LENGTH) {
      problem(st.effect, { code: 'code-too-long', field: name, params: { length: value.length, max: CODE_MAX_LENGTH } });
    } else if (name === 'ActualProgress') {
      if (current.TracksProgress === false) problem(st.effect, { code: 'progress-not-tracked', field: name });
      if (typeof value !== 'number' || value < 0 || value > 100) problem(st.effect, { code: 'progress-out-of-range', field: name });
    } else if (name === 'Assignments') {
      const list = normalizeAssignments(value);
      if (list) {
        st.values.Assignments = { kind: 'value', value: list };
        setValue(
          st,
          'ManagedPlannedTime',
          list.reduce((sum, a) => sum + a.plannedTime, 0),
        );
      } else compute(st, 'Assignments', 'unknown-before');
      continue;
    }
    if (name === 'PlannedStartDate' || name === 'PlannedFinishDate') st.datesTouched = true;
    setValue(st, name, (name === 'Code' || name === 'Description') && value === null ? '' : value);
  }
}

/** The calculation types so far, changed by `change` (a copy of its own); unknown before: unknown after. */
function changeCalcTypes(st: ItemState, change: (next: Record<string, unknown>) => Record<string, unknown>): void {
  const cur = now(st, 'FieldCalcTypes');
  if (cur.kind === 'value') setValue(st, 'FieldCalcTypes', change({ ...((cur.value as Record<string, unknown> | null) ?? {}) }));
  else compute(st, 'FieldCalcTypes', cur.reason);
  note(st, 'roll-up');
}

export const FIELD_MEMBERS: Behaviours<'fields' | 'clearAllFieldCalcTypes' | 'clearFieldCalcTypes' | 'fieldCalcTypes'> = {
  fields: {
    predict: (st, fields) => setFields(st, fields),
    rollsUp: true,
    // Assignments and the planned dates are put back with the other members that change them.
    inverse: {
      undo(item, fields) {
        for (const name of Object.keys(fields)) {
          if (name === 'Assignments') item.putBack('assignments', ['Assignments'], { member: 'fields.Assignments' });
          else if (name === 'PlannedStartDate' || name === 'PlannedFinishDate') item.putBack('schedule', DATES, { member: `fields.${name}` });
          else item.putBack('fields', [name], { member: `fields.${name}` });
        }
      },
    },
  },
  clearAllFieldCalcTypes: {
    predict: (st) => changeCalcTypes(st, () => ({})),
    inverse: { undo: (item) => item.putBack('calc-types', ['FieldCalcTypes'], { member: 'clearAllFieldCalcTypes' }) },
  },
  clearFieldCalcTypes: {
    predict(st, list) {
      changeCalcTypes(st, (next) => {
        for (const n of splitCommaList(list)) delete next[n];
        return next;
      });
    },
    inverse: { undo: (item, list) => item.putBack('calc-types', ['FieldCalcTypes'], { member: 'clearFieldCalcTypes', names: splitCommaList(list) }) },
  },
  fieldCalcTypes: {
    predict(st, types) {
      changeCalcTypes(st, (next) => Object.assign(next, types));
      // The service recalculates a value under its new calculation type.
      for (const n of Object.keys(types)) if (st.values[n] !== undefined || has(st, n)) compute(st, n, 'calc-type');
    },
    inverse: { undo: (item, types) => item.putBack('calc-types', ['FieldCalcTypes'], { member: 'fieldCalcTypes', names: Object.keys(types) }) },
  },
};

/** Field values back to the values before, each field that changed (or may have). */
export const FIELDS_INVERSE: SharedInverse = {
  kind: 'fields',
  putBack(item) {
    const restore: Record<string, unknown> = {};
    for (const [f, claims] of item.claimed('fields')) {
      if (!item.has(f)) for (const m of UndoItem.members(claims)) item.lost(m, 'not-in-snapshot');
      else if (item.changed(f)) restore[f] = item.was(f);
    }
    if (Object.keys(restore).length > 0) item.put('fields', { fields: restore });
  },
};

/**
 * The calculation types back: the previous ones set again, the new ones cleared. A
 * Formula cannot be set through the API, so a field that had one is reported instead.
 */
export const CALC_TYPES_INVERSE: SharedInverse = {
  kind: 'calc-types',
  putBack(item) {
    const claims = item.claimed('calc-types').get('FieldCalcTypes');
    if (!claims) return;
    if (!item.has('FieldCalcTypes')) {
      for (const m of UndoItem.members(claims)) item.lost(m, 'not-in-snapshot');
      return;
    }
    if (!item.changed('FieldCalcTypes')) return;
    const old = (item.was('FieldCalcTypes') as Record<string, unknown> | null) ?? {};
    const after = (normalizeValue('FieldCalcTypes', item.after.FieldCalcTypes) as Record<string, unknown> | null | undefined) ?? {};
    const known = item.hasAfter('FieldCalcTypes');
    const names = new Set([...Object.keys(old), ...Object.keys(after), ...claims.flatMap((c) => c.names ?? [])]);
    const set: Record<string, string> = {};
    const clear: string[] = [];
    for (const n of [...names].sort()) {
      if (old[n] === after[n] && known) continue;
      if (old[n] === FORMULA_CALC_TYPE) item.lost(`fieldCalcTypes.${n}`, 'formula');
      else if (typeof old[n] === 'string') set[n] = old[n];
      else if (fieldInfo(n)) clear.push(n);
    }
    const update: UpdateWorkItemsBody = {};
    if (Object.keys(set).length > 0) update.fieldCalcTypes = set;
    if (clear.length > 0) update.clearFieldCalcTypes = clear.join(',');
    if (Object.keys(update).length > 0) item.put('calc-types', update);
  },
};
