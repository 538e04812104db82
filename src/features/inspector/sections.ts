/**
 * The inspector's sections from the loader's sources: each section is built (decoded) when its source changed or
 * what decodes it changed, and cached until then. Decoding uses the workspace's ABIs and deployment records (the
 * ABI index), the Sourcify ABIs of the contracts in the transaction (asked for once per contract and network, only
 * when something is not decoded otherwise), Hedera's system contracts and the standard token events
 * (src/api/inspect), and the contracts' storage layouts from the workspace's build.
 */
import * as vscode from 'vscode';
import type { AbiRegistry } from '../../api/decode';
import { sourcifyRegistry } from '../../api/decode/abi';
import type { SourcifyAbiCache } from '../../api/decode/sourcifyAbi';
import { isApiError } from '../../api/errors';
import { entityIdToEvmAddress, evmAddressToEntityId, isEntityId } from '../../api/validation';
import {
  addressesToLookUp,
  buildEvents,
  buildOverview,
  buildStateChanges,
  buildTrace,
  buildTransfers,
  candidateKeys,
  type InspectContext,
  type StorageLayoutRef,
} from '../../api/inspect/build';
import type { Clients } from '../../api/clients';
import type { StorageLayouts } from './storageLayouts';
import { type LocatedRevert, RevertLocator, type SourceTarget } from './revertSource';
import { parseStorageLayout } from '../../workspace/storageLayout';
import type { FeatureContext } from '../context';
import type { InspectionLoader, SourceId, Sources } from './inspection';
import type { RawSource, SectionData, SectionId, Sections, SectionState } from './protocol';

// the overview reads the actions too: the top-level one says whether the transaction created a contract
const SECTIONS_OF: Record<SourceId, SectionId[]> = {
  result: ['overview', 'source', 'events', 'state'],
  actions: ['overview', 'trace', 'source'],
  transactions: ['overview', 'transfers'],
};
const ALL: SectionId[] = ['overview', 'source', 'trace', 'events', 'state', 'transfers'];

export class SectionBuilder {
  private readonly cache = new Map<SectionId, unknown>();
  private readonly sourcifyRegistries = new Map<string, AbiRegistry>();
  private readonly layouts = new Map<string, StorageLayoutRef | null>();
  private readonly pending = new Set<Promise<unknown>>();
  private disposed = false;
  private lookedUp = new Set<string>();
  private candidateCache: { result: unknown; actions: unknown; aliases: number; keys: string[] } | undefined;
  /** The revert placed in source, for the result and frames it was placed from. */
  private located:
    { result: unknown; actions: unknown; value?: LocatedRevert; error?: string; abort: AbortController } | undefined;
  /** A contract's own EVM address by the long-zero address of its entity id (the mirror node's `/contracts/{id}`). */
  private readonly aliases = new Map<string, string>();
  private readonly aliasAsked = new Set<string>();
  private aliasTask: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: FeatureContext,
    private readonly clients: () => Clients,
    private readonly sourcifyCache: () => SourcifyAbiCache,
    private readonly loader: InspectionLoader,
    private readonly storage: StorageLayouts,
    private readonly locator: RevertLocator,
    private readonly rebuilt: (ids: SectionId[]) => void,
  ) {
    // the workspace's first scan names and decodes more: `idle()` waits for it (its end rebuilds through onDidChange)
    this.track(ctx.abis.scanned());
  }

  private get sources(): Sources {
    return this.loader.sources;
  }

  private sourcify(): SourcifyAbiCache {
    return this.sourcifyCache();
  }

  /** The decoding context as it is now. Addresses are looked up as given and as the contract's own EVM address. */
  private context(): InspectContext {
    const ws = this.ctx.abis.workspace();
    const chainId = this.clients().profile.chainId;
    const deployments = ws.deployments.filter((d) => d.chainId === undefined || d.chainId === chainId);
    const forms = (address: string): string[] => {
      const a = address.toLowerCase();
      const own = this.aliases.get(a);
      return own && own !== a ? [a, own] : [a];
    };
    const first = <T>(address: string, get: (a: string) => T | undefined): T | undefined => {
      for (const a of forms(address)) {
        const v = get(a);
        if (v !== undefined) return v;
      }
      return undefined;
    };
    return {
      registry: ws.registry,
      contractAbi: (address) => first(address, (a) => this.sourcifyRegistries.get(a)),
      nameOf: (address) => first(address, (a) => deployments.find((d) => d.address === a)?.contractName),
      storageLayout: (address) => first(address, (a) => this.layouts.get(a) ?? undefined),
      evmAddressOf: (id) => {
        const longZero = entityIdToEvmAddress(id);
        return longZero.ok ? this.aliases.get(longZero.value) : undefined;
      },
    };
  }

  /**
   * The mirror node names contracts in call frames, logs and state changes by entity id (and a long-zero address):
   * each contract's own EVM address, which deployment records, Sourcify and storage layouts know it by, is read
   * once per contract (`GET /contracts/{id}`), and the sender's alias once (`GET /accounts/{id}`): at most 50 per
   * transaction, 4 at a time.
   */
  private resolveAliases(): Promise<void> {
    const ids = new Map<string, 'contract' | 'account'>();
    const add = (id: unknown, kind: 'contract' | 'account') => {
      if (typeof id !== 'string' || !isEntityId(id) || this.aliasAsked.has(id) || ids.has(id)) return;
      // 0.0.1-0.0.1000 are the network's system accounts and contracts: no EVM address of their own
      if (BigInt(id.split('.')[2]) <= 1000n) return;
      ids.set(id, kind);
    };
    const { result, actions } = this.sources;
    if (result.state === 'ready') {
      const r = result.value.value;
      add(r.contract_id, 'contract');
      for (const l of r.logs ?? []) add(l.contract_id, 'contract');
      for (const c of r.state_changes ?? []) add(c.contract_id, 'contract');
      // the sender: the mirror node sends its long-zero address; its alias (an EVM account) is beside it
      const from = typeof r.from === 'string' ? evmAddressToEntityId(r.from) : undefined;
      if (from) add(from, 'account');
    }
    if (actions.state === 'ready') {
      for (const a of actions.value.actions) {
        if (a.recipient_type === 'CONTRACT') add(a.recipient, 'contract');
        if (a.caller_type === 'ACCOUNT') add(a.caller, 'account');
      }
    }
    const wanted = [...ids.keys()].slice(0, Math.max(0, 50 - this.aliasAsked.size));
    if (!wanted.length) return this.aliasTask;
    for (const id of wanted) this.aliasAsked.add(id);
    const mirror = this.clients().mirror;
    const run = async () => {
      let found = false;
      for (let i = 0; i < wanted.length; i += 4) {
        const batch = wanted.slice(i, i + 4);
        const answers = await Promise.allSettled(
          batch.map((id) => (ids.get(id) === 'account' ? mirror.account(id) : mirror.contract(id))),
        );
        answers.forEach((r, j) => {
          const evm = r.status === 'fulfilled' ? r.value?.evm_address : undefined;
          const longZero = entityIdToEvmAddress(batch[j]);
          if (
            typeof evm === 'string' &&
            /^0x[0-9a-fA-F]{40}$/.test(evm) &&
            longZero.ok &&
            evm.toLowerCase() !== longZero.value
          ) {
            this.aliases.set(longZero.value, evm.toLowerCase());
            found = true;
          }
        });
      }
      if (found && !this.disposed) this.invalidate(ALL);
    };
    this.aliasTask = this.aliasTask.then(run, run);
    this.track(this.aliasTask);
    return this.aliasTask;
  }

  section<K extends SectionId>(id: K): Sections[K] {
    let s = this.cache.get(id) as Sections[K] | undefined;
    if (!s) {
      s = this.build(id);
      this.cache.set(id, s);
    }
    return s;
  }

  all(): Sections {
    return {
      overview: this.section('overview'),
      source: this.section('source'),
      trace: this.section('trace'),
      events: this.section('events'),
      state: this.section('state'),
      transfers: this.section('transfers'),
    };
  }

  /** The places of the Source section (what `openSource` opens). */
  get sourceTargets(): readonly SourceTarget[] {
    return this.located?.value?.targets ?? [];
  }

  /** Looks for the revert in source again (Retry of the Source section). */
  retrySource(): void {
    RevertLocator.forgetRefusal(this.clients().profile.mirrorUrl);
    this.located?.abort.abort();
    this.located = undefined;
    this.invalidate(['source']);
  }

  /**
   * The Source section: once the result and the call frames settled (the frames may be missing), the revert is
   * placed (./revertSource.ts) in the background; the section shows loading until then.
   */
  private sourceSection(): Sections['source'] {
    const { result, actions } = this.sources;
    if (result.state !== 'ready') return this.notReady(result, 'result') as Sections['source'];
    if (actions.state === 'loading' || actions.state === 'idle') return { state: 'loading' };
    const r = result.value.value;
    const acts = actions.state === 'ready' ? actions.value.actions : undefined;
    if (this.located?.result !== r || this.located.actions !== acts) {
      // a placement no longer wanted (the page closed, other frames) stops, its replay included
      this.located?.abort.abort();
      const entry: NonNullable<typeof this.located> = { result: r, actions: acts, abort: new AbortController() };
      this.located = entry;
      const pathRef =
        this.loader.nonce > 0 || !this.loader.transactionId
          ? (r.hash ?? this.loader.transactionId ?? '')
          : this.loader.transactionId;
      const task = this.locator
        .locate(
          {
            result: r,
            actions: acts,
            pathRef,
            transactionId: this.loader.transactionId,
            ...(this.loader.simulation ? { simulated: this.loader.simulation } : {}),
          },
          entry.abort.signal,
        )
        .then(
          (v) => {
            entry.value = v;
          },
          (e: unknown) => {
            entry.error = e instanceof Error ? e.message : String(e);
          },
        )
        .then(() => {
          if (this.located === entry && !this.disposed) this.invalidate(['source']);
        });
      this.track(task);
      return { state: 'loading' };
    }
    if (this.located.error !== undefined)
      return {
        state: 'error',
        message: vscode.l10n.t('The revert could not be placed in source: {0}', this.located.error),
        serverMessages: [],
        retry: true,
      };
    if (!this.located.value) return { state: 'loading' };
    return ready(this.located.value.model);
  }

  /** A source changed: its sections are built again, and what would decode more is looked up. */
  sourceChanged(source: SourceId): void {
    this.invalidate(SECTIONS_OF[source]);
    if (source !== 'actions' && source !== 'result') return;
    // the contracts' own addresses first: records, Sourcify and layouts know them by those
    const aliases = this.resolveAliases();
    this.track(
      aliases.then(() => {
        if (this.disposed) return;
        this.lookUp();
        this.readLayouts();
      }),
    );
  }

  /** The workspace's ABIs or records changed: everything is decoded again. */
  decodingChanged(): void {
    this.invalidate(ALL);
  }

  private invalidate(ids: SectionId[]): void {
    if (this.disposed) return;
    for (const id of ids) this.cache.delete(id);
    this.rebuilt(ids);
  }

  /** The raw answer of a source, for "Raw JSON". */
  raw(source: RawSource): unknown {
    const s =
      source === 'transaction'
        ? this.sources.transactions
        : source === 'actions'
          ? this.sources.actions
          : this.sources.result;
    if (s.state !== 'ready') return undefined;
    if (source === 'actions') return (s.value as { actions: unknown[] }).actions;
    if (source === 'transaction') return { transactions: (s.value as { all: unknown[] }).all };
    return (s.value as { value: unknown }).value;
  }

  get isIdle(): boolean {
    return this.pending.size === 0;
  }

  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private track(p: Promise<unknown>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  /** Asks Sourcify for the ABIs of contracts in the transaction that the workspace does not decode (once each). */
  private lookUp(): void {
    const actions = this.sources.actions.state === 'ready' ? this.sources.actions.value.actions : [];
    const logs = this.sources.result.state === 'ready' ? (this.sources.result.value.value.logs ?? []) : [];
    const result = this.sources.result.state === 'ready' ? this.sources.result.value.value : undefined;
    const wanted = [
      ...new Set(
        addressesToLookUp(actions, logs, this.context(), result).map(
          (a) => this.aliases.get(a.toLowerCase()) ?? a.toLowerCase(),
        ),
      ),
    ].filter((a) => !this.lookedUp.has(a));
    if (!wanted.length) return;
    for (const a of wanted) this.lookedUp.add(a);
    const chainId = this.clients().profile.chainId;
    const cache = this.sourcify();
    const task = (async () => {
      let found = false;
      for (let i = 0; i < wanted.length; i += 4) {
        const batch = wanted.slice(i, i + 4);
        const answers = await Promise.allSettled(batch.map((a) => cache.get(chainId, a)));
        answers.forEach((r, j) => {
          if (r.status === 'fulfilled' && r.value) {
            this.sourcifyRegistries.set(batch[j], sourcifyRegistry(r.value.abi, batch[j], chainId));
            found = true;
          } else if (r.status === 'rejected') {
            this.ctx.log.warn(
              `Inspector: Sourcify lookup of ${batch[j]} failed: ${isApiError(r.reason) ? r.reason.message : String(r.reason)}`,
            );
          }
        });
      }
      if (found && !this.disposed) this.invalidate(['overview', 'trace', 'events']);
    })();
    this.track(task);
  }

  /** Reads the storage layouts of the contracts whose slots changed (workspace build), once each. */
  private readLayouts(): void {
    if (this.sources.result.state !== 'ready') return;
    const addresses = [
      ...new Set(
        (this.sources.result.value.value.state_changes ?? [])
          .map((c) => (c.address ?? '').toLowerCase())
          .filter((a) => /^0x[0-9a-f]{40}$/.test(a))
          .map((a) => this.aliases.get(a) ?? a),
      ),
    ].filter((a) => !this.layouts.has(a));
    if (!addresses.length) return;
    for (const a of addresses) this.layouts.set(a, null);
    const task = (async () => {
      await this.ctx.abis.scanned();
      const ws = this.ctx.abis.workspace();
      let found = false;
      for (const a of addresses) {
        const c = await this.storage.byAddress(a, this.clients().profile.chainId, ws.deployments);
        if (c) {
          this.layouts.set(a, { layout: c.layout, source: `${c.folder}/${c.file}` });
          found = true;
        }
      }
      // not in the workspace's build: the contract's verified sources on Sourcify may have it (at most 10 asked)
      const rest = addresses.filter((a) => !this.layouts.get(a)).slice(0, 10);
      const fromSourcify = await Promise.allSettled(rest.map((a) => this.sourcifyLayout(a)));
      fromSourcify.forEach((r, i) => {
        if (r.status === 'fulfilled' && r.value) {
          this.layouts.set(rest[i], r.value);
          found = true;
        }
      });
      if (found && !this.disposed) this.invalidate(['state']);
    })().catch((e) =>
      this.ctx.log.warn(`Inspector: storage layouts not read: ${e instanceof Error ? e.message : String(e)}`),
    );
    this.track(task);
  }

  /** A verified contract's storage layout from Sourcify v2 (`fields=storageLayout`); undefined when it has none. */
  private async sourcifyLayout(address: string): Promise<StorageLayoutRef | undefined> {
    const c = this.clients();
    const url = `${c.profile.verifyUrl.replace(/\/+$/, '')}/v2/contract/${c.profile.chainId}/${address}?fields=storageLayout`;
    const res = await c.http.get<unknown>(url, { acceptStatus: [404] });
    if (res.status === 404 || !res.data || typeof res.data !== 'object') return undefined;
    const body = res.data as { storageLayout?: unknown; match?: unknown };
    const layout = parseStorageLayout(body.storageLayout);
    return layout
      ? { layout, source: `Sourcify (${typeof body.match === 'string' ? body.match.slice(0, 40) : 'verified'})` }
      : undefined;
  }

  private build<K extends SectionId>(id: K): Sections[K] {
    const ctx = this.context();
    const { result, actions, transactions } = this.sources;
    switch (id) {
      case 'source':
        return this.sourceSection() as Sections[K];
      case 'overview': {
        if (result.state !== 'ready') return this.notReady(result, 'result') as Sections[K];
        const txs = transactions.state === 'ready' ? transactions.value.all : undefined;
        const acts = actions.state === 'ready' ? actions.value.actions : undefined;
        const data = buildOverview(result.value.value, txs, ctx, {
          nonce: this.loader.nonce,
          locale: envLocale(),
          actions: acts,
        });
        return ready(data, result.value.partial ? PARTIAL_RESULT() : undefined) as Sections[K];
      }
      case 'trace': {
        if (actions.state !== 'ready') return this.notReady(actions, 'actions') as Sections[K];
        const a = actions.value;
        // the real server answers an empty list for a transaction recorded without actions (spec actions/empty-result)
        if (!a.actions.length)
          return {
            state: 'error',
            message: MISSING.actions(),
            serverMessages: [],
            retry: true,
            missing: true,
          } as Sections[K];
        const data = buildTrace(a.actions, ctx);
        const notice = a.truncated
          ? vscode.l10n.t('Only the first {0} call frames are shown.', String(a.actions.length))
          : (a.stopped ??
            (a.partial ? vscode.l10n.t('The mirror node sent part of the call trace (HTTP 206).') : undefined));
        return ready(data, notice) as Sections[K];
      }
      case 'events': {
        if (result.state !== 'ready') return this.notReady(result, 'result') as Sections[K];
        return ready(
          buildEvents(result.value.value.logs ?? [], ctx, this.candidates(ctx)),
          result.value.partial ? PARTIAL_RESULT() : undefined,
        ) as Sections[K];
      }
      case 'state': {
        if (result.state !== 'ready') return this.notReady(result, 'result') as Sections[K];
        return ready(
          buildStateChanges(result.value.value.state_changes ?? [], ctx, this.candidates(ctx)),
          result.value.partial ? PARTIAL_RESULT() : undefined,
        ) as Sections[K];
      }
      case 'transfers': {
        if (transactions.state !== 'ready') return this.notReady(transactions, 'transactions') as Sections[K];
        const tx = transactions.value.self;
        if (!tx && this.loader.simulation)
          return {
            state: 'error',
            message: vscode.l10n.t('A simulation has no transaction record: its transfers are not shown.'),
            serverMessages: [],
            retry: false,
            // not a failure: nothing of the kind exists (an information banner, not an error)
            missing: true,
          };
        if (!tx)
          return {
            state: 'error',
            message: vscode.l10n.t('The mirror node sent no record of this transaction among those of its id.'),
            serverMessages: [],
            retry: true,
          };
        const data = buildTransfers(tx);
        // a transaction submitted by a user (nonce 0): its children's transfers happened inside it
        const nonceOf = (t: { nonce: unknown }) => String(t.nonce ?? 0);
        if (nonceOf(tx) === '0') {
          const children = transactions.value.all
            .filter((t) => t !== tx && nonceOf(t) !== '0')
            .slice(0, 50)
            .map((t) => ({
              transactionId: t.transaction_id,
              nonce: nonceOf(t),
              name: t.name ?? '',
              result: t.result ?? '',
              transfers: buildTransfers(t),
            }))
            .filter((c) => c.transfers.transfers.length > 0);
          if (children.length) data.children = children;
        }
        return ready(data) as Sections[K];
      }
    }
    throw new Error(`unknown section ${String(id)}`);
  }

  /** Mapping keys to try for storage slots: addresses and numbers seen in the transaction (once per change of the sources). */
  private candidates(ctx: InspectContext): string[] {
    const { result, actions } = this.sources;
    const r = result.state === 'ready' ? result.value.value : undefined;
    const a = actions.state === 'ready' ? actions.value.actions : undefined;
    if (
      this.candidateCache &&
      this.candidateCache.result === r &&
      this.candidateCache.actions === a &&
      this.candidateCache.aliases === this.aliases.size
    )
      return this.candidateCache.keys;
    const keys = candidateKeys(r, a ?? [], ctx);
    this.candidateCache = { result: r, actions: a, aliases: this.aliases.size, keys };
    return keys;
  }

  private notReady(s: Sources[SourceId], source: SourceId): SectionState<never> {
    switch (s.state) {
      case 'idle':
      case 'loading':
        return { state: 'loading' };
      case 'missing':
        // a 404: the server's words, and a Retry (a transaction just submitted may reach the mirror node in seconds)
        return {
          state: 'error',
          message: MISSING[source](),
          serverMessages: s.serverMessages ?? [],
          retry: true,
          missing: true,
        };
      case 'error': {
        const e = s.error;
        return {
          state: 'error',
          message: e.message,
          serverMessages: e.serverMessages.filter((m) => !e.message.includes(m)),
          retry: e.kind !== 'invalidInput',
        };
      }
      case 'ready':
        return { state: 'loading' };
    }
  }

  dispose(): void {
    this.disposed = true;
    this.located?.abort.abort();
  }
}

const PARTIAL_RESULT = (): string =>
  vscode.l10n.t(
    'The mirror node sent part of this result (HTTP 206): some fields, logs or state changes may be missing.',
  );

const MISSING: Record<SourceId, () => string> = {
  result: () =>
    vscode.l10n.t(
      'The mirror node has no contract result for this transaction: it may not be a contract call, or it is not on this network.',
    ),
  actions: () =>
    vscode.l10n.t(
      'The mirror node has no call trace for this transaction: it was recorded without one (older transactions), or the mirror node does not know it.',
    ),
  transactions: () => vscode.l10n.t('The mirror node has no transaction record for this id.'),
};

function ready<T>(data: T, notice?: string): SectionState<T> {
  return notice ? { state: 'ready', data, notice } : { state: 'ready', data };
}

const envLocale = (): string => vscode.env.language;

export type { SectionData };
