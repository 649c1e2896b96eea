// Migration of data sets and state files written by Work Item Studio 0.1.0
// (format "version": 1) to the current format ("version": 2), which uses the
// official field names of the service's Web API help:
//   work items   startDate → plannedStartDate, endDate → plannedFinishDate,
//                workCategoryId → timeEntryCategoryId
//   fieldCalcTypes keys  StartDate → PlannedStartDate, EndDate → PlannedFinishDate,
//                        WorkCategoryId → TimeEntryCategoryId
// The input is not changed; a migrated copy and one note per kind of change are returned.
// No vscode import.
import { OLD_FIELD_NAMES as RENAMED_FIELDS } from '../schema/fields';

export const DATASET_VERSION = 2;

/** Old stored work item property → current property. */
export const RENAMED_ITEM_PROPERTIES: Readonly<Record<string, string>> = {
  startDate: 'plannedStartDate',
  endDate: 'plannedFinishDate',
  workCategoryId: 'timeEntryCategoryId',
};


export interface Migration {
  data: unknown;
  /** What was migrated, e.g. `data set of version 1 migrated to version 2: 42 work items renamed startDate → plannedStartDate, ...`; empty when nothing was. */
  notes: string[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Migrates a version 1 data set; anything else (other versions, other shapes) is returned as it is. */
export function migrateDataset(input: unknown): Migration {
  if (!isObject(input) || input['version'] !== 1) return { data: input, notes: [] };
  const counts = new Map<string, number>();
  const count = (what: string): void => void counts.set(what, (counts.get(what) ?? 0) + 1);
  const items = Array.isArray(input['workItems'])
    ? input['workItems'].map((w) => {
        if (!isObject(w)) return w;
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(w)) {
          const renamed = RENAMED_ITEM_PROPERTIES[k];
          if (renamed !== undefined && !(renamed in w)) {
            out[renamed] = v;
            count(`${k} → ${renamed}`);
          } else if (k === 'fieldCalcTypes' && isObject(v)) {
            const calc: Record<string, unknown> = {};
            for (const [f, t] of Object.entries(v)) {
              const official = RENAMED_FIELDS[f];
              if (official !== undefined && !(official in v)) {
                calc[official] = t;
                count(`fieldCalcTypes.${f} → ${official}`);
              } else calc[f] = t;
            }
            out[k] = calc;
          } else out[k] = v;
        }
        return out;
      })
    : input['workItems'];
  const data = { ...input, version: DATASET_VERSION, ...(items !== undefined ? { workItems: items } : {}) };
  const renames = [...counts].map(([what, n]) => `${what} (${n} work item${n === 1 ? '' : 's'})`);
  const note = `data set of format version 1 migrated to version ${DATASET_VERSION} (official field names)${renames.length ? `: ${renames.join(', ')}` : ''}`;
  return { data, notes: [note] };
}
