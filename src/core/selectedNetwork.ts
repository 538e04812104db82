/**
 * The clients of the selected network, rebuilt when a setting that shapes them changes. Views and commands
 * take their clients from here and listen to `onDidChange` to refresh.
 */
import * as vscode from 'vscode';
import type { Clients } from '../api/clients';
import type { NetworkName, NetworkProfile } from '../api/networks';
import { isUnreachable } from '../api/reach';
import { ContextKey, setContext } from './contextKeys';
import type { ExtensionLog } from './log';
import { currentProfile, profileOf, SECTION, timeoutMs } from './settings';

export type { Clients };

/** Set to the selected network's name while its mirror node cannot be reached (false otherwise): the views' welcome. */

export class SelectedNetwork implements vscode.Disposable {
  private current: Clients | undefined;
  private currentProfile: NetworkProfile | undefined;
  private readonly changed = new vscode.EventEmitter<Clients>();
  /** Fires after the network or the HTTP settings changed. */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  /** Clients of networks other than the selected one (a panel opened on another network), by name. */
  private readonly others = new Map<NetworkName, Clients>();
  private unreachableError: unknown;
  private readonly reachability = new vscode.EventEmitter<void>();
  /** Fires when the selected network became unreachable or reachable again. */
  readonly onDidChangeReachability = this.reachability.event;
  private readonly retried = new vscode.EventEmitter<void>();
  /** Fires when the user asked to try the network again (the views that failed load again). */
  readonly onDidRequestRetry = this.retried.event;

  constructor(
    private readonly log: ExtensionLog,
    private readonly userAgent: string,
  ) {
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (
        e.affectsConfiguration(`${SECTION}.network`) ||
        e.affectsConfiguration(`${SECTION}.custom`) ||
        e.affectsConfiguration(`${SECTION}.http`)
      ) {
        this.current = undefined;
        this.currentProfile = undefined;
        this.others.clear();
        this.setUnreachable(undefined, false); // the views reload for the new network anyway
        const next = this.clients;
        this.log.info(
          `Network: ${next.profile.label} (mirror ${next.profile.mirrorUrl}, chain ${next.profile.chainId})`,
        );
        this.changed.fire(next);
      }
    });
  }

  /** The clients, created on first use (their code loads then: nothing is built or loaded during activation). */
  get clients(): Clients {
    if (!this.current) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy entry (LAZY_ENTRIES in esbuild.js): the clients load with the first request
      const { createClients } = require('../api/clients') as typeof import('../api/clients');
      this.current = createClients(this.profile, { timeoutMs: timeoutMs(), userAgent: this.userAgent, log: this.log });
    }
    return this.current;
  }

  /**
   * The clients of a network by name: the selected network's own, or clients of another network (a panel that
   * stays on the network it was opened on), created on first use and rebuilt when the settings change.
   */
  clientsFor(name: NetworkName): Clients {
    if (name === this.profile.name) return this.clients;
    let c = this.others.get(name);
    if (!c) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- lazy entry (LAZY_ENTRIES in esbuild.js)
      const { createClients } = require('../api/clients') as typeof import('../api/clients');
      c = createClients(profileOf(name), { timeoutMs: timeoutMs(), userAgent: this.userAgent, log: this.log });
      this.others.set(name, c);
    }
    return c;
  }

  /** The selected network's profile, read from the settings (cheap: no client is built). */
  get profile(): NetworkProfile {
    return (this.currentProfile ??= currentProfile());
  }

  /** The failure that showed the selected network's mirror node cannot be reached, while that lasts. */
  get unreachable(): unknown {
    return this.unreachableError;
  }

  /**
   * A view's load failed: when no server answered at the selected network's mirror node, the network is
   * unreachable (the views show its welcome: Select Network, Retry, Open Settings). True if it counted.
   */
  reportFailure(error: unknown): boolean {
    if (!isUnreachable(error, this.profile.mirrorUrl)) return false;
    if (this.unreachableError === undefined) this.log.warn(`Network ${this.profile.label} unreachable`);
    this.setUnreachable(error);
    return true;
  }

  /** A view's load succeeded: the network answers. */
  reportReachable(): void {
    if (this.unreachableError !== undefined) this.log.info(`Network ${this.profile.label} reachable again`);
    this.setUnreachable(undefined);
  }

  /** Try the network again: forget that it was unreachable and ask the views that failed to load again. */
  retry(): void {
    this.setUnreachable(undefined, false); // the retry below is the views' one load, not a second on "reachable"
    this.retried.fire();
  }

  private setUnreachable(error: unknown, fire = true): void {
    const was = this.unreachableError !== undefined;
    this.unreachableError = error;
    const now = error !== undefined;
    if (!was && !now) return;
    setContext(ContextKey.unreachable, now ? this.profile.name : false);
    if (was !== now && fire) this.reachability.fire();
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
    this.reachability.dispose();
    this.retried.dispose();
  }
}
