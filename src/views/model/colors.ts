// Process category colours as swatch icons. The Color type's shape is not shown by
// the spec: strings (#rgb, #rrggbb, #aarrggbb, rrggbb, rgb(...)), numbers and
// objects ({r,g,b}, {red,green,blue}, {hex}, {value}) are read; anything else gets a
// fallback icon. No vscode import.

/** `#rrggbb` (lowercase), or undefined when the value is not a colour we can read. */
export function toHexColor(color: unknown): string | undefined {
  if (typeof color === 'number' && Number.isInteger(color) && color >= 0 && color <= 0xffffff) {
    return `#${color.toString(16).padStart(6, '0')}`;
  }
  if (typeof color === 'string') {
    const s = color.trim();
    let m = /^#?([0-9a-f]{6})$/i.exec(s);
    if (m) return `#${m[1]!.toLowerCase()}`;
    m = /^#([0-9a-f]{3})$/i.exec(s);
    if (m) return `#${[...m[1]!].map((c) => c + c).join('').toLowerCase()}`;
    m = /^#([0-9a-f]{2})([0-9a-f]{6})$/i.exec(s); // #aarrggbb (.NET)
    if (m) return `#${m[2]!.toLowerCase()}`;
    m = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*[\d.]+\s*)?\)$/i.exec(s);
    if (m) return rgb(Number(m[1]), Number(m[2]), Number(m[3]));
    return undefined;
  }
  if (color && typeof color === 'object') {
    const o = color as Record<string, unknown>;
    const r = o.r ?? o.R ?? o.red ?? o.Red;
    const g = o.g ?? o.G ?? o.green ?? o.Green;
    const b = o.b ?? o.B ?? o.blue ?? o.Blue;
    if (typeof r === 'number' && typeof g === 'number' && typeof b === 'number') return rgb(r, g, b);
    for (const k of ['hex', 'Hex', 'value', 'Value', 'code', 'Code', 'color', 'Color']) {
      if (k in o) return toHexColor(o[k]);
    }
  }
  return undefined;
}

function rgb(r: number, g: number, b: number): string | undefined {
  if (![r, g, b].every((n) => Number.isInteger(n) && n >= 0 && n <= 255)) return undefined;
  return `#${[r, g, b].map((n) => n.toString(16).padStart(2, '0')).join('')}`;
}

/** A 16×16 rounded square of the colour, with a thin border so light colours stay visible. */
export function swatchSvg(hex: string, options: { deleted?: boolean } = {}): string {
  const cross = options.deleted ? '<path d="M4 4l8 8M12 4l-8 8" stroke="#808080" stroke-width="1.5"/>' : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><rect x="2.5" y="2.5" width="11" height="11" rx="2" fill="${hex}" stroke="#80808080"/>${cross}</svg>`;
}

/** `data:` URI path (scheme excluded) of a swatch, base64 so no character needs escaping. */
export function swatchDataPath(hex: string, options: { deleted?: boolean } = {}): string {
  return `image/svg+xml;base64,${Buffer.from(swatchSvg(hex, options)).toString('base64')}`;
}
