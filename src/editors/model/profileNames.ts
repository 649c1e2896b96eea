// Entries of a project's profile (item types, statuses) found by what a person wrote where
// an ID belongs: the name as the profile shows it, its code or its system name. No vscode import.

/** A name as typed and as the profile writes it, compared: full-width letters folded, case and blanks ignored. */
const folded = (s: string): string => s.normalize('NFKC').trim().toLowerCase();

/** Entries whose name, code or system name is `written`. */
export function entriesNamed<T extends { name: string; code?: string | null; systemName?: string | null }>(entries: readonly T[], written: string): T[] {
  const w = folded(written);
  if (w === '') return [];
  return entries.filter((e) => [e.name, e.code, e.systemName].some((n) => typeof n === 'string' && n !== '' && folded(n) === w));
}
