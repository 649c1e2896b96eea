// Field names and values in request documents: the old names this extension used before it
// followed the official Web API help (StartDate, EndDate, WorkCategoryId) are errors with a
// rename to the official name; the connected service's own field catalogue (fieldTypes)
// decides which names exist and what values they take.
import * as assert from 'node:assert/strict';
import { validateRequestDocument } from '../../src/schema/document';
import type { DocumentIssue } from '../../src/schema/issues';
import { checkUpdateBody } from '../../src/schema/rules';
import { FieldType } from '../../src/schema/catalogue';
import { serviceFieldCatalogue, serviceFieldValueProblems } from '../../src/schema/service-fields';

const show = (issues: DocumentIssue[]) => issues.map((i) => `${i.severity} ${i.code} ${JSON.stringify(i.path)} ${i.message}`).join('\n');
function only(issues: DocumentIssue[], code: string): DocumentIssue[] {
  const hits = issues.filter((i) => i.code === code);
  assert.ok(hits.length > 0, `expected ${code}; got:\n${show(issues)}`);
  return hits;
}

describe('schema: old field names (official names: PlannedStartDate, PlannedFinishDate, TimeEntryCategoryId; official help U2, F1)', () => {
  it('an old name in fields is an error naming the place and the official name, with a rename fix', () => {
    const r = checkUpdateBody({ fields: { StartDate: '2025-04-01', EndDate: '2025-04-10', WorkCategoryId: '71' } }, ['update']);
    assert.equal(r.ok, false);
    const old = only(r.issues, 'FIELD_OLD_NAME');
    assert.deepEqual(
      old.map((i) => [i.severity, i.path.join('.'), i.fix]),
      [
        ['error', 'update.fields.StartDate', { kind: 'rename-member', to: 'PlannedStartDate' }],
        ['error', 'update.fields.EndDate', { kind: 'rename-member', to: 'PlannedFinishDate' }],
        ['error', 'update.fields.WorkCategoryId', { kind: 'rename-member', to: 'TimeEntryCategoryId' }],
      ],
    );
    assert.equal(old[0]!.message, '"StartDate" in fields is an old field name that the service does not know: use the official name "PlannedStartDate".');
  });

  it('an old name in fieldCalcTypes is an error with a rename fix', () => {
    const r = checkUpdateBody({ fieldCalcTypes: { EndDate: 'Children' } }, ['update']);
    const [i] = only(r.issues, 'FIELD_OLD_NAME');
    assert.deepEqual(i!.path, ['update', 'fieldCalcTypes', 'EndDate']);
    assert.deepEqual(i!.fix, { kind: 'rename-member', to: 'PlannedFinishDate' });
    assert.match(i!.message, /in fieldCalcTypes .*"PlannedFinishDate"/);
    assert.equal(r.ok, false);
  });

  it('old names in propagateToChildren.fields and clearFieldCalcTypes: one fix per name, and the whole list corrected for "fix all"', () => {
    const r = checkUpdateBody({ propagateToChildren: { fields: 'WorkCategoryId, LeaderId,StartDate' }, clearFieldCalcTypes: 'EndDate' }, ['update']);
    assert.equal(r.ok, false);
    const old = only(r.issues, 'FIELD_OLD_NAME');
    assert.deepEqual(
      old.map((i) => [i.path.join('.'), i.params?.where, i.fix]),
      [
        ['update.clearFieldCalcTypes', 'clearFieldCalcTypes', { kind: 'replace-value', to: 'PlannedFinishDate', all: 'PlannedFinishDate' }],
        ['update.propagateToChildren.fields', 'propagateToChildren.fields', { kind: 'replace-value', to: 'TimeEntryCategoryId,LeaderId,StartDate', all: 'TimeEntryCategoryId,LeaderId,PlannedStartDate' }],
        ['update.propagateToChildren.fields', 'propagateToChildren.fields', { kind: 'replace-value', to: 'WorkCategoryId,LeaderId,PlannedStartDate', all: 'TimeEntryCategoryId,LeaderId,PlannedStartDate' }],
      ],
    );
  });

  it('a request document with an old name is refused before sending (no document to send)', () => {
    const v = validateRequestDocument({ workItemIds: ['120'], update: { fields: { StartDate: '2025-04-01' } } });
    assert.equal(v.ok, false);
    assert.equal(v.document, undefined);
    assert.match(only(v.issues, 'FIELD_OLD_NAME')[0]!.message, /"StartDate" .*"PlannedStartDate"/);
  });

  it('the official names pass', () => {
    const r = checkUpdateBody({ fields: { PlannedStartDate: '2025-04-01', PlannedFinishDate: '2025-04-10', TimeEntryCategoryId: '71' }, propagateToChildren: { fields: 'TimeEntryCategoryId' } });
    assert.deepEqual(show(r.issues), '');
    assert.equal(r.ok, true);
  });

  it('a service that itself describes a field named StartDate keeps it (its catalogue is the truth)', () => {
    const catalogue = serviceFieldCatalogue([FieldType.parse({ name: 'Start', systemName: 'StartDate', dataType: 'Date' })]);
    const r = checkUpdateBody({ fields: { StartDate: '2025-04-01' } }, [], { catalogue });
    assert.deepEqual(show(r.issues), '');
  });
});

describe('schema: fields of the service catalogue (GET /system/fieldTypes, official help L1)', () => {
  const catalogue = serviceFieldCatalogue(
    [
      { name: 'Customer', systemName: 'CustomText1', dataType: 'String', maxLength: 10 },
      { name: 'Score', systemName: 'CustomNumber1', dataType: 'Integer', minValue: 0, maxValue: 10 },
      { name: 'Rate', systemName: 'CustomDecimal1', dataType: 'Decimal', minValue: 0.5 },
      { name: 'Due', systemName: 'CustomDate1', dataType: 'Date' },
      { name: 'Risk', systemName: 'CustomList1', dataType: 'List', choices: [{ id: '1', name: 'Low' }, { id: '2', name: 'High', code: 'H' }] },
      { name: 'Audit', systemName: 'CustomText2', dataType: 'String', isReadOnly: true },
      { name: 'Odd', systemName: 'CustomOdd1', dataType: 'Hologram' },
      { name: 'Name', systemName: 'Name', dataType: 'String', maxLength: 256 },
    ].map((f) => FieldType.parse(f)),
  );
  const check = (fields: Record<string, unknown>) => checkUpdateBody({ fields }, ['update'], { catalogue });

  it('custom fields with good values pass', () => {
    const r = check({ CustomText1: 'ACME', CustomNumber1: 10, CustomDecimal1: 0.5, CustomDate1: '2025-02-28', CustomList1: 'High', CustomOdd1: { any: 1 } });
    assert.deepEqual(show(r.issues), '');
    assert.equal(r.ok, true);
    // A list value by ID or code too; null clears a field.
    assert.equal(check({ CustomList1: '2' }).ok, true);
    assert.equal(check({ CustomList1: 'H' }).ok, true);
    assert.equal(check({ CustomText1: null }).ok, true);
  });

  it('number: whole numbers for Integer, within minValue and maxValue', () => {
    assert.match(only(check({ CustomNumber1: 11 }).issues, 'FIELD_VALUE_RANGE')[0]!.message, /"CustomNumber1" must be between 0 and 10, not the number 11/);
    assert.match(only(check({ CustomNumber1: 1.5 }).issues, 'FIELD_VALUE_TYPE')[0]!.message, /a whole number/);
    assert.match(only(check({ CustomNumber1: '3' }).issues, 'FIELD_VALUE_TYPE')[0]!.message, /not the text "3"/);
    assert.match(only(check({ CustomDecimal1: 0.25 }).issues, 'FIELD_VALUE_RANGE')[0]!.message, /0\.5 or more/);
  });

  it('text: at most maxLength characters', () => {
    const [i] = only(check({ CustomText1: 'x'.repeat(11) }).issues, 'FIELD_VALUE_TOO_LONG');
    assert.equal(i!.severity, 'error');
    assert.equal(i!.message, 'Field "CustomText1" is 11 characters long; at most 10 are allowed.');
  });

  it('date: written yyyy-MM-dd with a real calendar date', () => {
    only(check({ CustomDate1: '2025-02-30' }).issues, 'FIELD_DATE_FORMAT');
    only(check({ CustomDate1: '01/02/2025' }).issues, 'FIELD_DATE_FORMAT');
    only(check({ CustomDate1: 20250101 }).issues, 'FIELD_VALUE_TYPE');
  });

  it('list: one of the choices', () => {
    const [i] = only(check({ CustomList1: 'Medium' }).issues, 'FIELD_VALUE_CHOICE');
    assert.equal(i!.message, 'Field "CustomList1" must be one of its choices ("Low", "High"), not the text "Medium".');
  });

  it('a field the service marks read only is an error; a name it does not describe is a warning naming the service', () => {
    only(check({ CustomText2: 'x' }).issues, 'FIELD_NOT_EDITABLE');
    const r = check({ CustomText9: 'x' });
    assert.equal(r.ok, true);
    assert.equal(only(r.issues, 'FIELD_UNKNOWN_TO_SERVICE')[0]!.severity, 'warning');
  });

  it('a custom field in the wrong case gets the rename to the service\'s name', () => {
    const [i] = only(check({ customText1: 'x' }).issues, 'FIELD_NAME_CASE');
    assert.deepEqual(i!.fix, { kind: 'rename-member', to: 'CustomText1' });
  });

  it('custom fields may be propagated and their calculation type cleared without a warning of the built-in list', () => {
    const r = checkUpdateBody({ propagateToChildren: { fields: 'CustomText1,CustomList1' }, clearFieldCalcTypes: 'CustomNumber1' }, [], { catalogue });
    assert.deepEqual(show(r.issues), '');
  });

  it('built-in system fields keep their own checks with a catalogue', () => {
    const r = check({ Name: '' });
    only(r.issues, 'NAME_EMPTY');
  });

  it('value problems by data type, also for DateTime and Boolean', () => {
    const dt = FieldType.parse({ name: 'When', systemName: 'CustomDateTime1', dataType: 'DateTime' });
    assert.deepEqual(serviceFieldValueProblems(dt, '2025-04-01T10:30:00'), []);
    assert.deepEqual(serviceFieldValueProblems(dt, '2025-04-01'), []);
    assert.equal(serviceFieldValueProblems(dt, '2025-13-01T10:30')[0]?.code, 'FIELD_VALUE_TYPE');
    const flag = FieldType.parse({ name: 'Flag', systemName: 'CustomFlag1', dataType: 'Boolean' });
    assert.deepEqual(serviceFieldValueProblems(flag, true), []);
    assert.equal(serviceFieldValueProblems(flag, 'yes')[0]?.code, 'FIELD_VALUE_TYPE');
  });
});
