/**
 * The "Call <Contract>" webview panel: a contract's read functions (view, pure) and the others, simulated, each with
 * typed inputs; a call goes to the mirror node's `POST /api/v1/contracts/call` (nothing is signed or sent to the
 * network) at the block chosen, and its result or revert is decoded by the ABI with every digit; a simulated call
 * gets its gas estimate too. Each call is kept in the workspace's history (history.ts), shown in the panel of its
 * contract, where it can be run again, copied as `curl` or a viem snippet, and pinned.
 *
 * The one panel host's (src/ui/webviewPanel.ts): strict CSP, a ready handshake, every message from the page checked
 * by protocol.ts. One panel per contract (its EVM address), restored after a reload by looking the contract up again.
 */
import * as vscode from 'vscode';
import { contractCallBody, curlOf } from '../../api/contractCall';
import { type AbiItem, signatureOf } from '../../api/decode/abiFiles';
import type { DecodedValue } from '../../api/decode/abi';
import { decoders } from '../../api/decode/lazy';
import { isApiError } from '../../api/errors';
import { tinybarsToHbar } from '../../api/format';
import { trimBase } from '../../api/networks';
import { oneLine } from '../../api/text';
import { copyText } from '../../ui/actions';
import { type PageShell, type PanelChannel, PanelHost } from '../../ui/webviewPanel';
import type { FeatureContext } from '../context';
import { addKept, type KeptCall, keptFor, readKept, setPinned } from './history';
import {
  type CallRequest,
  type FirstState,
  type FromWebview,
  type FunctionFocus,
  type FunctionView,
  type HistoryView,
  type OutcomeView,
  parsePanelState,
  parseWebviewMessage,
  type PanelState,
  type ToWebview,
  type ValueLine,
  type ViewState,
} from './protocol';
import { type CallTarget, findTarget } from './target';
import { checkBlockChoice, hbarToTinybars } from '../../api/callValues';
import type { OpcodesResponse } from '../../api/mirrorTypes';
import type { SimulationAnswer, SimulationCall } from '../../api/replay';
import { loadReplay } from '../../api/source/stepTrace';
import { type InspectorPanel, inspectSimulation } from '../inspector';

const HISTORY_KEY = 'hederaExplorer.contractCall.history';

/** What a panel did, for an observer (the test seam; none in normal use). */
export type CallPanelEvent =
  | { kind: 'copied'; text: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'rendered'; key: string; status: string; text: string };

/** The panels' effects outside the editor area: the clipboard; an observer in test mode. */
export interface CallPanelEffects {
  copy(text: string, what: string): Promise<void>;
  observe?(panel: ContractCallPanel, event: CallPanelEvent): void;
}

export const systemEffects: CallPanelEffects = { copy: (text, what) => copyText(text, what) };

/** Set by the test seam (test mode only) before any panel exists. */
let testEffects: CallPanelEffects | undefined;
export function useTestEffects(e: CallPanelEffects): void {
  testEffects = e;
}

/** Decoded values as lines, nested ones after their parent. */
export function valueLines(values: readonly DecodedValue[] | undefined, depth = 0, out: ValueLine[] = []): ValueLine[] {
  for (const v of values ?? []) {
    out.push({ depth, name: v.name, type: v.type, value: v.value });
    if (v.children) valueLines(v.children, depth + 1, out);
  }
  return out;
}

/** An error as the panel says it: the sentence, a way forward, the server's own words. */
export function errorView(e: unknown, network: string): NonNullable<OutcomeView['error']> {
  if (!isApiError(e)) return { message: e instanceof Error ? e.message : String(e), serverMessages: [] };
  const serverMessages = e.serverMessages.filter((m) => !e.message.includes(m));
  const forward =
    e.kind !== 'http'
      ? undefined
      : e.status === 400
        ? vscode.l10n.t('Check the inputs, the sender and the block against what the mirror node said.')
        : e.status === 404
          ? vscode.l10n.t(
              'The mirror node of {0} knows no such contract or sender: check them, or select the network the contract is on.',
              network,
            )
          : e.status === 415
            ? vscode.l10n.t(
                'The call was sent as JSON: something between the extension and the mirror node changed it (a proxy?).',
              )
            : undefined;
  return { message: e.message, ...(forward ? { forward } : {}), serverMessages };
}

export class ContractCallPanel implements vscode.Disposable {
  readonly key: string;
  private target: CallTarget | undefined;
  private failure: string | undefined;
  private readonly outcomes = new Map<string, OutcomeView>();
  private readonly channel: PanelChannel<FromWebview, ToWebview>;
  private readonly disposables: vscode.Disposable[] = [];
  private running: Promise<void> = Promise.resolve();
  /** The functions' views of the current target, made once (a contract may have hundreds). */
  private functionViews: { target: CallTarget; views: FunctionView[] } | undefined;
  /** Each simulated call's request and the mirror node's answer, for its local run (Open in Inspector). */
  private readonly simulations = new Map<string, { call: SimulationCall; answer: SimulationAnswer; label: string }>();
  /** The page has the current target's functions: an update leaves them out (a call's updates carry the outcome). */
  private functionsSent = false;
  /** The history's version the page has (ContractCallPanels.historyVersion): an update leaves it out when current. */
  private historySent = -1;
  /** The page's HTML holds its first state, and the page has not said it is ready yet. */
  private stateInHtml = false;
  /** A function to show first once the page listens (a function lens's, while the page was not ready). */
  private pendingFocus: string | undefined;
  /** A function a lens asked for while the contract was being looked up (by name, resolved when it is found). */
  private focusAsked: FunctionFocus | undefined;

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly owner: ContractCallPanels,
    readonly address: string,
    target: CallTarget | undefined,
    focus?: FunctionFocus,
  ) {
    this.key = address;
    this.target = target;
    const focusKey = focus ? this.keyOf(focus) : undefined;
    if (focusKey) this.pendingFocus = focusKey;
    this.channel = owner.host.channel<FromWebview, ToWebview>(panel, `Contract call ${address}`, parseWebviewMessage, {
      handle: (m) => this.handle(m),
      refused: (reason) => owner.effects.observe?.(this, { kind: 'refused', reason }),
    });
    // a known contract's state goes in the page's HTML: its forms are drawn before its `ready` has gone round
    this.channel.open(this, this.title(), this.shell(target ? this.firstState() : undefined));
    this.disposables.push(
      owner.ctx.network.onDidChange(() => void this.lookUp()),
      owner.onDidChangeHistory(() => this.update()),
    );
    if (!target) void this.lookUp();
    else if (focus && !focusKey) this.notInAbi(focus);
  }

  /** The state the page's HTML holds; the page has it when it says it is ready for the first time. */
  private firstState(): FirstState {
    const version = this.owner.historyVersion;
    const state: FirstState = { ...this.viewState(), ...(this.pendingFocus ? { focus: this.pendingFocus } : {}) };
    this.pendingFocus = undefined;
    this.functionsSent = true;
    this.historySent = version;
    this.stateInHtml = true;
    return state;
  }

  /** The key of the ABI's function a lens names (by name, and by number of inputs among overloads). */
  private keyOf(focus: FunctionFocus): string | undefined {
    const named = this.views().filter((v) => v.name === focus.name);
    return (named.find((v) => v.inputs.length === focus.inputs) ?? named[0])?.key;
  }

  /** Shows a function first: scrolled to, its first field (or its button) focused; when the page listens. */
  focusFunction(focus: FunctionFocus): void {
    if (!this.target) {
      this.focusAsked = focus; // the contract is being looked up (a restored panel, another network): once it is found
      return;
    }
    const key = this.keyOf(focus);
    if (!key) return this.notInAbi(focus);
    if (!this.channel.post({ type: 'focus', key })) this.pendingFocus = key;
  }

  /** A lens named a function the ABI lacks (the source changed since the deployment, or another build): said. */
  private notInAbi(focus: FunctionFocus): void {
    const name = this.target?.name ?? this.address;
    this.owner.effects.observe?.(this, { kind: 'refused', reason: `focus: no function ${focus.name.slice(0, 60)}` });
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        '{0} has no function {1} in the ABI the panel uses: the deployed contract may be an older build than the source.',
        name,
        focus.name,
      ),
    );
  }

  private title(): string {
    return vscode.l10n.t('Call {0}', this.target?.name ?? this.address);
  }

  /** Looks the contract and its ABI up again (a restored panel, another network). */
  async lookUp(): Promise<void> {
    this.target = undefined;
    this.failure = undefined;
    this.functionsSent = false;
    this.historySent = -1;
    this.outcomes.clear();
    this.simulations.clear();
    this.update();
    const found = await findTarget(this.owner.ctx, this.address);
    if (found.ok) this.target = found.target;
    else this.failure = found.message;
    this.panel.title = this.title();
    this.functionsSent = false;
    this.update();
    // a function asked for while the contract was being looked up again
    const asked = this.focusAsked;
    this.focusAsked = undefined;
    if (asked && this.target) this.focusFunction(asked);
  }

  get functions(): AbiItem[] {
    return (this.target?.abi ?? []).filter((i) => i.type === 'function');
  }

  private views(): FunctionView[] {
    const t = this.target;
    if (!t) return [];
    if (this.functionViews?.target === t) return this.functionViews.views;
    const d = decoders();
    const views: FunctionView[] = this.functions.map((item) => ({
      key: signatureOf(item),
      name: item.name,
      read: d.isReadOnly(item),
      payable: item.stateMutability === 'payable',
      inputs: item.inputs.map((p, i) => ({
        name: p.name || `#${i + 1}`,
        type: p.type,
        placeholder: d.placeholderOf(p),
        param: p,
      })),
      outputs: `(${(item.outputs ?? []).map((o) => (o.name ? `${o.type} ${o.name}` : o.type)).join(', ')})`,
    }));
    views.sort((a, b) => Number(b.read) - Number(a.read));
    this.functionViews = { target: t, views };
    return views;
  }

  /** What the page shows; `withHistory` false: the history left empty (the page has it). */
  viewState(withHistory = true): ViewState {
    const t = this.target;
    const profile = this.owner.ctx.network.profile;
    const functions = this.views();
    const history: HistoryView[] = !withHistory
      ? []
      : keptFor(this.owner.kept(), profile.mirrorUrl, this.address).map((c) => ({
          id: c.id,
          at: new Date(c.at).toISOString(),
          key: c.signature,
          name: c.signature.slice(0, c.signature.indexOf('(')),
          inputs: c.inputs.map((x) => oneLine(x, 120)),
          block: c.blockNumber && c.blockNumber !== c.block ? `${c.block} → ${c.blockNumber}` : c.block,
          status: c.outcome.status,
          summary: c.outcome.summary,
          pinned: c.pinned,
          ...(c.value && c.value !== '0' ? { value: tinybarsToHbar(c.value) } : {}),
          ...(c.from ? { from: c.from } : {}),
        }));
    return {
      status: t ? 'ready' : this.failure ? 'failed' : 'loading',
      ...(this.failure ? { message: this.failure } : {}),
      contract: { name: t?.name ?? this.address, ...(t?.id ? { id: t.id } : {}), address: this.address },
      network: profile.label,
      ...(t ? { source: t.source } : {}),
      functions,
      outcomes: Object.fromEntries(this.outcomes),
      history,
    };
  }

  private update(extra: { reportRendered?: true } = {}): void {
    const version = this.owner.historyVersion;
    const { functions, history, ...rest } = this.viewState(version !== this.historySent);
    const state = {
      ...rest,
      ...(this.functionsSent ? {} : { functions }),
      ...(version !== this.historySent ? { history } : {}),
    };
    if (this.channel.post({ type: 'update', state, ...extra })) {
      this.functionsSent = true;
      this.historySent = version;
    }
  }

  receive(raw: unknown): Promise<void> {
    return this.channel.receive(raw);
  }

  /** Test mode only: the page clicks a function's button (or presses Enter in its field); false when not posted. */
  press(key: string, how: 'click' | 'enter', inputs: string[] = []): boolean {
    if (!this.owner.effects.observe) return false;
    return this.channel.post({ type: 'press', key, how, inputs });
  }

  /** Resolves when the calls asked for so far have ended. */
  idle(): Promise<void> {
    return this.running;
  }

  private async handle(m: FromWebview): Promise<void> {
    switch (m.type) {
      case 'ready':
        // the first page drew the state of its HTML; a later one (a reload, or shown again) draws what is sent now
        if (!this.stateInHtml || !m.drewFirst) {
          this.functionsSent = false;
          this.historySent = -1;
        }
        this.stateInHtml = false;
        this.update(this.owner.effects.observe ? { reportRendered: true } : {});
        if (this.pendingFocus && this.channel.post({ type: 'focus', key: this.pendingFocus }))
          this.pendingFocus = undefined;
        return;
      case 'call':
        return this.call(m);
      case 'history':
        return this.historyAction(m.action, m.id);
      case 'inspect':
        await this.inspect(m.key);
        return;
      case 'rendered':
        this.owner.effects.observe?.(this, { kind: 'rendered', key: m.key, status: m.status, text: m.text });
        return;
    }
  }

  /** Runs a call (one at a time per panel: a second waits for the first). */
  call(req: CallRequest): Promise<void> {
    const run = this.running.then(() => this.run(req));
    this.running = run.catch(() => undefined);
    return run;
  }

  private async run(req: CallRequest): Promise<void> {
    const t = this.target;
    const item = this.functions.find((f) => signatureOf(f) === req.key);
    if (!t || !item) {
      this.owner.effects.observe?.(this, { kind: 'refused', reason: `call: no function ${req.key.slice(0, 60)}` });
      return;
    }
    const d = decoders();
    const profile = this.owner.ctx.network.profile;
    const read = d.isReadOnly(item);
    this.simulations.delete(req.key);
    const done = async (o: Omit<OutcomeView, 'key'>, kept?: Omit<KeptCall, 'id' | 'at' | 'outcome' | 'pinned'>) => {
      const outcome: OutcomeView = { key: req.key, ...o };
      this.outcomes.set(req.key, outcome);
      // kept first: the page is updated once, with the outcome and the history that holds it
      if (kept && o.status !== 'running') await this.owner.keep({ ...kept, outcome: summaryOf(outcome) });
      else this.update();
    };
    const inputError = (message: string) => done({ status: 'error', error: { message, serverMessages: [] } });
    const data = d.encodeCallData(item, req.inputs);
    if (!data.ok) return inputError(data.message);
    const block = checkBlockChoice(req.block);
    if (!block.ok) return inputError(block.message);
    const value = read ? { ok: true as const, value: 0n } : hbarToTinybars(req.value);
    if (!value.ok) return inputError(value.message);
    const from = read ? '' : req.from.trim();
    await done({ status: 'running' });
    const mirror = this.owner.ctx.network.clients.mirror;
    let blockNumber: string | undefined;
    let blockText = vscode.l10n.t('latest block');
    const base = {
      network: profile.name,
      mirrorUrl: profile.mirrorUrl,
      address: t.address,
      ...(t.id ? { contractId: t.id } : {}),
      contractName: t.name,
      signature: req.key,
      readOnly: read,
      inputs: req.inputs,
      block: req.block.trim() || 'latest',
      ...(from ? { from } : {}),
      ...(value.value > 0n ? { value: value.value.toString() } : {}),
    };
    try {
      if (block.value.kind === 'number') {
        blockNumber = block.value.number;
        blockText = vscode.l10n.t('block {0}', blockNumber);
      } else if (block.value.kind === 'time') {
        const b = await mirror.blockAt(block.value.timestamp);
        if (!b)
          return done(
            {
              status: 'error',
              error: {
                message: vscode.l10n.t(
                  'No block at or before {0} on {1}: choose a later time.',
                  block.value.timestamp,
                  profile.label,
                ),
                serverMessages: [],
              },
            },
            base,
          );
        blockNumber = b.number.toString();
        blockText = vscode.l10n.t('block {0}, the last at or before {1}', blockNumber, block.value.timestamp);
      }
      const params = {
        to: t.address,
        data: data.value,
        ...(from ? { from } : {}),
        ...(value.value > 0n ? { value: value.value } : {}),
        block: blockNumber ?? 'latest',
      };
      const kept = { ...base, ...(blockNumber ? { blockNumber } : {}) };
      const a = await mirror.contractCall(params);
      // a simulated call's answer, which its local run is checked against
      const simulated = (answer: SimulationAnswer): Pick<OutcomeView, 'local'> => {
        if (read) return {};
        this.simulations.set(req.key, {
          call: {
            to: t.address,
            ...(t.id ? { contractId: t.id } : {}),
            data: data.value,
            ...(from ? { from } : {}),
            value: value.value,
            block: blockNumber ? BigInt(blockNumber) : 'latest',
          },
          answer,
          label: `${t.name}.${req.key}`,
        });
        return { local: { status: 'idle' } };
      };
      if (a.kind === 'unavailable')
        return done(
          {
            status: 'error',
            block: blockText,
            error: {
              message: vscode.l10n.t('This mirror node does not serve contract calls (HTTP {0}).', a.status),
              forward: vscode.l10n.t(
                'Select another network, or a mirror node that serves POST /api/v1/contracts/call.',
              ),
              serverMessages: a.serverMessages,
            },
          },
          kept,
        );
      if (a.kind === 'failed') {
        const reg = new d.AbiRegistry([{ source: t.source, contractName: t.name, format: 'abi', abi: t.abi }]);
        const dec = d.decodeError(a.data, reg, undefined, t.address);
        const message = dec?.message ?? (a.detail || vscode.l10n.t('no reason given (the revert data is empty)'));
        return done(
          {
            status: 'reverted',
            block: blockText,
            revert: {
              status: a.name,
              kind: dec?.kind ?? 'empty',
              message,
              ...(dec && 'args' in dec && dec.args ? { args: valueLines(dec.args) } : {}),
            },
            ...(a.data !== '0x' ? { raw: a.data } : {}),
            ...simulated({ kind: 'failed', data: a.data }),
          },
          kept,
        );
      }
      const result = a.result;
      const decoded = d.decodeCallResult(item, result);
      let gas: string | undefined;
      if (!read) {
        try {
          const e = await mirror.contractCall({ ...params, estimate: true });
          gas = e.kind === 'estimate' ? e.gas.toString() : undefined;
        } catch (e) {
          this.owner.ctx.log.warn(`Contract call ${t.address}: no gas estimate: ${isApiError(e) ? e.detail : e}`);
        }
      }
      return done(
        {
          status: 'ok',
          block: blockText,
          values: valueLines(decoded?.values),
          ...(result !== '0x' ? { raw: result } : {}),
          ...(gas ? { gas } : {}),
          ...simulated({ kind: 'result', result, ...(gas ? { estimate: BigInt(gas) } : {}) }),
        },
        kept,
      );
    } catch (e) {
      this.owner.ctx.log.warn(`Contract call ${t.address} ${req.key}: ${isApiError(e) ? e.detail : String(e)}`);
      return done({ status: 'error', block: blockText, error: errorView(e, profile.label) }, base);
    }
  }

  /**
   * Open in Inspector: the simulated call of `key` run again locally (src/api/replay/simulate.ts) against the mirror
   * node's state at its block, and checked against the mirror node's answer. It opens in the inspector only when
   * it matches; otherwise the outcome says why, and no trace is shown as exact.
   */
  async inspect(key: string): Promise<InspectorPanel | undefined> {
    const sim = this.simulations.get(key);
    const outcome = this.outcomes.get(key);
    if (!sim || !outcome) {
      this.owner.effects.observe?.(this, { kind: 'refused', reason: `inspect: no simulated call ${key.slice(0, 60)}` });
      return undefined;
    }
    const set = (local: NonNullable<OutcomeView['local']>) => {
      // a newer call of the function replaced the outcome: its own button is left as it is
      if (this.outcomes.get(key) !== current) return;
      current = { ...current, local };
      this.outcomes.set(key, current);
      this.update();
    };
    let current = outcome;
    set({ status: 'running' });
    const clients = this.owner.ctx.network.clients;
    const network = this.owner.ctx.network.profile.name;
    const mod = loadReplay();
    try {
      const s = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t('Simulating {0} locally…', sim.label),
          cancellable: true,
        },
        (_progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          return mod.simulateCall(clients.mirror, clients.http, sim.call, { signal: controller.signal });
        },
      );
      const verdict = mod.checkSimulation(s.execution, sim.call.data, sim.answer);
      this.owner.ctx.log.info(
        `Contract call: ${sim.label} simulated locally: ${verdict.summary} (${s.stats.steps} steps, ${s.stats.requests} requests)`,
      );
      if (!verdict.matches) {
        set({ status: 'differs', message: vscode.l10n.t('{0} No trace is shown as exact.', verdict.summary) });
        return undefined;
      }
      const label = vscode.l10n.t('{0} at block {1}', sim.label, s.block.number.toString());
      const trace = { trace: s.execution.opcodes as OpcodesResponse, verdict, stats: s.stats };
      const panel = inspectSimulation({
        id: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
        label,
        network,
        before: s.block.before,
        result: s.result,
        actions: s.execution.actions,
        trace: { replay: trace, use: { by: 'replay', ...trace } },
        tracedBy: {
          by: 'replay',
          matches: true,
          text: vscode.l10n.t(
            "Simulated locally · matches the mirror node's answer ({0} calls)",
            String(verdict.calls),
          ),
        },
        note: vscode.l10n.t(
          "Simulated locally on the mirror node's state at the end of block {0}, and checked against the mirror node's answer: nothing was signed or sent to the network.",
          s.block.number.toString(),
        ),
      });
      set({ status: 'opened', message: verdict.summary });
      return panel;
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      this.owner.ctx.log.warn(`Contract call: ${sim.label} could not be simulated locally: ${why}`);
      set({ status: 'failed', message: vscode.l10n.t('The call could not be run locally: {0}', oneLine(why, 300)) });
      return undefined;
    }
  }

  private async historyAction(action: string, id: string): Promise<void> {
    const c = this.owner.kept().find((x) => x.id === id);
    if (!c) return;
    if (action === 'pin' || action === 'unpin') return this.owner.pin(id, action === 'pin');
    const item = this.functions.find((f) => signatureOf(f) === c.signature);
    if (!item || !this.target) return;
    const value = c.value ? tinybarsToHbar(c.value) : '';
    if (action === 'rerun')
      return this.call({ key: c.signature, inputs: c.inputs, block: c.block, from: c.from ?? '', value });
    const d = decoders();
    const data = d.encodeCallData(item, c.inputs);
    if (!data.ok) return;
    const opts = {
      ...(c.from ? { from: c.from } : {}),
      ...(c.value ? { value: BigInt(c.value) } : {}),
      ...(c.blockNumber ? { block: c.blockNumber } : {}),
    };
    const text =
      action === 'copyCurl'
        ? curlOf(
            `${trimBase(c.mirrorUrl)}/api/v1/contracts/call`,
            contractCallBody({ to: c.address, data: data.value, ...opts }),
          )
        : d.callSnippetOf(action === 'copyEthers' ? 'ethers' : 'viem', item, c.address, data.value, {
            ...opts,
            mirrorUrl: c.mirrorUrl,
          });
    this.owner.effects.observe?.(this, { kind: 'copied', text });
    await this.owner.effects.copy(
      text,
      action === 'copyCurl'
        ? vscode.l10n.t('curl command')
        : action === 'copyEthers'
          ? vscode.l10n.t('ethers snippet')
          : vscode.l10n.t('viem snippet'),
    );
  }

  reveal(): void {
    this.channel.reveal();
  }

  dispose(): void {
    this.owner.host.forget(this);
    for (const d of this.disposables) d.dispose();
    this.channel.dispose();
  }

  /** The page's static markup: translations only (escaped), no server text. */
  private shell(state: FirstState | undefined): PageShell {
    const x = (text: string) =>
      text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    return {
      bundle: 'contractCall.main',
      title: x(vscode.l10n.t('Call contract')),
      body: `<main id="app">
  <header>
    <h1><span class="codicon codicon-symbol-method" aria-hidden="true"></span> <span id="heading"></span> <span id="network" class="badge"></span></h1>
    <p id="address" class="muted"></p>
    <p class="banner info" role="note"><span class="codicon codicon-shield" aria-hidden="true"></span> <span>${x(vscode.l10n.t('Calls run on the mirror node (POST /api/v1/contracts/call): nothing is signed, and nothing is sent to the network.'))}</span></p>
    <p id="source" class="muted"></p>
  </header>
  <p id="loading" class="muted">${x(vscode.l10n.t('Looking the contract and its ABI up…'))}</p>
  <p id="failed" class="banner error" role="alert" hidden></p>
  <section id="common" class="common" hidden aria-label="${x(vscode.l10n.t('Call settings'))}">
    <label for="block">${x(vscode.l10n.t('Block'))}</label>
    <input id="block" type="text" spellcheck="false" value="latest" placeholder="${x(vscode.l10n.t('latest, 1234, 1700000000.0 or 2026-11-20T10:00:00Z'))}" aria-describedby="blockError">
    <span id="blockError" class="field-error" role="alert"></span>
    <label for="from">${x(vscode.l10n.t('Sender (simulations)'))}</label>
    <input id="from" type="text" spellcheck="false" placeholder="${x(vscode.l10n.t('0.0.1234 or 0x… (default: the zero address)'))}" aria-describedby="fromError">
    <span id="fromError" class="field-error" role="alert"></span>
    <label for="value">${x(vscode.l10n.t('Value sent (ℏ, HBAR; payable functions)'))}</label>
    <input id="value" type="text" spellcheck="false" placeholder="0" aria-describedby="valueError">
    <span id="valueError" class="field-error" role="alert"></span>
  </section>
  <h2 id="readHeading" hidden>${x(vscode.l10n.t('Read'))}</h2>
  <div id="read" class="functions"></div>
  <h2 id="simulateHeading" hidden>${x(vscode.l10n.t('Simulate'))}</h2>
  <div id="simulate" class="functions"></div>
  <h2 id="historyHeading" hidden>${x(vscode.l10n.t('History'))}</h2>
  <ol id="history" class="history"></ol>
</main>`,
      ...(state ? { state } : {}),
    };
  }
}

/** One line of an outcome for the history. */
export function summaryOf(o: OutcomeView): KeptCall['outcome'] {
  if (o.status === 'ok')
    return {
      status: 'ok',
      summary: oneLine(
        [
          o.values
            ?.filter((v) => v.depth === 0)
            .map((v) => v.value)
            .join(', ') ?? '',
          o.gas ? `gas ${o.gas}` : '',
        ]
          .filter(Boolean)
          .join(' · ') || '()',
        300,
      ),
    };
  if (o.status === 'reverted')
    return { status: 'reverted', summary: oneLine(`${o.revert?.status ?? ''}: ${o.revert?.message ?? ''}`, 300) };
  return { status: 'error', summary: oneLine(o.error?.message ?? '', 300) };
}

/** Every call panel, and the workspace's kept calls. */
export class ContractCallPanels implements vscode.Disposable {
  readonly host: PanelHost<ContractCallPanel>;
  readonly effects: CallPanelEffects;
  private readonly historyChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeHistory = this.historyChanged.event;
  /** The kept calls as last read or saved (checked once, not on every update). */
  private keptCache: KeptCall[] | undefined;
  /** Counts the history's changes: a page is sent the history only when it has an older one. */
  historyVersion = 0;

  /** `viewType`: the panels' webview type (index.ts registers their serializer). */
  constructor(
    readonly ctx: FeatureContext,
    viewType: string,
  ) {
    this.effects = testEffects ?? systemEffects;
    this.host = new PanelHost(ctx.extension.extensionUri, ctx.log, { viewType, label: 'Contract call' });
  }

  /** Opens (or focuses) the panel of a contract found (target.ts). */
  show(target: CallTarget, focus?: FunctionFocus): ContractCallPanel {
    const { panel, created } = this.host.show(
      target.address,
      vscode.l10n.t('Call {0}', target.name),
      (panel) => new ContractCallPanel(panel, this, target.address, target, focus),
    );
    if (!created && focus) panel.focusFunction(focus);
    return panel;
  }

  async revive(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    this.host.revive(
      panel,
      parsePanelState(state),
      (s: PanelState) => s.address,
      (p, s) => new ContractCallPanel(p, this, s.address, undefined),
    );
  }

  get(address: string): ContractCallPanel | undefined {
    return this.host.get(address);
  }

  list(): ContractCallPanel[] {
    return this.host.list();
  }

  kept(): KeptCall[] {
    this.keptCache ??= readKept(this.ctx.extension.workspaceState.get(HISTORY_KEY));
    return this.keptCache;
  }

  async keep(call: Omit<KeptCall, 'id' | 'at' | 'pinned'>): Promise<void> {
    const id = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    await this.save(addKept(this.kept(), { ...call, id, at: Date.now(), pinned: false }));
  }

  async pin(id: string, pinned: boolean): Promise<void> {
    await this.save(setPinned(this.kept(), id, pinned));
  }

  async clearHistory(): Promise<void> {
    await this.save([]);
  }

  private async save(calls: KeptCall[]): Promise<void> {
    // the memento holds the new list at once: the pages are updated without waiting for it to be written
    const written = this.ctx.extension.workspaceState.update(HISTORY_KEY, calls);
    this.keptCache = calls;
    this.historyVersion++;
    this.historyChanged.fire();
    await written;
  }

  dispose(): void {
    this.host.dispose();
    this.historyChanged.dispose();
  }
}
