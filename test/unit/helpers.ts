/** Test helpers: fixture paths and a tiny HTTP server that replays recorded answers. */
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { parseJson } from '../../src/api/json';

export const FIXTURES = path.join(__dirname, '../../../test/fixtures');

export function fixtureText(p: string): string {
  return fs.readFileSync(path.join(FIXTURES, p), 'utf8');
}

export interface Canned {
  status?: number;
  body: string;
  headers?: Record<string, string>;
}

export interface CannedServer {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** Serves `routes[path+query]` (or a function of the URL) over real HTTP on 127.0.0.1. */
export async function serveCanned(
  routes: Record<string, Canned> | ((url: string) => Canned | undefined),
): Promise<CannedServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    hits.push(url);
    const c = typeof routes === 'function' ? routes(url) : routes[url];
    if (!c) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"_status":{"messages":[{"message":"Not found"}]}}');
      return;
    }
    res.writeHead(c.status ?? 200, { 'content-type': 'application/json; charset=utf-8', ...c.headers });
    res.end(c.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

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
