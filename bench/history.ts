// The results of a bench kept as history: the newest run on top of bench/results/<name>.md,
// the earlier runs below it (each run's "# " title demoted to "## Earlier run: <title>").
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where the earlier runs of a results file start: a demoted title, or a hand-written "# " heading below the first. */
const EARLIER_RUNS = /^(?:## Earlier run|# )/m;

/**
 * Writes `md` (one run's results, starting with its "# " title) to `file`, the file's earlier
 * content kept below it with its first "# " heading demoted to "## Earlier run: ".
 */
export function writeKeepingEarlierRuns(file: string, md: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const earlier = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').replace(/^# /m, '## Earlier run: ') : '';
  fs.writeFileSync(file, earlier ? `${md.trimEnd()}\n\n${earlier}` : md);
}

/**
 * Adds `section` to the newest run of `file` (a bench that writes its part of another bench's
 * results): before the earlier runs when the file has any, else at its end.
 */
export function appendToNewestRun(file: string, section: string): void {
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const firstLine = text.indexOf('\n') + 1;
  const found = firstLine > 0 ? text.slice(firstLine).search(EARLIER_RUNS) : -1;
  if (found < 0) {
    fs.appendFileSync(file, section);
    return;
  }
  const at = firstLine + found;
  fs.writeFileSync(file, `${text.slice(0, at).trimEnd()}\n\n${section.trim()}\n\n${text.slice(at)}`);
}
