/**
 * A JSON writer that keeps big integers: a `bigint` is written as bare digits (JSON.stringify throws on it).
 * `RawJson` wraps text that is already JSON (cached items), written as is.
 */
export class RawJson {
  constructor(readonly text: string) {}
}

export function toJson(value: unknown): string {
  const out: string[] = [];
  write(value, out);
  return out.join('');
}

function write(v: unknown, out: string[]): void {
  switch (typeof v) {
    case 'string':
      out.push(JSON.stringify(v));
      return;
    case 'number':
      out.push(Number.isFinite(v) ? String(v) : 'null');
      return;
    case 'bigint':
      out.push(v.toString());
      return;
    case 'boolean':
      out.push(v ? 'true' : 'false');
      return;
    case 'undefined':
    case 'function':
    case 'symbol':
      out.push('null');
      return;
    default:
      break;
  }
  if (v === null) {
    out.push('null');
    return;
  }
  if (v instanceof RawJson) {
    out.push(v.text);
    return;
  }
  if (Array.isArray(v)) {
    out.push('[');
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(',');
      write(v[i], out);
    }
    out.push(']');
    return;
  }
  out.push('{');
  let first = true;
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (val === undefined) continue;
    if (!first) out.push(',');
    first = false;
    out.push(JSON.stringify(k), ':');
    write(val, out);
  }
  out.push('}');
}
