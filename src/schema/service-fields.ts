// The connected service's own field catalogue (GET /system/fieldTypes, a project's
// profile: official-reference.md L1, P2) as the request-document checks use it:
// which names exist, which are read only, and what values they take (type and range).
// Without a catalogue the checks use the built-in official system fields (fields.ts).
// No vscode import.
import type { FieldType } from './catalogue';
import type { ErrorCode, MessageParams } from './error-codes';
import { DateOnly } from './field-values';
import { describeValue } from './issues';

/** The fields a service describes, by system name (the key in `fields`). */
export interface ServiceFieldCatalogue {
  readonly fields: ReadonlyMap<string, FieldType>;
}

export function serviceFieldCatalogue(fieldTypes: readonly FieldType[]): ServiceFieldCatalogue {
  const fields = new Map<string, FieldType>();
  for (const f of fieldTypes) if (!f.isDeleted && !fields.has(f.systemName)) fields.set(f.systemName, f);
  return { fields };
}

/** The service's field whose name differs only in case from `name` (names are case-sensitive). */
export function serviceCaseMismatch(catalogue: ServiceFieldCatalogue, name: string): FieldType | undefined {
  if (catalogue.fields.has(name)) return undefined;
  const lower = name.toLowerCase();
  for (const f of catalogue.fields.values()) if (f.systemName.toLowerCase() === lower) return f;
  return undefined;
}

export interface ValueProblem {
  code: ErrorCode;
  params: MessageParams;
}

/** A data type's value, for messages (the same wording as the built-in checks). */
export function expectedOf(dataType: string | null | undefined): string | undefined {
  switch (dataType) {
    case 'String':
    case 'MultiLineString':
      return 'a string';
    case 'Integer':
      return 'a whole number';
    case 'Decimal':
      return 'a number';
    case 'Date':
      return 'a date written yyyy-MM-dd';
    case 'DateTime':
      return 'a date (yyyy-MM-dd) or a date and time (yyyy-MM-ddTHH:mm:ss)';
    case 'Boolean':
      return 'true or false';
    case 'List':
      return 'one of the list\'s choices';
    case 'User':
    case 'Id':
      return 'an ID (string)';
    default:
      return undefined;
  }
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?)?$/;

export function rangeText(min: number | null | undefined, max: number | null | undefined): string {
  if (min != null && max != null) return `between ${min} and ${max}`;
  if (min != null) return `${min} or more`;
  return `${max} or less`;
}

/** The choices of a list field as the values a document may hold (ID, name or code). */
export function choiceValues(field: FieldType): string[] {
  const out: string[] = [];
  for (const c of field.choices ?? []) {
    if (c.id != null) out.push(c.id);
    out.push(c.name);
    if (c.code) out.push(c.code);
  }
  return out;
}

/**
 * Problems with a value of a field the service describes, by its data type and range:
 * numbers (whole for Integer) within minValue/maxValue, text within maxLength, dates
 * written yyyy-MM-dd, list values among the choices. `null` clears a field and is
 * accepted. A data type this client does not know is not checked (sent as written).
 */
export function serviceFieldValueProblems(field: FieldType, value: unknown): ValueProblem[] {
  const name = field.systemName;
  if (value === null) return [];
  const actual = describeValue(value);
  const expected = expectedOf(field.dataType);
  if (expected === undefined) return [];
  const wrongType = (): ValueProblem[] => [{ code: 'FIELD_VALUE_TYPE', params: { field: name, expected, actual } }];
  switch (field.dataType) {
    case 'String':
    case 'MultiLineString': {
      if (typeof value !== 'string') return wrongType();
      if (field.maxLength != null && value.length > field.maxLength) {
        return [{ code: 'FIELD_VALUE_TOO_LONG', params: { field: name, length: value.length, max: field.maxLength } }];
      }
      return [];
    }
    case 'Integer':
    case 'Decimal': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return wrongType();
      if (field.dataType === 'Integer' && !Number.isInteger(value)) return wrongType();
      const { minValue: min, maxValue: max } = field;
      if ((min != null && value < min) || (max != null && value > max)) {
        return [{ code: 'FIELD_VALUE_RANGE', params: { field: name, range: rangeText(min, max), actual } }];
      }
      return [];
    }
    case 'Date':
      if (typeof value !== 'string') return wrongType();
      return DateOnly.safeParse(value).success ? [] : [{ code: 'FIELD_DATE_FORMAT', params: { field: name, actual } }];
    case 'DateTime':
      if (typeof value !== 'string') return wrongType();
      return DATE_TIME.test(value) && DateOnly.safeParse(value.slice(0, 10)).success ? [] : wrongType();
    case 'Boolean':
      return typeof value === 'boolean' ? [] : wrongType();
    case 'List': {
      const allowed = choiceValues(field);
      const given = typeof value === 'number' ? String(value) : value;
      if (typeof given !== 'string') return wrongType();
      if (allowed.length === 0 || allowed.includes(given)) return [];
      const shown = (field.choices ?? []).map((c) => JSON.stringify(c.name)).join(', ');
      return [{ code: 'FIELD_VALUE_CHOICE', params: { field: name, allowed: shown, actual } }];
    }
    case 'User':
    case 'Id':
      return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value)) ? [] : wrongType();
    default:
      return [];
  }
}
