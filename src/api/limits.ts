// The service's request limits and the client's defaults for pacing and URL length:
// what every caller that sends many requests (a bulk job, a read of many items)
// plans against. Plain constants. No vscode import.
import { MAX_ITEMS_PER_UPDATE } from '../schema/fields';

/**
 * Work item IDs in one update (and, by default, in one read): the service's
 * documented limit of 1000 (service-api.md). ServiceClient.updateWorkItems refuses
 * more before sending; planJob splits a job's IDs into requests of at most this many.
 * Defined once, in src/schema/fields.ts (the sandbox enforces the same constant).
 */
export { MAX_ITEMS_PER_UPDATE };

export const DEFAULT_REQUESTS_PER_MINUTE = 600;
/** The service's documented limit (known-facts.md): 1500 calls a minute per caller. */
export const SERVICE_REQUESTS_PER_MINUTE = 1500;
/**
 * Minimum spacing between request starts besides the rate: none by default. The
 * help's advice of about 100 ms is the default rate's spacing (60000 / 600), not a
 * floor, so the rate setting is obeyed from 1 to 1500 a minute.
 */
export const DEFAULT_MIN_INTERVAL_MS = 0;
/** Longest request URL (base URL + path + query) by default: below common server limits of about 8 KB. */
export const DEFAULT_MAX_URL_LENGTH = 8000;
