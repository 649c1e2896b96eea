// Member names that are also names of Object.prototype (`__proto__`, `constructor`,
// `toString`, `hasOwnProperty`) are plain member names in a JSON body: JSON.parse
// makes them own properties. Assigning `obj["__proto__"] = v` does not (it sets the
// prototype), and zod builds its records that way, so such a member would vanish
// between what the user wrote and what is checked or sent. These helpers keep it.
// No vscode import.

/** Sets an own, enumerable property, whatever its name (`__proto__` included). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Puts back into `output` (a parse result of `input`, e.g. zod's) every own
 * `__proto__` member of `input` it lost, at any depth where both have an object,
 * and resets a prototype the parse changed by assigning one. Returns `output`.
 */
export function keepOwnKeys<T>(output: T, input: unknown, depth = 0): T {
  if (depth > 64) return output;
  if (Array.isArray(output) && Array.isArray(input)) {
    output.forEach((o, i) => keepOwnKeys(o, input[i], depth + 1));
    return output;
  }
  if (!isObject(output) || !isObject(input)) return output;
  if (Object.prototype.hasOwnProperty.call(input, '__proto__')) {
    if (Object.getPrototypeOf(output) !== Object.prototype) Object.setPrototypeOf(output, Object.prototype);
    if (!Object.prototype.hasOwnProperty.call(output, '__proto__')) setOwn(output, '__proto__', input['__proto__']);
  }
  for (const key of Object.keys(output)) {
    if (Object.prototype.hasOwnProperty.call(input, key)) keepOwnKeys(output[key], input[key], depth + 1);
  }
  return output;
}
