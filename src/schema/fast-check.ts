// A fast path for checking responses against their zod shapes. No vscode import.
//
// A response of 1000 changed work items, or an organization of 300,000 users, is
// checked member by member; zod's parse of such an answer costs about as much as
// reading it, and copies every object. `fastChecker(schema)` compiles the shapes
// responses use (objects that keep unknown members, arrays, strings, numbers,
// booleans, enums, literals, optional/nullable, defaults, open string-keyed records
// such as a work item's fields) into plain functions (one
// per object and array shape, members read by name) that check the known members
// in place and fill in defaults, without copying. When it
// says no, the caller runs zod on the same value for the precise error (zod then
// decides). A shape with anything else (refinements, transforms, other checks) gets
// no fast path: zod alone.
import type { z } from 'zod';

type Check = (v: unknown) => boolean;

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
  options?: z.ZodType[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
}

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

class Unsupported extends Error {}

/** A member name read as `o.name` (a plain identifier that no object inherits); others go through hasOwn. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * Compiles a shape into the source of small functions, one per object and array
 * shape, whose members are read by name (so every read is a plain property load the
 * engine can cache, not a lookup by a key in a variable). The source holds only
 * member names of our own schemas (quoted with JSON.stringify) and indexes into
 * `K`, the constants (allowed values, defaults); never a value being checked.
 */
class Compiler {
  readonly fns: string[] = [];
  readonly consts: unknown[] = [];

  private konst(v: unknown): string {
    this.consts.push(v);
    return `K[${this.consts.length - 1}]`;
  }

  private fn(param: string, body: string): string {
    const name = `f${this.fns.length}`;
    this.fns.push(`function ${name}(${param}) {\n${body}\n}`);
    return name;
  }

  /** A boolean expression: whether the value in variable `x` is valid (no defaults at this level). */
  value(schema: z.ZodType, x: string): string {
    const def = defOf(schema);
    switch (def.type) {
      case 'string': {
        let min = 0;
        let max = Infinity;
        for (const c of def.checks ?? []) {
          const d = c._zod.def;
          if (d.check === 'min_length' && typeof d.minimum === 'number') min = d.minimum;
          else if (d.check === 'max_length' && typeof d.maximum === 'number') max = d.maximum;
          else throw new Unsupported();
        }
        return `(typeof ${x} === "string"${min > 0 ? ` && ${x}.length >= ${min}` : ''}${max !== Infinity ? ` && ${x}.length <= ${max}` : ''})`;
      }
      case 'number': {
        const parts = [`typeof ${x} === "number"`, `Number.isFinite(${x})`];
        for (const c of def.checks ?? []) {
          const d = c._zod.def;
          if (d.check === 'number_format' && (d.format === 'safeint' || d.format === 'int32')) parts.push(`Number.isSafeInteger(${x})`);
          else if (d.check === 'greater_than' && typeof d.value === 'number') parts.push(`${x} ${d.inclusive ? '>=' : '>'} ${this.konst(d.value)}`);
          else if (d.check === 'less_than' && typeof d.value === 'number') parts.push(`${x} ${d.inclusive ? '<=' : '<'} ${this.konst(d.value)}`);
          else throw new Unsupported();
        }
        return `(${parts.join(' && ')})`;
      }
      case 'boolean':
        if (def.checks?.length) throw new Unsupported();
        return `(typeof ${x} === "boolean")`;
      case 'unknown':
      case 'any':
        return 'true';
      case 'null':
        return `(${x} === null)`;
      case 'enum':
        return `${this.konst(new Set(Object.values(def.entries ?? {})))}.has(${x})`;
      case 'literal':
        return `${this.konst(new Set(def.values ?? []))}.has(${x})`;
      case 'optional':
        return `(${x} === undefined || ${this.value(def.innerType!, x)})`;
      case 'nullable':
        return `(${x} === null || ${this.value(def.innerType!, x)})`;
      case 'union': {
        // Only options that cannot change the value (a failed option must leave no default behind).
        const options = (def.options ?? []).map((o) => {
          if (fillsDefaults(o)) throw new Unsupported();
          return this.value(o, x);
        });
        return options.length === 0 ? 'false' : `(${options.join(' || ')})`;
      }
      case 'array': {
        if (def.checks?.length) throw new Unsupported();
        const el = this.value(def.element!, 'e');
        const name = this.fn('a', `if (!Array.isArray(a)) return false;\nfor (let i = 0; i < a.length; i++) {\nconst e = a[i];\nif (!${el}) return false;\n}\nreturn true;`);
        return `${name}(${x})`;
      }
      case 'record': {
        // An open map (string keys, any value: a work item's fields): a plain object, checked without a copy.
        if (def.checks?.length) throw new Unsupported();
        const key = def.keyType ? defOf(def.keyType) : undefined;
        const val = def.valueType ? defOf(def.valueType).type : undefined;
        if (key?.type !== 'string' || key.checks?.length || (val !== 'unknown' && val !== 'any')) throw new Unsupported();
        return `(typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x}) && isPlain(${x}))`;
      }
      case 'object': {
        if (def.checks?.length) throw new Unsupported();
        const catchall = def.catchall ? defOf(def.catchall).type : undefined;
        if (catchall !== 'unknown' && catchall !== 'any') throw new Unsupported(); // strict or stripping objects: zod
        const lines = ['if (typeof o !== "object" || o === null || Array.isArray(o)) return false;', 'let m;'];
        for (const [key, member] of Object.entries(def.shape ?? {})) lines.push(this.member(member, key));
        lines.push('return true;');
        return `${this.fn('o', lines.join('\n'))}(${x})`;
      }
      default:
        throw new Unsupported();
    }
  }

  /** Statements checking member `key` of object `o` (may set a default); `return false` when invalid. */
  private member(schema: z.ZodType, key: string): string {
    const quoted = JSON.stringify(key);
    // An own member only: a key such as "constructor" must not be read from the prototype.
    const read = IDENTIFIER.test(key) && !(key in Object.prototype) ? `m = o.${key};` : `m = hasOwn(o, ${quoted}) ? o[${quoted}] : undefined;`;
    const def = defOf(schema);
    if (def.type === 'default') {
      const inner = this.value(def.innerType!, 'm');
      return `${read}\nif (m === undefined) { o[${quoted}] = fresh(${this.konst(def.defaultValue)}); S.filled++; }\nelse if (!${inner}) return false;`;
    }
    return `${read}\nif (!${this.value(schema, 'm')}) return false;`;
  }
}

/** A default value as zod gives it: a new array or object each time. */
function fresh(dv: unknown): unknown {
  return Array.isArray(dv) ? [...(dv as unknown[])] : typeof dv === 'object' && dv !== null ? { ...(dv as object) } : dv;
}

const hasOwn = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** An object zod's record accepts: its prototype is Object.prototype or null (JSON.parse makes such objects). */
const isPlain = (o: object): boolean => {
  const p = Object.getPrototypeOf(o) as unknown;
  return p === Object.prototype || p === null;
};

/** How many defaults the last check filled in (shared by every compiled checker; checks never interleave). */
const S = { filled: 0 };

function compile(schema: z.ZodType): Check {
  const c = new Compiler();
  const top = c.value(schema, 'v');
  const source = `${c.fns.join('\n')}\nreturn function check(v) { S.filled = 0; return ${top}; };`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('K', 'hasOwn', 'fresh', 'S', 'isPlain', source)(c.consts, hasOwn, fresh, S, isPlain) as Check;
}

/** Whether the last check of any fast checker filled in a default (so the value differs from what was parsed). */
export function lastCheckFilledDefaults(): boolean {
  return S.filled > 0;
}

/** Whether checking a value against the schema may change it (a default somewhere inside). */
function fillsDefaults(schema: z.ZodType): boolean {
  const def = defOf(schema);
  if (def.type === 'default') return true;
  const inner = [def.innerType, def.element, ...Object.values(def.shape ?? {}), ...(def.options ?? [])];
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
      c = compile(schema);
    } catch (e) {
      if (!(e instanceof Unsupported)) throw e;
      c = null;
    }
    compiled.set(schema, c);
  }
  return c ?? undefined;
}
