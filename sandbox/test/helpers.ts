/** Test helpers of the sandbox's tests. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { parseJson } from '../../src/api/json';

export type Obj = Record<string, unknown>;

/** An answer over real HTTP: its status, its body as text and as lossless JSON ({} when it is not JSON), its headers. */
export interface JsonAnswer {
  status: number;
  json: Obj;
  text: string;
  headers: Headers;
}

/** GET `base + url` with `headers`; the body parsed with the extension's lossless JSON (integers past 2^53 as bigint). */
export async function getJson(base: string, url: string, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  const res = await fetch(base + url, { headers });
  const text = await res.text();
  let json: Obj = {};
  try {
    json = parseJson(text) as Obj;
  } catch {
    /* not JSON */
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** One request of the real server's spec files (`../shared/fixtures/mirror/specs/...`): its URL and answer. */
export interface SpecRequest {
  file: string;
  url: string;
  status: number;
  json: Obj;
}

/** Every request of the spec files in `dir` (none when the folder is absent). */
export function readSpecRequests(dir: string): SpecRequest[] {
  const out: SpecRequest[] = [];
  if (!fs.existsSync(dir)) return out;
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith('.json')) continue;
    const d = JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as Obj;
    for (const t of (Array.isArray(d.tests) ? d.tests : [d]) as Obj[]) {
      const urls = [t.urls, t.url].flat().filter((u) => typeof u === 'string') as string[];
      for (const url of urls)
        if (typeof t.responseStatus === 'number')
          out.push({ file: name, url, status: t.responseStatus, json: t.responseJson as Obj });
    }
  }
  return out;
}

/** The spec's 400s (at least `min`), answered by the sandbox with the same status and body. */
export async function assertSpecErrors(base: string, specs: readonly SpecRequest[], min: number): Promise<void> {
  const errors = specs.filter((s) => s.status === 400);
  assert.ok(errors.length >= min, `${errors.length} spec errors`);
  for (const s of errors) {
    const a = await getJson(base, s.url);
    assert.strictEqual(a.status, 400, `${s.file}: ${s.url}`);
    assert.deepStrictEqual(a.json, s.json, `${s.file}: ${s.url}`);
  }
}
