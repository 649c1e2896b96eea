// The words of an import (src/table/importWords.ts) in English and through the Japanese bundle,
// for tests: `missing` collects the messages used that the Japanese bundle lacks.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type L10n, importWords } from '../../src/table/importWords';

export const ja = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', 'l10n', 'bundle.l10n.ja.json'), 'utf8')) as Record<string, string>;
export const missing: string[] = [];
const bundle = (table?: Record<string, string>): L10n => ({
  t: (message, ...args) => {
    if (table && typeof table[message] !== 'string') missing.push(message);
    return (table?.[message] ?? message).replace(/\{(\d+)\}/g, (_m, i: string) => String(args[Number(i)]));
  },
});
export const en = importWords(bundle(), 'en');
export const jaWords = importWords(bundle(ja), 'ja');
