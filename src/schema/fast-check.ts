// A fast path for checking responses against their zod shapes. No vscode import.
//
// A response of 1000 changed work items, or an organization of 300,000 users, is
// checked member by member; zod's parse of such an answer costs about as much as
// reading it, and copies every object. `fastChecker(schema)` compiles the shapes
// responses use (objects that keep unknown members, arrays, strings, numbers,
// booleans, enums, literals, optional/nullable, defaults) into a plain function that
// checks the known members in place and fills in defaults, without copying. When it
// says no, the caller runs zod on the same value for the precise error (zod then
// decides). A shape with anything else (refinements, transforms, other checks) gets
// no fast path: zod alone.
import type { z } from 'zod';

type Check = (v: unknown) => boolean;
/** Checks one member of an object in place (may set a default). */
type MemberCheck = (obj: Record<string, unknown>, key: string) => boolean;

interface Def {
  type: string;
  checks?: { _zod: { def: { check: string; format?: string; value?: number; inclusive?: boolean; minimum?: number; maximum?: number } } }[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  defaultValue?: unknown;
  entries?: Record<string, unknown>;
  values?: unknown[];
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

class Unsupported extends Error {}

function numberCheck(def: Def): Check {
  const parts: Check[] = [(v) => typeof v === 'number' && Number.isFinite(v)];
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'number_format' && (d.format === 'safeint' || d.format === 'int32')) parts.push((v) => Number.isSafeInteger(v));
    else if (d.check === 'greater_than' && typeof d.value === 'number') {
      const min = d.value;
      parts.push(d.inclusive ? (v) => (v as number) >= min : (v) => (v as number) > min);
    } else if (d.check === 'less_than' && typeof d.value === 'number') {
      const max = d.value;
      parts.push(d.inclusive ? (v) => (v as number) <= max : (v) => (v as number) < max);
    } else throw new Unsupported();
  }
  return (v) => parts.every((p) => p(v));
}

function stringCheck(def: Def): Check {
  let min = 0;
  let max = Infinity;
  for (const c of def.checks ?? []) {
    const d = c._zod.def;
    if (d.check === 'min_length' && typeof d.minimum === 'number') min = d.minimum;
    else if (d.check === 'max_length' && typeof d.maximum === 'number') max = d.maximum;
    else throw new Unsupported();
  }
  if (min === 0 && max === Infinity) return (v) => typeof v === 'string';
  return (v) => typeof v === 'string' && v.length >= min && v.length <= max;
}

/** A check of a value (not a member): no defaults at this level. */
function valueCheck(schema: z.ZodType): Check {
  const def = defOf(schema);
  switch (def.type) {
    case 'string':
      return stringCheck(def);
    case 'number':
      return numberCheck(def);
    case 'boolean':
      if (def.checks?.length) throw new Unsupported();
      return (v) => typeof v === 'boolean';
    case 'unknown':
    case 'any':
      return () => true;
    case 'null':
      return (v) => v === null;
    case 'enum': {
      const allowed = new Set(Object.values(def.entries ?? {}));
      return (v) => allowed.has(v);
    }
    case 'literal': {
      const allowed = new Set(def.values ?? []);
      return (v) => allowed.has(v);
    }
    case 'optional': {
      const inner = valueCheck(def.innerType!);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      const inner = valueCheck(def.innerType!);
      return (v) => v === null || inner(v);
    }
    case 'union': {
      // Only options that cannot change the value (a failed option must leave no default behind).
      const options = ((def as Def & { options?: z.ZodType[] }).options ?? []).map((o) => {
        if (fillsDefaults(o)) throw new Unsupported();
        return valueCheck(o);
      });
      return (v) => options.some((o) => o(v));
    }
    case 'array': {
      if (def.checks?.length) throw new Unsupported();
      const el = valueCheck(def.element!);
      return (v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!el(v[i])) return false;
        return true;
      };
    }
    case 'object': {
      if (def.checks?.length) throw new Unsupported();
      const catchall = def.catchall ? defOf(def.catchall).type : undefined;
      if (catchall !== 'unknown' && catchall !== 'any') throw new Unsupported(); // strict or stripping objects: zod
      const members = Object.entries(def.shape ?? {}).map(([k, s]) => [k, memberCheck(s)] as const);
      return (v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
        const o = v as Record<string, unknown>;
        for (const [k, check] of members) if (!check(o, k)) return false;
        return true;
      };
    }
    default:
      throw new Unsupported();
  }
}

function memberCheck(schema: z.ZodType): MemberCheck {
  const def = defOf(schema);
  if (def.type === 'default') {
    const inner = valueCheck(def.innerType!);
    const dv = def.defaultValue;
    const fresh = (): unknown => (Array.isArray(dv) ? [...(dv as unknown[])] : typeof dv === 'object' && dv !== null ? { ...(dv as object) } : dv);
    return (o, k) => {
      // An own member only: a key such as "constructor" must not be read from the prototype.
      const v = Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined;
      if (v === undefined) {
        o[k] = fresh();
        return true;
      }
      return inner(v);
    };
  }
  const check = valueCheck(schema);
  return (o, k) => check(Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);
}

/** Whether checking a value against the schema may change it (a default somewhere inside). */
function fillsDefaults(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (def.type === 'default') return true;
  const inner = [def.innerType, def.element, ...Object.values(def.shape ?? {}), ...((def as Def & { options?: z.ZodType[] }).options ?? [])];
  return inner.some((s) => s !== undefined && fillsDefaults(s));
}

const compiled = new WeakMap<z.ZodType, Check | null>();

/**
 * A function that checks a value against `schema` in place (filling in defaults) and
 * answers true when zod would accept it and return an equal value; undefined when the
 * schema has no fast path. False means: ask zod.
 */
export function fastChecker(schema: z.ZodType): ((v: unknown) => boolean) | undefined {
  let c = compiled.get(schema);
  if (c === undefined) {
    try {
      c = valueCheck(schema);
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
      c = null;
    }
    compiled.set(schema, c);
  }
  return c ?? undefined;
}
