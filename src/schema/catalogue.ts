// Wire shapes of the service's own description of itself (official-reference.md):
//   GET /system/fieldTypes                         → {totalCount, data: FieldType[]}        (L1)
//   GET /project/projects/{id}/profile?includes=…  → [ProjectProfile] (always one element)  (P2, A2)
//   GET /system/organizations/{id}/subOrganizations?depth=N → one Organization, a tree   (O1)
// The help shows these partially: the members it shows are typed; everything else is
// optional and kept (tolerant parsing). Where the help is silent the choice is marked
// "assumption" and the client must work without it.
// No vscode import: shared by the client (src/api), the editors and the sandbox.
import { z } from 'zod';
import { WireId } from './reads';

const optString = z.string().nullish();
const optBool = z.boolean().nullish();
const optNumber = z.number().nullish();

/**
 * Data types of fields. The help's sample cuts at `dataType…` (L1); these are the
 * sandbox's names (assumption). A client treats any other string as "unknown type":
 * no type check, the value is sent as written.
 */
export const FIELD_DATA_TYPES = ['String', 'MultiLineString', 'Integer', 'Decimal', 'Date', 'DateTime', 'Boolean', 'List', 'User', 'Id', 'Assignments'] as const;
export type FieldDataType = (typeof FIELD_DATA_TYPES)[number];

/** One choice of a list field (assumption: the help does not show list values). */
export const FieldChoice = z.looseObject({ id: WireId.nullish(), name: z.string(), code: optString });
export type FieldChoice = z.infer<typeof FieldChoice>;

/**
 * A field type: `name` (display name), `systemName` (the key in `fields`), `code`,
 * `dataType` (L1). `isSystemField` is a query parameter of the list, so records carry
 * it (assumption). Value ranges (`minValue`, `maxValue`, `maxLength`, `choices`) and
 * `isReadOnly` are the sandbox's own members (assumption), all optional.
 */
export const FieldType = z.looseObject({
  id: WireId.nullish(),
  name: z.string(),
  systemName: z.string().min(1),
  code: optString,
  dataType: optString,
  isSystemField: optBool,
  isDeleted: optBool,
  isReadOnly: optBool,
  description: optString,
  minValue: optNumber,
  maxValue: optNumber,
  maxLength: optNumber,
  choices: z.array(FieldChoice).nullish(),
});
export type FieldType = z.infer<typeof FieldType>;

export const FieldTypeListResponse = z.looseObject({ totalCount: z.number().int().min(0), data: z.array(FieldType) });
export type FieldTypeListResponse = z.infer<typeof FieldTypeListResponse>;

/**
 * An item type of a profile (P2): `itemTypeId`, `name`, `systemName` (`WorkItemRoot`,
 * `DocumentItemRoot`, `Task`, …), `code`; `fields` lists the field system names usable
 * for the type (A2: `ItemTypes[].Fields`; as strings or as `{systemName}` objects).
 * `isFolder` is the sandbox's member (assumption); without it a client decides folder or
 * not from the answer's shape (an item with `SubItems`).
 */
export const ProfileItemType = z.looseObject({
  itemTypeId: WireId.nullish(),
  id: WireId.nullish(),
  name: z.string(),
  systemName: optString,
  code: optString,
  isFolder: optBool,
  fields: z.array(z.union([z.string(), z.looseObject({ systemName: z.string() })])).nullish(),
});
export type ProfileItemType = z.infer<typeof ProfileItemType>;

/** A status type of a profile (members not shown by the help: assumption, tolerant). */
export const ProfileStatusType = z.looseObject({
  statusTypeId: WireId.nullish(),
  id: WireId.nullish(),
  name: z.string(),
  code: optString,
  /** Item types the status is usable for (assumption); absent: all. */
  itemTypeIds: z.array(WireId).nullish(),
});
export type ProfileStatusType = z.infer<typeof ProfileStatusType>;

/** A project profile (P2): members named after the `includes` values, camelCase. */
export const ProjectProfile = z.looseObject({
  id: WireId.nullish(),
  name: optString,
  itemTypes: z.array(ProfileItemType).nullish(),
  fieldTypes: z.array(FieldType).nullish(),
  statusTypes: z.array(ProfileStatusType).nullish(),
});
export type ProjectProfile = z.infer<typeof ProjectProfile>;

/** `GET /project/projects/{id}/profile` answers an array with one element (P2). */
export const ProjectProfileResponse = z.array(ProjectProfile);

/** The ID of a profile item type / status type, whichever member carries it. */
export function profileEntryId(e: { itemTypeId?: string | null; statusTypeId?: string | null; id?: string | null }): string | undefined {
  return e.itemTypeId ?? e.statusTypeId ?? e.id ?? undefined;
}

/**
 * An organization tree node (O1: "one Organization, a tree"; members not shown).
 * The sandbox answers `{id, name, code, parentId, isDeleted, subOrganizations}`
 * (assumption); a client also accepts the children under `children` or `organizations`.
 */
export interface OrganizationNode {
  id: string;
  name?: string | null;
  code?: string | null;
  parentId?: string | null;
  isDeleted?: boolean | null;
  subOrganizations?: OrganizationNode[] | null;
  children?: OrganizationNode[] | null;
  organizations?: OrganizationNode[] | null;
  [key: string]: unknown;
}
export const OrganizationNode: z.ZodType<OrganizationNode> = z.lazy(() =>
  z.looseObject({
    id: WireId,
    name: optString,
    code: optString,
    parentId: WireId.nullish(),
    isDeleted: optBool,
    subOrganizations: z.array(OrganizationNode).nullish(),
    children: z.array(OrganizationNode).nullish(),
    organizations: z.array(OrganizationNode).nullish(),
  }),
) as unknown as z.ZodType<OrganizationNode>;

/** The children of an organization node, under whichever member the service uses. */
export function subOrganizationsOf(node: OrganizationNode): OrganizationNode[] {
  return node.subOrganizations ?? node.children ?? node.organizations ?? [];
}
