/**
 * What the integration tests read and drive, in one type shared with them (test/integration/helpers.ts). It
 * exists only when VS Code runs the extension's tests (`context.extensionMode === vscode.ExtensionMode.Test`):
 * activate() then adds it to its public API as `testing`; in every other mode there is no such object, and no
 * feature records anything for tests. Each feature builds its own part when `ctx.testMode` is true.
 */
import type * as vscode from 'vscode';
import type { ContextKeyId } from './api/commands';
import type { NetworkProfile } from './api/networks';
import type { registerContractCall } from './features/contractCall';
import type { registerContractResults } from './features/contractResults';
import type { AbiIndex, AbiIndexSeam } from './features/decoding';
import type { registerDeployments } from './features/deployments';
import type { registerInspector } from './features/inspector';
import type { registerLedgerLinks } from './features/ledgerLinks';
import type { registerNftHistory } from './features/nftHistory';
import type { registerSchedules } from './features/schedules';
import type { registerStatus } from './features/status';
import type { registerVerification } from './features/verification';

/** How long the loader's `require` of the extension bundle took: wall time, and main-thread CPU time where known. */
export interface LoadTime {
  readonly wallMs: number;
  readonly cpuMs: number | undefined;
}

type Seam<F extends (...args: never[]) => unknown> = NonNullable<ReturnType<F>>;

export interface TestSeams {
  /** How long activate() took, in ms. */
  readonly activationMs: number;
  /** Loading the bundle, as the loader timed it. */
  readonly load: LoadTime | undefined;
  /** The selected network's profile. */
  profile(): NetworkProfile;
  /** The selected network's name while its mirror node cannot be reached (the context key the welcome reads). */
  unreachable(): string | undefined;
  /** Whether an explorer API key is stored (the key itself is never handed out). */
  hasApiKey(): Promise<boolean>;
  /** The last lines written to the log, secrets already hidden. */
  recentLog(): string[];
  /** The last value the extension gave a context key (undefined: never set in this run). */
  contextKey(key: ContextKeyId): boolean | string | undefined;
  readonly schedules: Seam<typeof registerSchedules>;
  readonly contractResults: Seam<typeof registerContractResults>;
  readonly nftHistory: Seam<typeof registerNftHistory>;
  readonly inspector: Seam<typeof registerInspector>;
  readonly ledgerLinks: Seam<typeof registerLedgerLinks>;
  readonly deployments: Seam<typeof registerDeployments>;
  readonly contractCall: Seam<typeof registerContractCall>;
  readonly abis: AbiIndex & AbiIndexSeam;
  statusSnapshot(): ReturnType<Seam<typeof registerStatus>['snapshot']>;
  readonly verification: Seam<typeof registerVerification>;
}

/** What activate() returns to other extensions: the selected network and its changes; `testing` in tests only. */
export interface HederaExplorerApi {
  /** The selected network's profile (URLs, EVM chain id, explorer). */
  readonly network: NetworkProfile;
  /** Fires after the user selected another network or changed its URLs. */
  readonly onDidChangeNetwork: vscode.Event<NetworkProfile>;
  /** Only when the extension runs its tests (ExtensionMode.Test). */
  readonly testing?: TestSeams;
}
