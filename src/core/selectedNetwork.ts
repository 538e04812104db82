/**
 * The clients of the selected network, rebuilt when a setting that shapes them changes. Views and commands
 * take their clients from here and listen to `onDidChange` to refresh.
 */
import * as vscode from 'vscode';
import type { Clients } from '../api/clients';
import type { NetworkName, NetworkProfile } from '../api/networks';
import type { ExtensionLog } from './log';
import { currentProfile, profileOf, SECTION, timeoutMs } from './settings';

export type { Clients };

export class SelectedNetwork implements vscode.Disposable {
  private current: Clients | undefined;
  private currentProfile: NetworkProfile | undefined;
  private readonly changed = new vscode.EventEmitter<Clients>();
  /** Fires after the network or the HTTP settings changed. */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  /** Clients of networks other than the selected one (a panel opened on another network), by name. */
  private readonly others = new Map<NetworkName, Clients>();

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

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
