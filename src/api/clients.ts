/**
 * The clients of one network: one HTTP client shared by the mirror node, status page and Sourcify clients. A lazy
 * entry of the extension (LAZY_ENTRIES in esbuild.js): the clients and everything they use (HTTP, lossless JSON,
 * validation) load with the first request, not at activation.
 */
import { HttpClient, type HttpClientOptions } from './http';
import { MirrorClient } from './mirror';
import type { NetworkProfile } from './networks';
import { StatusClient } from './status';
import { VerifyClient } from './verify';

export interface Clients {
  readonly profile: NetworkProfile;
  readonly http: HttpClient;
  readonly mirror: MirrorClient;
  readonly status: StatusClient;
  readonly verify: VerifyClient;
}

export function createClients(profile: NetworkProfile, options: HttpClientOptions): Clients {
  const http = new HttpClient(options);
  return {
    profile,
    http,
    mirror: new MirrorClient(profile.mirrorUrl, http),
    status: new StatusClient(profile.statusUrl, http),
    verify: new VerifyClient(profile.verifyUrl, http),
  };
}
