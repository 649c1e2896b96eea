// The sandbox as a library: createSandbox and what goes with it. No vscode import,
// no file system access at import time, no dynamic requires (bundled into the extension).
export {
  createSandbox,
  isLoopbackHost,
  DEFAULT_MAX_BODY_BYTES,
  MAX_SANDBOX_BODY_BYTES,
  SANDBOX_HTTP_ERROR_CODES,
  MAX_JSON_DEPTH,
  MAX_DRAIN_BYTES,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_BODY_TIMEOUT_MS,
} from './server';
export type { Sandbox, SandboxOptions } from './server';
export { demoDataset, DEMO_ORGANIZATIONS, DEMO_ROOT_FOLDERS, DEMO_SIGN_IN, DEMO_PASSWORD, DEMO_API_KEYS } from './demo';
export { generateDataset, generateLargeProject, LARGE_PROJECT } from './generate';
export type { GenerateOptions, LargeProjectOptions } from './generate';
export { parseDataset, checkReferences, DatasetError, MAX_HIERARCHY_LEVELS } from './state';
export { MAX_LIST_LIMIT } from './lists';
export { TOKEN_LIFETIME_MS } from './auth';
export { FaultSpec } from './faults';
export { PLAIN_ERRORS_ENV, plainErrorBody, plainErrorsFromEnvironment } from './plain';
export type { Dataset, DatasetInput, Edition } from './model';
