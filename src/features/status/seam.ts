/**
 * What the integration tests read of the status feature (test mode only: registerStatus returns it when
 * the extension runs its tests). Types only; test/integration/status.test.ts imports them (`import type`).
 */

/** A row of the Network Status view as VS Code gets it, with its children down to the depth asked for. */
export interface StatusRowSnapshot {
  label: string;
  description?: string;
  icon?: string;
  color?: string;
  contextValue?: string;
  tooltip?: string;
  command?: string;
  collapsible: boolean;
  children?: StatusRowSnapshot[];
}

/** What the tests read: the status bar item and the view's rows as VS Code gets them. */
export interface StatusSnapshot {
  statusBar: {
    text: string;
    tooltip: string;
    background?: string;
    name?: string;
    accessibilityLabel?: string;
    command?: string;
    visible: boolean;
  };
  view: { visible: boolean; description?: string; rows: StatusRowSnapshot[] };
  state: {
    loading: boolean;
    failures: number;
    polls: number;
    generation: number;
    indicator?: string;
    error?: string;
    nextPollAt?: number;
    checkedAt?: number;
  };
  /** Notifications shown by the status feature, oldest first. */
  notifications: string[];
}

export interface StatusSeam {
  /** Reads the status bar item and the view's rows (loads the view's code if it was not yet). */
  snapshot(depth?: number): Promise<StatusSnapshot>;
}
