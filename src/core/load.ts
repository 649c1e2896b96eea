// The light side's one way into the core (./index.ts): `core()` reads and evaluates it on
// first call and returns the same module ever after. In the extension's bundle, esbuild
// turns the require below into a require of dist/core.js, the core's own bundle
// (esbuild.js); in plain Node (the unit tests, the benches) it loads the sources.
import type * as CoreModule from './index';

/** Everything the core offers (./index.ts). */
export type Core = typeof CoreModule;

let loaded: Core | undefined;

/** The core's exports, loaded on the first call. */
export function core(): Core {
  // A require, not an import: an import would evaluate the core when this module loads.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (loaded ??= require('./index') as Core);
}
