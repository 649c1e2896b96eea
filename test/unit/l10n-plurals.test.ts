import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { l10nStrings } from './l10n.test';

// Counts read naturally in English: a message that counts things ("{0} items") has a
// singular beside it ("1 item"), chosen by the count at the call (vscode.l10n has no plural
// forms: a pair of keys is the way), or composes a count word that has one (itemsText,
// workItemsText, requestsText in src/common/wording.ts). A count that cannot be 1 (a limit,
// a range of several IDs) is listed below with the reason. Japanese has one form, so the
// Japanese bundle needs no pair. The work item table's webview strings and its filter bar are
// checked where they are written.

const root = path.resolve(__dirname, '..', '..');

/** Files whose strings are checked elsewhere (the work item table's webview and filter bar). */
const ELSEWHERE = ['src/table/strings.ts', 'src/table/filterBar.ts'];

const NOUNS = ['items', 'work items', 'requests', 'cells', 'rows', 'days', 'IDs', 'fields', 'errors', 'documents', 'jobs', 'users', 'hours', 'calls', 'renames', 'entries', 'problems', 'columns', 'characters', 'seconds', 'minutes', 'projects'];
const COUNT = new RegExp(`\\{\\w+\\} (?:[a-z-]+ ){0,2}?(?:${NOUNS.join('|')})\\b`);
/** A singular count: "1 item", or a signed count of days ("by {0} day": +1 or -1). */
const SINGULAR = new RegExp(`(?:\\b1|\\{\\w+\\}(?= day\\b)) ((?:[a-z-]+ ){0,2})(${NOUNS.map((n) => n.replace(/ies$/, 'y').replace(/s$/, '')).join('|')})\\b`, 'g');
const VERBS: [RegExp, string][] = [[/\bis\b/g, 'are'], [/\bwas\b/g, 'were'], [/\bdoes\b/g, 'do'], [/\bmakes\b/g, 'make'], [/\bexists\b/g, 'exist'], [/\bhas\b/g, 'have']];

/** A key with its counts and verbs in one form: "1 item is" and "{0} items are" read the same. */
export function pluralShape(key: string): string {
  let k = key.replace(SINGULAR, (_m, words: string, noun: string) => `{} ${words}${noun === 'entry' ? 'entries' : `${noun}s`}`).replace(/\{\w+\}/g, '{}');
  for (const [re, to] of VERBS) k = k.replace(re, to);
  return k;
}

/** Counted keys whose count is never 1, and why. */
const NEVER_ONE: Record<string, string> = {
  'Split into requests of at most {0} IDs and at most {1} characters of URL.': 'the settings\' limits',
  'one request adds {0} items with its sub-items; the service adds at most {1} in one request: split it into several "add" requests': 'said only above the limit of 1000 items',
  'Expand {0} into the {1} IDs {2} to {3}?': 'a range has two IDs or more',
  'Expand the ranges {0} into {1} IDs?': 'ranges have two IDs or more',
  'Expand {0} into {1} IDs': 'a range has two IDs or more',
  '{0} has {1} errors (lines {2}). Nothing was sent; fix them first.': 'one error has its own sentence ("has an error on line")',
  'Apply all {0} renames (official field names included)': 'offered for two renames or more',
  'Apply all {0} member renames': 'offered for two renames or more',
  '{0} update jobs are sending to {1}.': 'one job has its own sentence ("An update job is sending")',
  'Assign {0} users to the work items listed in workItemIds.': 'one user is named instead',
  'None of the {0} work items exists any more.': 'one item has its own sentence ("Work item {0} does not exist any more.")',
  'Checking which of {0} work items exist…': 'one item has its own sentence ("Checking whether work item {0} exists…")',
  'Retry {0} failed requests that will most likely fail again?': 'one request has its own sentence',
  '{0} of the {1} failed requests will most likely fail again. Retry all of them?': 'asked when some but not all failed the same way: two or more',
  'What should change on the {0} work items?': 'one item has its own sentence ("on the work item?")',
  'The work items belong to {0} projects ({1}): set the status of one project\'s items at a time.': 'two projects or more',
  'At most {0} characters': 'a limit',
  'At most {0} days at once.': 'a limit',
  'At most {0} hours per assignment.': 'a limit',
  '{0} hours is not a whole number of minutes.': 'a fraction of an hour as typed',
  'It makes {0} calls to the service (reads before: {1}, updates: {2}, reads after: {3}): about {4} s at {5} calls a minute; the results show after about {6} s, the values after fill in as they are read.': 'reads before, an update and reads after: three calls or more',
  'It makes at least {0} calls to the service (reads before: {1}, updates: {2}, reads after: {3}, and reads of the parents and sub-items involved): at least {4} s at {5} calls a minute.': 'three calls or more',
  'Field catalogue read: {0} fields ({1} custom).': 'the system fields alone are dozens',
  'the name would have {0} characters, more than {1}': 'more than a limit',
  'the code would have {0} characters, more than {1}': 'more than a limit',
  'the work item ID "{0}" alone makes a request URL longer than {1} characters (setting workItemStudio.bulk.maxUrlLength)': 'a limit',
  'More than {0} lines: at most {0} new items are added at once. Nothing was read.': 'a limit of lines (10,000 by default)',
};

/** The counted keys of src without a singular (neither a pair nor a reason above). */
function unpaired(): string[] {
  const keys = new Set<string>();
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (p.endsWith('.ts') && !ELSEWHERE.includes(path.relative(root, p).split(path.sep).join('/'))) for (const s of l10nStrings(fs.readFileSync(p, 'utf8')).strings) keys.add(s);
    }
  };
  walk(path.join(root, 'src'));
  const shapes = new Map<string, number>();
  for (const k of keys) shapes.set(pluralShape(k), (shapes.get(pluralShape(k)) ?? 0) + 1);
  return [...keys].filter((k) => COUNT.test(k) && NEVER_ONE[k] === undefined && (shapes.get(pluralShape(k)) ?? 0) < 2);
}

describe('English counts have a singular ("1 item", never "1 items")', () => {
  it('the check pairs a count with its singular, verbs included, and sees a count without one', () => {
    assert.equal(pluralShape('1 item of unknown outcome is not shown.'), pluralShape('{0} items of unknown outcome are not shown.'));
    assert.equal(pluralShape('{0} of 1 item'), pluralShape('{0} of {1} items'));
    assert.equal(pluralShape('1 duplicate entry is sent once: {0}'), pluralShape('{0} duplicate entries are sent once: {1}'));
    assert.equal(pluralShape('1 edited cell makes 1 update request.'), pluralShape('{0} edited cells make {1} update requests.'));
    assert.equal(pluralShape('shift the schedule by {0} day'), pluralShape('shift the schedule by {0} days'), 'a signed count: "-1 day"');
    assert.ok(COUNT.test('{0} of {1} items done'));
    assert.ok(!COUNT.test('{0} of {1} done'), 'a count word composed by itemsText has its own singular');
  });

  it('every counted message of src has its singular, or a reason why its count is never 1', () => {
    assert.deepEqual(unpaired(), []);
  });

  it('the reasons name messages that exist', () => {
    const ja = JSON.parse(fs.readFileSync(path.join(root, 'l10n/bundle.l10n.ja.json'), 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(NEVER_ONE).filter((k) => typeof ja[k] !== 'string'), []);
  });
});
