/**
 * Editing a view's filters from its title bar: a quick pick of the fields with their current values; picking a
 * field opens an input that validates as you type (or a pick for enums). Loops until the user closes it, so
 * several filters can be set in one go. Nothing is fetched for input that does not validate.
 */
import vscode = require('vscode');
import type { Check } from '../api/validation';

export interface TextField {
  kind: 'text';
  label: string;
  /** Current value as typed, '' when unset. */
  value(): string;
  prompt: string;
  placeholder: string;
  /** Validates what is typed; '' always clears the filter. */
  check(value: string): Check<unknown>;
  set(value: string | undefined): void;
  /** Hidden when it returns a reason (shown as the item's detail when `showDisabled`). */
  disabled?(): string | undefined;
}

export interface ChoiceField {
  kind: 'choice';
  label: string;
  value(): string;
  choices: Array<{ label: string; value: string; description?: string }>;
  set(value: string): void;
  disabled?(): string | undefined;
}

export type FilterField = TextField | ChoiceField;

interface FieldItem extends vscode.QuickPickItem {
  field?: FilterField;
  clear?: boolean;
}

export async function editFilters(title: string, fields: FilterField[], onChange: () => void, clearAll: () => void): Promise<void> {
  for (;;) {
    const items: FieldItem[] = fields.map((f) => {
      const reason = f.disabled?.();
      return {
        field: reason ? undefined : f,
        label: `${reason ? '$(circle-slash)' : '$(filter)'} ${f.label}`,
        description: f.value() || vscode.l10n.t('(any)'),
        detail: reason,
      };
    });
    items.push({ label: '', kind: vscode.QuickPickItemKind.Separator }, { label: `$(clear-all) ${vscode.l10n.t('Clear all filters')}`, clear: true });
    const pick = await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Pick a filter to change; Escape when done') });
    if (!pick) return;
    if (pick.clear) {
      clearAll();
      onChange();
      return;
    }
    const f = pick.field;
    if (!f) continue; // disabled: show the list again
    if (f.kind === 'choice') {
      const c = await vscode.window.showQuickPick(
        f.choices.map((x) => ({ ...x, label: `${x.value === f.value() ? '$(check)' : '$(blank)'} ${x.label}` })),
        { title: `${title}: ${f.label}` },
      );
      if (c) {
        f.set(c.value);
        onChange();
      }
      continue;
    }
    const typed = await vscode.window.showInputBox({
      title: `${title}: ${f.label}`,
      prompt: f.prompt,
      placeHolder: f.placeholder,
      value: f.value(),
      validateInput: (v) => {
        if (!v.trim()) return undefined;
        const c = f.check(v);
        return c.ok ? undefined : c.message;
      },
    });
    if (typed === undefined) continue;
    f.set(typed.trim() ? typed.trim() : undefined);
    onChange();
  }
}
