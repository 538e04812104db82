/**
 * The test seam of the contract calls (src/testSeams.ts `contractCall`), built in ExtensionMode.Test only: the
 * panels, what each page drew and what was copied, the calls kept.
 */
import type * as vscode from 'vscode';
import type { KeptCall } from './history';
import { type ContractCallPanel, type ContractCallPanels, systemEffects, useTestEffects } from './panel';
import { callContractCommand } from './command';
import type { ViewState } from './protocol';

export interface ContractCallSnapshot {
  key: string;
  title: string;
  state: ViewState;
  /** What the page last said it shows of each function's outcome: its status and text. */
  rendered: Record<string, { status: string; text: string }>;
  copied: string[];
  refused: string[];
  html: string;
}

export interface ContractCallSeam {
  list(): ContractCallPanel[];
  /** Runs "Call Contract" as the palette does, with `input` as its argument (undefined: asks). */
  open(input?: unknown): Promise<ContractCallPanel | undefined>;
  snapshot(p: ContractCallPanel): ContractCallSnapshot;
  revive(panel: vscode.WebviewPanel, state: unknown): Promise<void>;
  /** The workspace's kept calls. */
  kept(): KeptCall[];
  clearHistory(): Promise<void>;
}

export function testSeam(panels: () => ContractCallPanels): ContractCallSeam {
  interface Rec {
    rendered: Record<string, { status: string; text: string }>;
    copied: string[];
    refused: string[];
  }
  const records = new WeakMap<ContractCallPanel, Rec>();
  const rec = (p: ContractCallPanel): Rec => {
    let r = records.get(p);
    if (!r) records.set(p, (r = { rendered: {}, copied: [], refused: [] }));
    return r;
  };
  const keep = (list: string[], s: string) => {
    list.push(s);
    if (list.length > 50) list.shift();
  };
  useTestEffects({
    copy: (text, what) => systemEffects.copy(text, what),
    observe: (p, e) => {
      const r = rec(p);
      if (e.kind === 'copied') keep(r.copied, e.text);
      else if (e.kind === 'refused') keep(r.refused, e.reason);
      else r.rendered[e.key] = { status: e.status, text: e.text };
    },
  });
  return {
    list: () => panels().list(),
    open: (input) => callContractCommand(panels(), input),
    snapshot: (p) => ({
      key: p.key,
      title: p.panel.title,
      state: p.viewState(),
      rendered: { ...rec(p).rendered },
      copied: [...rec(p).copied],
      refused: [...rec(p).refused],
      html: p.panel.webview.html,
    }),
    revive: (panel, state) => panels().revive(panel, state),
    kept: () => panels().kept(),
    clearHistory: () => panels().clearHistory(),
  };
}
