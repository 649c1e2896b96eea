// Update bodies that passed checkUpdateBody (the strict zod model and every rule of the
// request document): the plan passes these very objects down to the client, which sends
// such a body as it is instead of parsing it again. A body made any other way (read back
// from a journal, built by a caller) is checked by the client as before. No I/O.

const checked = new WeakSet<object>();

/** Marks a body that checkUpdateBody returned (its normalized, validated form). */
export function markChecked<T extends object>(body: T): T {
  checked.add(body);
  return body;
}

/** Whether `body` is an object checkUpdateBody returned. */
export function isChecked(body: unknown): boolean {
  return typeof body === 'object' && body !== null && checked.has(body);
}
