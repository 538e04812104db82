/**
 * The one way a list view's filters are edited from its title bar: a quick pick of the fields with their current
 * values; picking a field opens an input that validates as you type (or a pick for choices). Loops until the user
 * closes it, so several filters can be set in one go. A field changes nothing itself: what was typed goes to the
 * view's `apply` as `{ [field.key]: value }` (the same input the view's `setFilters` takes), then the view reloads.
 * Nothing is fetched for input that does not validate.
 */
import * as vscode from 'vscode';
import type { Check } from '../api/validation';
import { notificationSafe } from './nodes';

interface FieldBase {
  /** The filter input's key this field sets (`setFilters({ [key]: value })`). */
  key: string;
  label: string;
  /** The current value as text, '' when unset. */
  value(): string;
  /** Not editable now when it returns a reason (shown as the item's detail). */
  disabled?(): string | undefined;
}

export interface TextField extends FieldBase {
  kind: 'text';
  prompt: string;
  placeholder: string;
  /** Validates what is typed; '' always clears the filter. */
  check(value: string): Check<unknown>;
}

export interface ChoiceField extends FieldBase {
  kind: 'choice';
  choices: Array<{ label: string; value: string | boolean; description?: string }>;
}

export type FilterField = TextField | ChoiceField;

/** What the picker asks of its view. */
export interface FilterTarget {
  /** Sets one filter from the field's input ('' clears a text field); throws a sentence when it is refused. */
  apply(patch: Record<string, string | boolean>): void;
  /** Resets every filter to its default. */
  clearAll(): void;
  /** After each change (one reload per change). */
  changed(): void;
}

interface FieldItem extends vscode.QuickPickItem {
  field?: FilterField;
  clear?: boolean;
}

export async function editFilters(title: string, fields: FilterField[], target: FilterTarget): Promise<void> {
  const apply = (f: FilterField, value: string | boolean): void => {
    try {
      target.apply({ [f.key]: value });
    } catch (e) {
      void vscode.window.showErrorMessage(notificationSafe(e instanceof Error ? e.message : String(e)));
      return;
    }
    target.changed();
  };
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
    items.push(
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: `$(clear-all) ${vscode.l10n.t('Clear all filters')}`, clear: true },
    );
    const pick = await vscode.window.showQuickPick(items, {
      title,
      placeHolder: vscode.l10n.t('Pick a filter to change; Escape when done'),
    });
    if (!pick) return;
    if (pick.clear) {
      target.clearAll();
      target.changed();
      return;
    }
    const f = pick.field;
    if (!f) continue; // disabled: show the list again
    if (f.kind === 'choice') {
      const c = await vscode.window.showQuickPick(
        f.choices.map((x) => ({
          ...x,
          label: `${String(x.value) === f.value() ? '$(check)' : '$(blank)'} ${x.label}`,
        })),
        { title: `${title}: ${f.label}` },
      );
      if (c) apply(f, c.value);
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
    apply(f, typed.trim());
  }
}
