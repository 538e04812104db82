/** Test helpers: fixture paths and a tiny HTTP server that replays recorded answers. */
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';

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
export async function serveCanned(routes: Record<string, Canned> | ((url: string) => Canned | undefined)): Promise<CannedServer> {
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
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
