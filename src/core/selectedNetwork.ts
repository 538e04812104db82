/**
 * The clients of the selected network, rebuilt when a setting that shapes them changes. Views and commands
 * take their clients from here and listen to `onDidChange` to refresh.
 */
import vscode = require('vscode');
import { HttpClient } from '../api/http';
import { MirrorClient } from '../api/mirror';
import type { NetworkProfile } from '../api/networks';
import { StatusClient } from '../api/status';
import { VerifyClient } from '../api/verify';
import type { ExtensionLog } from './log';
import { currentProfile, SECTION, timeoutMs } from './settings';

export interface Clients {
  profile: NetworkProfile;
  http: HttpClient;
  mirror: MirrorClient;
  status: StatusClient;
  verify: VerifyClient;
}

export class SelectedNetwork implements vscode.Disposable {
  private current: Clients | undefined;
  private readonly changed = new vscode.EventEmitter<Clients>();
  /** Fires after the network or the HTTP settings changed. */
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly log: ExtensionLog, private readonly userAgent: string) {
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(`${SECTION}.network`) || e.affectsConfiguration(`${SECTION}.custom`) || e.affectsConfiguration(`${SECTION}.sandbox`) || e.affectsConfiguration(`${SECTION}.http`)) {
        this.current = undefined;
        const next = this.clients;
        this.log.info(`Network: ${next.profile.label} (mirror ${next.profile.mirrorUrl}, chain ${next.profile.chainId})`);
        this.changed.fire(next);
      }
    });
  }

  /** The clients, created on first use (nothing is built during activation). */
  get clients(): Clients {
    if (!this.current) {
      const profile = currentProfile();
      const http = new HttpClient({ timeoutMs: timeoutMs(), userAgent: this.userAgent, log: this.log });
      this.current = {
        profile,
        http,
        mirror: new MirrorClient(profile.mirrorUrl, http),
        status: new StatusClient(profile.statusUrl, http),
        verify: new VerifyClient(profile.verifyUrl, http),
      };
    }
    return this.current;
  }

  get profile(): NetworkProfile {
    return this.clients.profile;
  }

  dispose(): void {
    this.subscription.dispose();
    this.changed.dispose();
  }
}
