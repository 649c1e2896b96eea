// The core: what the activation bundle reaches only on first use. esbuild bundles this
// module, and what it imports, into dist/core.js (esbuild.js); the light side, bundled into
// dist/extension.js, reads it through `core()` (./load.ts) at the moment it needs one of
// these names, so requiring the extension and activate() evaluate none of zod, undici, the
// schemas, the client, the bulk engine, the sandbox or the table's model. Types are not
// listed here: the light side imports them (`import type`) from their own modules.
//
// A name the light side needs from these folders is added here, and only here.

// The service client: requests, reads, paths, errors, pacing, network settings.
export { FieldCatalogueCache, catalogueKey } from '../api/catalogue';
export { ServiceClient } from '../api/client';
export { NetworkConfigError, createDispatcher, dispatcherInfo, loadCaFile, parseProxyUrl, proxyEndpointsFor, redactUrl } from '../api/dispatcher';
export { FetchDispatcher } from '../api/hostFetchDispatcher';
export { NETWORK_REASON_TEXT, ServiceError, isServiceError } from '../api/errors';
export { credentialSecrets, redact, secretVariants } from '../api/http';
export { redactingLogger } from '../api/logger';
export { SharedPacing } from '../api/pacer';
export { validateId, validateWorkItemIdForPath } from '../api/paths';
export { planWorkItemReads, readWithFieldFallback, readWorkItems } from '../api/reads';

// The bulk engine: plans, jobs and their journal, values before and after, undo.
export { writeFileDurably } from '../bulk/durable';
export { HAS_SUB_ITEMS, SUB_ITEM_NOTES, fieldsToRead, fieldsToReadForAll, itemEffect, neededFields, neededFieldsForAll, touchedFields, touchedFieldsOfAll } from '../bulk/effects';
export {
  JobJournal,
  PlanError,
  addedIds,
  addedItems,
  addedFieldsOf,
  kindOfRequest,
  namesItems,
  newItemRows,
  deletedIds,
  confirmUnknown,
  listJobs,
  listUnfinishedJobs,
  missingFromRead,
  bodyOrBodies,
  planBodies,
  planChange,
  planJob,
  pruneJobs,
  resendUnknown,
  resultFromJournal,
  resumeJob,
  retryFailed,
  runJob,
  sameFailureAgain,
  unknownAddIndexes,
} from '../bulk';
export { changeRows, planUndoForJob, responsesOf } from '../bulk/jobValues';
export { JournalError } from '../bulk/journal';
export { missingIdsOf, readMissingIds, unnamedNotFound } from '../bulk/missing';
export { findDrift, pacedSubItems, readValues } from '../bulk/readValues';
export { sendCalls } from '../bulk/sendCalls';
export { InFlight, bindClient, bindingOf, describeService, jobService, serviceBaseUrl } from '../bulk/service';
export { pruneSnapshots, readSnapshot, snapshotItems, writeSnapshot } from '../bulk/snapshot';
export { otherServiceOf } from '../bulk/undo';
export { checkUndoDrift, planUndoSkipping } from '../bulk/undoDrift';

// The document schema: request documents, fields, templates, error codes.
export { PROCESS_CATEGORY_ORDER_FIELDS } from '../schema/api';
export { profileEntryId, subOrganizationsOf } from '../schema/catalogue';
export { createChangeDocument, createRequestDocument, parseWorkItemIds, validateRequestDocument } from '../schema/document';
export { ERROR_CODES, isErrorCode } from '../schema/error-codes';
export { fieldLabel } from '../schema/field-labels';
export { FIELD_VALUE_MODELS } from '../schema/field-values';
export { MAX_HIERARCHY_DEPTH, fieldInfo, readOnlyField } from '../schema/fields';
export { MAX_ITEMS_PER_ADD } from '../schema/add-rules';
export { idRange } from '../schema/id-ranges';
export { fieldNameSlot, irreversibleChanges } from '../schema/members';
export { localizeParams } from '../schema/param-phrases';
export { CORE_TREE_FIELDS, TREE_FIELDS, TREE_FIELDS_OUTSIDE_HELP, idValue, workItemIdOf } from '../schema/reads';
export { formatJsonPath } from '../schema/issues';
export { renderDocument } from '../schema/render';
export { rangeText } from '../schema/service-fields';
export { TEMPLATES, assignUsersUpdate, documentTemplate, templateById } from '../schema/templates';

// The sandbox (the local fake service).
export { createSandbox } from '../sandbox';

// The work item table's model: rows, columns, filters, edits, CSV, the page.
export { editDescriptionParts } from '../table/model/editDescription';
export {
  ENCODING_NAMES,
  FILTERS_FILE,
  ImportCancelledError,
  KeptStore,
  ROW_CHUNK,
  TEXT_ENCODINGS,
  TableEdits,
  TableNames,
  andFilterText,
  baseRows,
  carriedNames,
  cellValue,
  cellEditorFor,
  checkByteLimit,
  cellContextOf,
  checkRowLimit,
  chunkRanges,
  clampWidth,
  columnLabel,
  compileFilterText,
  computeView,
  countMatches,
  decodeAs,
  defaultWidth,
  detectText,
  editCellText,
  encodeText,
  excerpt,
  exportTable,
  fillDown,
  flattenToRows,
  formatCell,
  folderPath,
  folderTest,
  folderTypeIds,
  formatFilterText,
  groupEdits,
  headerOf,
  importLimits,
  importTableInSlices,
  isTextEncodingId,
  keptKey,
  layoutKey,
  loadByIds,
  loadSubtree,
  looksLikeOutline,
  mapHeader,
  mergeFilters,
  mergeKept,
  mergeReread,
  moveColumn,
  nextSort,
  parseDelimited,
  parseFilterText,
  parseOutline,
  pasteText,
  readFilterList,
  readFiltersFile,
  readLayout,
  readOnlyReason,
  reconcile,
  refusalReasons,
  rowsWithEdits,
  sentItems,
  shownEditedRow,
  shownRow,
  tableColumns,
  todayOf,
  unencodableCells,
  unencodableChars,
  upsertFilterInFile,
  upsertFilterInList,
  userIdsOf,
  userNames,
  userResolver,
  utf8Length,
} from '../table/model';
export { TABLE_PAGE_BODY } from '../table/model/page';
export { copiedFields, existingEdits, insertRows, isNewRowId, keptNewRows, liveRows, makeNewRows, newRowAdds, placeOfRow, shownNewRow, NEW_ROW_MARK } from '../table/model/newRows';
