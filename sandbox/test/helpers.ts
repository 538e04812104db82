/** Test helpers of the sandbox's tests. */
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
