// Characters that look like, or that a server may fold into, the characters that
// steer a request path: full-width and small forms (`．`, `／`, `＼`, `％`, `？`, `＃`,
// `，`: their compatibility form, NFKC, is the ASCII one, and servers with
// "best fit" mappings read them so), dot leaders (`‥` is `..`), and slashes and
// dots with no such form (division and fraction slashes, the ideographic full stop).
// A work item ID holding one would be `../` to such a server. No imports, no vscode.

/** Look-alikes with no compatibility (NFKC) form of their ASCII twin, and what they look like. */
const LOOKALIKES: Readonly<Record<string, string>> = {
  '\u2215': '/', // DIVISION SLASH
  '\u2044': '/', // FRACTION SLASH
  '\u29f8': '/', // BIG SOLIDUS
  '\u2571': '/', // BOX DRAWINGS LIGHT DIAGONAL UPPER RIGHT TO LOWER LEFT
  '\u27cb': '/', // MATHEMATICAL RISING DIAGONAL
  '\u0338': '/', // COMBINING LONG SOLIDUS OVERLAY
  '\u0337': '/', // COMBINING SHORT SOLIDUS OVERLAY
  '\u29f9': '\\', // BIG REVERSE SOLIDUS
  '\u2216': '\\', // SET MINUS
  '\u2572': '\\', // BOX DRAWINGS LIGHT DIAGONAL UPPER LEFT TO LOWER RIGHT
  '\u27cd': '\\', // MATHEMATICAL FALLING DIAGONAL
  '\u3002': '.', // IDEOGRAPHIC FULL STOP
  '\uff61': '.', // HALFWIDTH IDEOGRAPHIC FULL STOP
  '\u2027': '.', // HYPHENATION POINT
  '\u06d4': '.', // ARABIC FULL STOP
  '\u0701': '.', // SYRIAC SUPRALINEAR FULL STOP
  '\u0702': '.', // SYRIAC SUBLINEAR FULL STOP
  '\ua4f8': '.', // LISU LETTER TONE MYA TI
  '\u2e3c': '.', // STENOGRAPHIC FULL STOP
};

/** ASCII characters that steer a path or a query: an ID must not hold them, nor anything read as them. */
const STEERING = /[./\\%?#,]/;
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * The first character of `id` that is not ASCII but looks like, or folds (NFKC) into,
 * `.`, `/`, `\`, `%`, `?`, `#` or `,`, with what it reads as; undefined when there is none.
 */
export function pathLookalike(id: string): { character: string; reads: string } | undefined {
  if (typeof id !== 'string' || ASCII_ONLY.test(id)) return undefined;
  for (const ch of id) {
    if (ch.charCodeAt(0) < 0x80) continue;
    const known = LOOKALIKES[ch];
    if (known !== undefined) return { character: ch, reads: known };
    const folded = ch.normalize('NFKC');
    if (folded !== ch && STEERING.test(folded)) return { character: ch, reads: folded };
  }
  return undefined;
}
