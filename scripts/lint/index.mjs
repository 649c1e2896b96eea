// The lint plugins, resolved from this folder (where typescript-eslint finds TypeScript 6's compiler API;
// the project itself compiles with TypeScript 7, which has none). eslint.config.mjs imports them from here.
export { default as tseslint } from 'typescript-eslint';
export { default as importX } from 'eslint-plugin-import-x';
