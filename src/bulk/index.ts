// Public API of the bulk engine (no vscode import). The VS Code side imports from
// here only.
//
//   const plan = planJob({ workItemIds, update, baseUrl });      // throws PlanError
//   const journal = await JobJournal.create(storageDir, { source: { uri, text }, plan });
//   const result = await runJob(plan, { client, journal, signal, onProgress, logger });
//   // after a reload: listUnfinishedJobs(storageDir) → JobJournal.load(file) → resumeJob(journal, opts)
//   // "Retry Failed": retryFailed(journal, opts); unknown outcomes only on the user's word:
//   // resendUnknown(journal, indexes, opts) or confirmUnknown(journal, indexes).
export {
  planJob,
  planChange,
  partOfRequest,
  kindOfRequest,
  addedFieldsOf,
  bodiesById,
  bodyOrBodies,
  planBodies,
  withParts,
  PlanError,
  requestUrlLength,
  batchIdsByUrlLength,
  WORK_ITEMS_PATH_PREFIX,
  type IdBatch,
  type ChangeInput,
  type ChangeRequest,
} from './plan';
export { addedIds, addedItems, deletedIds, namesItems, newItemRows, type AddedItems } from './added';
// Pacing and its clock are the API layer's (a read of many items is paced too); a run takes them as options.
export { Pacer, intervalFor, systemClock, type Clock } from '../api/pacer';
export { runJob, resumeJob, retryFailed, resendUnknown, confirmUnknown, resultFromJournal, startingRetryBudget, toRequestError, totalsOf, unknownAddIndexes, type ResumeOptions } from './engine';
export { ADD_KEY, addKeyPrefix, decideAdd, keyedAddItem, topKeyOf, type AddDecision, type AddMatchInput, type FoundItem } from './addMatch';
export {
  JobJournal,
  JournalError,
  listJobs,
  listUnfinishedJobs,
  pruneJobs,
  JOURNAL_FORMAT,
  JOURNAL_VERSION,
  type JobSource,
  type JobSummary,
  type JournalData,
  type JournalErrorCode,
  type JournalRun,
  type RunKind,
  type ValuesBeforeState,
} from './journal';
export * from './types';
export { missingFromRead, missingIdsOf, missingIdsOfRequest, sameFailureAgain, unnamedNotFound, WORK_ITEM_NOT_FOUND, type MissingIds } from './missing';
