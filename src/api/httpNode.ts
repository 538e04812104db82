/** HttpClient's transport in Node (the desktop extension host): axios's http adapter. */
import type { HttpTransport } from './httpTransport';
import { classify } from './httpTransport';

/**
 * True when the environment names no proxy that axios would apply: none of the variables axios 1.21 reads
 * (proxy-from-env: `<protocol>_proxy` and `all_proxy`, lower or upper case; Node's own env proxy support reads the
 * same names) is set. Then leaving axios's `proxy` unset makes the same request as `proxy: false`. Read per request
 * (an extension may set them while running); six look-ups of process.env.
 */
export function proxyFreeEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return !env.http_proxy && !env.HTTP_PROXY && !env.https_proxy && !env.HTTPS_PROXY && !env.all_proxy && !env.ALL_PROXY;
}

export const nodeTransport: HttpTransport = {
  adapter: 'http',
  // `proxy: false`: VS Code's proxy support is the one that applies, never axios's own from the environment
  settings: { responseEncoding: 'utf8', proxy: false },
  readsInherited: true,
  proxyFree: () => proxyFreeEnv(),
  failure(err) {
    const code = err.code ?? (err.cause as { code?: string } | undefined)?.code;
    const msg = String(err.message ?? err);
    const kind = classify(code, msg);
    return { kind, code, detail: kind === 'tls' || kind === 'network' ? msg : undefined };
  },
  refuse: () => undefined,
};
