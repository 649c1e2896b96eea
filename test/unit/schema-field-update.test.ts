// checkFieldUpdate gives the issues checkUpdateBody gives a body of one field and nothing
// else (the table checks every edited cell so, and takes the shorter way): for every
// built-in field, fields only the service describes, old names, names in the wrong case,
// unknown names, with and without the catalogue, and values of every kind.
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FieldType } from '../../src/schema/catalogue';
import { FIELD_CATALOGUE } from '../../src/schema/fields';
import { checkFieldUpdate, checkUpdateBody } from '../../src/schema/rules';
import { serviceFieldCatalogue } from '../../src/schema/service-fields';

const SERVICE: FieldType[] = [
  { systemName: 'Name', name: 'Name', dataType: 'String', isSystemField: true, maxLength: 256 },
  { systemName: 'ActualProgress', name: 'Progress', dataType: 'Decimal', isSystemField: true, minValue: 0, maxValue: 100 },
  { systemName: 'Description', name: 'Description', dataType: 'String', isReadOnly: true },
  { systemName: 'Custom_Priority', name: '優先度', dataType: 'List', choices: [{ id: '1', name: '高' }, { id: '2', name: '中' }] },
  { systemName: 'Custom_Points', name: 'ポイント', dataType: 'Integer', minValue: 0, maxValue: 100 },
  { systemName: 'Custom_Note', name: 'メモ', dataType: 'String', maxLength: 5 },
  { systemName: 'Custom_Due', name: 'Due', dataType: 'Date' },
  { systemName: 'Custom_Flag', name: 'Flag', dataType: 'Boolean' },
  { systemName: 'Custom_Owner', name: 'Owner', dataType: 'User' },
  { systemName: 'Custom_Locked', name: 'Locked', dataType: 'String', isReadOnly: true },
  { systemName: 'StartDate', name: 'Old name the service still has', dataType: 'Date' },
];
const CATALOGUE = serviceFieldCatalogue(SERVICE);

const NAMES = [
  ...FIELD_CATALOGUE.map((f) => f.name),
  ...SERVICE.map((f) => f.systemName),
  'name', 'plannedFinishDate', 'custom_points', 'EndDate', 'WorkCategoryId', 'StartDate', 'Nope', '', '__proto__', 'constructor', 'toString', 'fields',
];
const VALUE = fc.oneof(
  fc.constantFrom(null, undefined, '', ' ', '\t', 'x', '高', '1', '2026-02-20', '2026-02-20T00:00:00', '2026-02-30', '2026/2/1', 'true', 0, -0, -1, 1.5, 50, 100, 101, 480, NaN, Infinity, true, false, {}, [], ['2101'], { partyId: '2101' }),
  fc.string({ maxLength: 8 }),
  fc.integer({ min: -1000, max: 1000 }),
  fc.double({ noNaN: false }),
  fc.nat(300).map((n) => 'あ'.repeat(n)),
);

describe('schema rules: one field alone (checkFieldUpdate)', () => {
  it('gives exactly the issues of checkUpdateBody({fields: {[name]: value}}), with and without the catalogue', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NAMES), VALUE, fc.boolean(), (name, value, withCatalogue) => {
        const options = withCatalogue ? { catalogue: CATALOGUE } : {};
        assert.deepEqual(checkFieldUpdate(name, value, options), checkUpdateBody({ fields: { [name]: value } }, [], options).issues, `${name} = ${JSON.stringify(value)}`);
      }),
      { numRuns: 5000 },
    );
  });

  it('finds the errors of long names, empty names, values out of range, unknown fields and read-only ones', () => {
    const codes = (name: string, value: unknown) => checkFieldUpdate(name, value, { catalogue: CATALOGUE }).map((i) => i.code);
    assert.deepEqual(codes('Name', 'a'.repeat(257)), ['NAME_TOO_LONG']);
    assert.deepEqual(codes('Name', '  '), ['NAME_EMPTY']);
    assert.deepEqual(codes('Name', '設計'), []);
    assert.deepEqual(codes('Custom_Points', 101).length, 1);
    assert.deepEqual(codes('Nope', 1), ['FIELD_UNKNOWN_TO_SERVICE']);
    assert.deepEqual(codes('Custom_Locked', 'x'), ['FIELD_NOT_EDITABLE']);
  });
});
