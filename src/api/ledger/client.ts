/**
 * The mirror node look-ups a hover needs that MirrorClient (src/api/mirror.ts) does not have yet: one account, token
 * or topic (`GET /api/v1/accounts/{idOrAddress}?transactions=false`, `/tokens/{id}`, `/topics/{id}`), each null when
 * the mirror node has none (404). Built over MirrorClient.apiUrl and the shared HttpClient (retries, time limits,
 * lossless JSON). Plain TypeScript.
 */
import * as l10n from '@vscode/l10n';
import { ApiError } from '../errors';
import type { HttpClient, RequestOptions } from '../http';
import type { MirrorClient } from '../mirror';
import { hostOf } from '../url';
import { checkAccountOrAddress, checkEntityId, unwrap } from '../validation';

export type MirrorObject = Record<string, unknown>;

const isObject = (v: unknown): v is MirrorObject => !!v && typeof v === 'object' && !Array.isArray(v);

export class LedgerMirror {
  constructor(
    readonly mirror: MirrorClient,
    private readonly http: HttpClient,
  ) {}

  /**
   * One account (an entity id or an EVM address: its alias, or a contract's own address), without its transactions
   * (`transactions=false`: the real server lists 25 by default). Contracts are accounts too: the real server answers
   * 200 for a contract's id, with its balance.
   */
  async account(idOrAddress: string, options?: RequestOptions): Promise<MirrorObject | null> {
    const id = unwrap(checkAccountOrAddress(idOrAddress));
    return this.one(
      `/accounts/${encodeURIComponent(id)}`,
      'transactions=false',
      l10n.t('an account'),
      (o) => typeof o.account === 'string',
      options,
    );
  }

  /** One token (`GET /tokens/{id}`). */
  async token(id: string, options?: RequestOptions): Promise<MirrorObject | null> {
    const t = unwrap(checkEntityId(id, l10n.t('a token id')));
    return this.one(`/tokens/${t}`, '', l10n.t('a token'), (o) => typeof o.token_id === 'string', options);
  }

  /** One topic (`GET /topics/{id}`). */
  async topic(id: string, options?: RequestOptions): Promise<MirrorObject | null> {
    const t = unwrap(checkEntityId(id, l10n.t('a topic id')));
    return this.one(`/topics/${t}`, '', l10n.t('a topic'), (o) => typeof o.topic_id === 'string', options);
  }

  private async one(
    path: string,
    query: string,
    what: string,
    valid: (o: MirrorObject) => boolean,
    options?: RequestOptions,
  ): Promise<MirrorObject | null> {
    const res = await this.http.get<unknown>(this.mirror.apiUrl(path, query), { ...options, acceptStatus: [404] });
    if (res.status === 404) return null;
    if (!isObject(res.data) || !valid(res.data)) {
      throw new ApiError({
        kind: 'malformed',
        message: l10n.t(
          '{0} sent an answer without {1}; it may not be a mirror node.',
          hostOf(res.url) ?? l10n.t('The mirror node'),
          what,
        ),
        url: res.url,
      });
    }
    return res.data;
  }
}
