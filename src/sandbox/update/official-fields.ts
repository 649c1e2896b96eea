// Field names of an update as the official Web API help has them (official-reference.md
// section 4): `fields` keys are system names. The read-only system fields of the
// help's table are refused with error 29 naming the member that changes them where
// the help names one; the names used before the help was read (StartDate, EndDate,
// WorkCategoryId) are unknown fields, as on a real server, with the official name in
// the message. No vscode import.
import { caseMismatch, OLD_FIELD_NAMES, READ_ONLY_FIELDS } from '../../schema/fields';

/**
 * Read-only system fields of the help's table (F1) that the sandbox's catalogue
 * (src/schema/fields.ts) does not list as editable, with the body member the help
 * names for changing them (ItemTypeId: changeItemTypeTo; ParentId and ParentName:
 * moveParentTo): the `systemTable` rows of READ_ONLY_FIELDS in src/schema/fields.ts.
 */
export const READ_ONLY_SYSTEM_FIELDS: Readonly<Record<string, { member?: string }>> = Object.freeze(
  Object.fromEntries(Object.entries(READ_ONLY_FIELDS).flatMap(([name, f]) => (f.systemTable ? [[name, f.member === undefined ? {} : { member: f.member }]] : []))),
);

/** Names used before the official help was read, and the official system name of each (one table, in src/schema/fields.ts). */
export const RENAMED_FIELDS = OLD_FIELD_NAMES;

const has = (table: object, name: string) => Object.prototype.hasOwnProperty.call(table, name);

/** A read-only system field of the help, with the member to use instead (when the help names one). */
export function readOnlySystemField(name: string): { member?: string } | undefined {
  return has(READ_ONLY_SYSTEM_FIELDS, name) ? READ_ONLY_SYSTEM_FIELDS[name] : undefined;
}

/** Why a read-only system field may not be edited (the `reason` of FIELD_NOT_EDITABLE_HERE). */
export function readOnlyReason(name: string): string {
  const member = readOnlySystemField(name)?.member;
  return member ? `it is a read-only system field; change it with "${member}"` : 'it is a read-only system field';
}

/**
 * The `hint` of FIELD_UNKNOWN_NAME for a name the service does not know: the official
 * name for an old name, the field differing only in case (names are case-sensitive),
 * or nothing.
 */
export function unknownFieldHint(name: string, customNames: readonly string[] = []): string {
  if (has(RENAMED_FIELDS, name)) return ` (unknown field; the official system name is "${RENAMED_FIELDS[name]}")`;
  const s = caseMismatch(name)?.name ?? customNames.find((c) => c !== name && c.toLowerCase() === name.toLowerCase());
  if (s) return ` (unknown field; field names are case-sensitive: did you mean "${s}"?)`;
  return ' (unknown field)';
}

/**
 * The member name of a field in an update answer: the system name with its first
 * letter in lower case (PlannedStartDate -> plannedStartDate, Activity1 -> activity1),
 * so that upper-casing the first letter gives the system name back.
 */
export function answerMemberName(systemName: string): string {
  return systemName.charAt(0).toLowerCase() + systemName.slice(1);
}
