/**
 * Loads what the transaction inspector shows, from three mirror node endpoints: the contract result with its logs
 * and state changes, its call frames (`actions`) and the transaction records of its id. Requests go out in
 * parallel as far as the reference allows:
 * - a transaction id: all three at once (the actions of a child, nonce > 0, by the child's hash once known);
 * - a hash: the result and the actions at once, then the transaction of the result's timestamp, then its id;
 * - a consensus timestamp: the transaction of that timestamp first (it names the id and nonce), then the rest.
 * Each source fails, reports a 404 and retries on its own; a retry of a source re-runs what waited for it.
 * Plain TypeScript (no `vscode`): unit-tested against the sandbox.
 */
import { ApiError, isApiError } from '../../api/errors';
import type { ActionsAnswer, Answer, MirrorClient, NotFoundInfo } from '../../api/mirror';
import type { ContractResultDetails, TransactionDetail } from '../../api/mirrorTypes';
import type { TxRef } from '../../api/txRef';
import type { SimulationPage } from './simulation';

export type SourceId = 'result' | 'actions' | 'transactions';

export type SourceState<T> =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'ready'; value: T }
  /** The mirror node has none (404, with what it said; nothing when it was not asked). */
  | { state: 'missing'; serverMessages?: string[] }
  | { state: 'error'; error: ApiError };

export interface TransactionsValue {
  /** Every transaction of the id (parent and children). */
  all: TransactionDetail[];
  /** The one inspected (the result's timestamp, else the nonce asked for). */
  self?: TransactionDetail;
}

export interface Sources {
  result: SourceState<Answer<ContractResultDetails>>;
  actions: SourceState<ActionsAnswer>;
  transactions: SourceState<TransactionsValue>;
}

const toApiError = (e: unknown): ApiError =>
  isApiError(e) ? e : new ApiError({ kind: 'network', message: e instanceof Error ? e.message : String(e), cause: e });

/** Most call frames read for one transaction (the page stays responsive well past this). */
export const MAX_ACTIONS = 20_000;

export class InspectionLoader {
  readonly sources: Sources = {
    result: { state: 'idle' },
    actions: { state: 'idle' },
    transactions: { state: 'idle' },
  };
  /** The transaction id and nonce, once known (given, or read from the transaction of a timestamp or hash). */
  transactionId: string | undefined;
  nonce: number;
  private readonly controllers = new Map<SourceId, AbortController>();
  private disposed = false;
  /** The consensus timestamp, once known (given, or read from the result). */
  timestamp: string | undefined;
  /** Resolves when the id is known (or cannot be). */
  private idTask: Promise<void> | undefined;
  /** The result's load in flight (or done): what waits for the result's timestamp or hash awaits it. */
  private resultLoad: Promise<void> = Promise.resolve();

  constructor(
    readonly ref: TxRef,
    private readonly mirror: () => MirrorClient,
    private readonly changed: (source: SourceId) => void,
  ) {
    this.transactionId = ref.kind === 'transactionId' ? ref.id : undefined;
    this.nonce = ref.kind === 'transactionId' ? (ref.nonce ?? 0) : 0;
    this.timestamp = ref.kind === 'timestamp' ? ref.timestamp : undefined;
  }

  /** A simulation's sources, given instead of loaded (it has no record to load). */
  simulation: SimulationPage | undefined;

  /** Shows a simulation: its sources are set by `start`, and nothing is loaded. */
  preset(simulation: SimulationPage): void {
    this.simulation = simulation;
  }

  /** Starts every source (a reload: what was shown is replaced as answers arrive). */
  start(): Promise<void> {
    const sim = this.simulation;
    if (sim) {
      this.set('result', { state: 'ready', value: { value: sim.result, partial: false, url: '', tries: 0 } });
      this.set('actions', {
        state: 'ready',
        value: { actions: sim.actions, pages: 0, truncated: false, partial: false },
      });
      this.set('transactions', { state: 'ready', value: { all: [] } });
      return Promise.resolve();
    }
    this.idTask = undefined;
    return Promise.all([this.load('result'), this.load('actions'), this.load('transactions')]).then(() => undefined);
  }

  /** Loads one source again (Retry), and what waited for it. */
  retry(source: SourceId): Promise<void> {
    if (this.simulation) return Promise.resolve();
    const also: SourceId[] = [];
    // what waited for a failed result (a child's actions, a hash's transaction) fails with it: retried with it
    if (source === 'result')
      for (const s of ['actions', 'transactions'] as const) if (this.sources[s].state === 'error') also.push(s);
    if (source !== 'result' && this.sources.result.state === 'error' && (this.ref.kind === 'hash' || this.nonce > 0))
      also.push('result');
    if (this.ref.kind !== 'transactionId' && (source === 'transactions' || also.includes('transactions')))
      this.idTask = undefined;
    return Promise.all([source, ...also].map((s) => this.load(s))).then(() => undefined);
  }

  dispose(): void {
    this.disposed = true;
    for (const c of this.controllers.values()) c.abort();
    this.controllers.clear();
  }

  /** What the mirror node's paths take for this transaction: its id, else its hash. */
  private pathRef(): string | undefined {
    if (this.transactionId) return this.transactionId;
    if (this.ref.kind === 'hash') return this.ref.hash;
    return undefined;
  }

  private set<K extends SourceId>(source: K, state: Sources[K]): void {
    if (this.disposed) return;
    this.sources[source] = state;
    this.changed(source);
  }

  private load(source: SourceId): Promise<void> {
    const p = this.run(source);
    if (source === 'result') this.resultLoad = p;
    return p;
  }

  /** The result, once its load settles (undefined when it failed or there is none). */
  private async settledResult(): Promise<Answer<ContractResultDetails> | undefined> {
    await this.resultLoad;
    const r = this.sources.result;
    if (r.state === 'error') throw r.error;
    return r.state === 'ready' ? r.value : undefined;
  }

  private async run(source: SourceId): Promise<void> {
    this.controllers.get(source)?.abort();
    const controller = new AbortController();
    this.controllers.set(source, controller);
    const signal = controller.signal;
    const current = () => !this.disposed && this.controllers.get(source) === controller && !signal.aborted;
    this.set(source, { state: 'loading' });
    try {
      const next = await this.fetch(source, signal);
      if (current()) this.set(source, next);
    } catch (e) {
      const error = toApiError(e);
      if (current() && error.kind !== 'cancelled') this.set(source, { state: 'error', error });
    } finally {
      if (this.controllers.get(source) === controller) this.controllers.delete(source);
    }
  }

  /** Learns the transaction id (and nonce) of a timestamp or hash reference: once, shared by the sources. */
  private resolveId(signal: AbortSignal): Promise<void> {
    if (this.transactionId || this.ref.kind === 'transactionId') return Promise.resolve();
    this.idTask ??= (async () => {
      let timestamp = this.timestamp;
      // a hash: the result (asked for at the same time) names the timestamp
      if (!timestamp && this.ref.kind === 'hash') timestamp = (await this.settledResult())?.value.timestamp;
      if (!timestamp) return;
      this.timestamp = timestamp;
      const tx = await this.mirror().transactionAt(timestamp, { signal });
      if (tx) {
        this.transactionId = tx.transaction_id;
        this.nonce = typeof tx.nonce === 'number' ? tx.nonce : Number(tx.nonce ?? 0);
      }
    })();
    const task = this.idTask;
    // a failed look-up is tried again by the next source that needs it
    task.catch(() => {
      if (this.idTask === task) this.idTask = undefined;
    });
    return task;
  }

  private async fetch(source: SourceId, signal: AbortSignal): Promise<Sources[SourceId]> {
    const mirror = this.mirror();
    switch (source) {
      case 'result': {
        if (this.ref.kind === 'timestamp') await this.resolveId(signal);
        const ref = this.pathRef();
        if (!ref) return { state: 'missing' };
        const nf: NotFoundInfo = { serverMessages: [] };
        const r = await mirror.contractResultDetails(
          ref,
          this.transactionId ? { nonce: this.nonce } : {},
          { signal },
          nf,
        );
        if (r) this.timestamp ??= r.value.timestamp;
        return r ? { state: 'ready', value: r } : { state: 'missing', serverMessages: nf.serverMessages };
      }
      case 'actions': {
        if (this.ref.kind === 'timestamp') await this.resolveId(signal);
        let ref = this.pathRef();
        // the actions endpoint has no nonce: a child's frames are asked for by the child's hash
        if (this.nonce > 0 && this.transactionId) {
          const r = await this.settledResult();
          ref = r?.value.hash && /^0x[0-9a-fA-F]{64}$/.test(r.value.hash) ? r.value.hash : undefined;
        }
        if (!ref) return { state: 'missing' };
        const nf: NotFoundInfo = { serverMessages: [] };
        const a = await mirror.contractActions(ref, { signal }, { max: MAX_ACTIONS }, nf);
        return a ? { state: 'ready', value: a } : { state: 'missing', serverMessages: nf.serverMessages };
      }
      case 'transactions': {
        await this.resolveId(signal);
        if (!this.transactionId) return { state: 'missing' };
        // a scheduled transaction's id names the schedule's creation and its execution: `?scheduled` picks the execution
        const nf: NotFoundInfo = { serverMessages: [] };
        const all = await mirror.transactionsById(
          this.transactionId,
          this.ref.kind === 'transactionId' && this.ref.scheduled ? { scheduled: true } : {},
          { signal },
          nf,
        );
        if (!all) return { state: 'missing', serverMessages: nf.serverMessages };
        const self =
          (this.timestamp ? all.find((t) => t.consensus_timestamp === this.timestamp) : undefined) ??
          all.find((t) => Number(t.nonce ?? 0) === this.nonce);
        return { state: 'ready', value: { all, self } };
      }
    }
  }
}
