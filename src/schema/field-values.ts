// zod models of the values of the known fields in an update's `fields` map, built
// from the field catalogue (fields.ts). The same models check values before a
// request is sent (rules.ts) and give the JSON Schema its completions (document.ts).
import { z } from 'zod';
import { CODE_MAX_LENGTH, FIELD_CATALOGUE, type FieldInfo, type FieldKind, NAME_MAX_LENGTH } from './fields';

/** yyyy-MM-dd with a real calendar date. */
export const DateOnly = z.iso.date();

export interface FieldValueModel {
  readonly schema: z.ZodType;
  /** What the value must be, for messages: "a whole number", "a date (yyyy-MM-dd)". */
  readonly expected: string;
  /** Allowed range for numbers, for messages: "between 0 and 100". */
  readonly range?: string;
  readonly example: unknown;
}

const KIND_EXPECTED: Record<FieldKind, string> = {
  string: 'a string',
  integer: 'a whole number',
  number: 'a number',
  date: 'a date written yyyy-MM-dd',
  userId: 'a user ID (string)',
  id: 'an ID (string)',
  assignments: 'a list of assignments',
};

function model(info: FieldInfo): FieldValueModel {
  const expected = KIND_EXPECTED[info.kind];
  const d = info.description;
  switch (info.name) {
    case 'Name':
      return { schema: z.string().min(1).max(NAME_MAX_LENGTH).describe(d), expected, example: 'Design review' };
    case 'Code':
      return { schema: z.string().max(CODE_MAX_LENGTH).describe(d), expected, example: 'WBS-1.2' };
    case 'ActualProgress':
      return {
        schema: z.number().min(0).max(100).describe(d),
        expected,
        range: 'between 0 and 100',
        example: 50,
      };
    default:
      break;
  }
  switch (info.kind) {
    case 'string':
      return { schema: z.string().describe(d), expected, example: 'text' };
    case 'integer':
      return { schema: z.number().int().min(0).describe(d), expected, range: '0 or more', example: 480 };
    case 'number':
      return { schema: z.number().min(0).describe(d), expected, range: '0 or more', example: 1000 };
    case 'date':
      return { schema: DateOnly.describe(d), expected, example: '2025-04-01' };
    case 'userId':
    case 'id':
      return { schema: z.string().min(1).describe(d), expected, example: '1' };
    case 'assignments':
      return { schema: z.array(z.looseObject({})).describe(d), expected, example: [] };
  }
}

/** Value models of the editable known fields, keyed by their case-sensitive name. */
export const FIELD_VALUE_MODELS: ReadonlyMap<string, FieldValueModel> = new Map(
  FIELD_CATALOGUE.filter((f) => f.editable).map((f) => [f.name, model(f)]),
);

/**
 * The `fields` map as a zod object for the JSON Schema: known editable fields
 * with their value shapes (completion and hover), any other name allowed (the
 * catalogue is not public; rules.ts warns about unknown names).
 */
export function fieldsMapSchema() {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, m] of FIELD_VALUE_MODELS) shape[name] = m.schema.optional();
  return z.looseObject(shape);
}
