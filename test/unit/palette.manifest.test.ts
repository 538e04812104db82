// The command palette as package.json makes it: each command the palette can show has a title of its own within its
// category, every command has a category or is hidden, the commands that act on a tree row (they take the row as
// their argument) are hidden, and every context key a `when` clause reads is one the extension sets somewhere in src.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ContextKey, ListFilteredKey } from '../../src/api/commands';

interface CommandContribution {
  command: string;
  title: string;
  category?: string;
  enablement?: string;
}
interface MenuEntry {
  command?: string;
  when?: string;
}

const root = path.resolve(__dirname, '../../..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: { commands: CommandContribution[]; menus: Record<string, MenuEntry[]> };
};
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const { commands, menus } = manifest.contributes;
const text = (s: string | undefined) =>
  s ? s.replace(/^%([^%]+)%$/, (_, k: string) => nls[k] ?? `<missing ${k}>`) : s;
const paletteWhen = new Map((menus.commandPalette ?? []).map((e) => [e.command ?? '', e.when]));
const hidden = (id: string) => paletteWhen.get(id) === 'false';

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : /\.ts$/.test(e.name) ? [p] : [];
  });
}

/** Duplicated palette entries (same category and title), hidden commands left out. */
function duplicates(list: readonly CommandContribution[], isHidden: (id: string) => boolean): string[] {
  const seen = new Map<string, string>();
  const out: string[] = [];
  for (const c of list) {
    if (isHidden(c.command)) continue;
    const shown = `${text(c.category) ?? ''}: ${text(c.title)}`;
    const before = seen.get(shown);
    if (before) out.push(`${shown} (${before}, ${c.command})`);
    else seen.set(shown, c.command);
  }
  return out;
}

describe('the command palette: what package.json shows', () => {
  it('no two commands the palette can show have the same category and title', () => {
    assert.deepStrictEqual(duplicates(commands, hidden), []);
  });

  it('the check can fail: the manifest as it was (one category, "Refresh" three times) has duplicates', () => {
    const before = commands.map((c) => ({
      ...c,
      category: 'Hedera',
      title: c.command.endsWith('.refresh') && c.command !== 'hederaExplorer.status.refresh' ? 'Refresh' : c.title,
    }));
    assert.ok(duplicates(before, hidden).some((d) => d.startsWith('Hedera: Refresh')));
  });

  it('every command has a category, or is hidden from the palette', () => {
    const neither = commands.filter((c) => !text(c.category) && !hidden(c.command)).map((c) => c.command);
    assert.deepStrictEqual(neither, []);
    assert.ok(
      commands.every((c) => /^Hedera( |$)/.test(text(c.category) ?? 'Hedera')),
      'categories start with Hedera',
    );
  });

  it('the commands that act on a tree row (their argument is the row) are hidden from the palette', () => {
    const source = fs.readFileSync(path.join(root, 'src/api/commands.ts'), 'utf8');
    const rowCommands = [...source.matchAll(/'(hederaExplorer\.[\w.]+)': \[row\?: Row\]/g)].map((m) => m[1]);
    assert.ok(rowCommands.length > 15, `row commands found (${rowCommands.length})`);
    assert.deepStrictEqual(
      rowCommands.filter((id) => !hidden(id)),
      [],
    );
  });

  it('every context key a when clause reads is set somewhere in src, through the one setContext', () => {
    const clauses = [
      ...Object.values(menus).flatMap((entries) => entries.map((e) => e.when ?? '')),
      ...commands.map((c) => c.enablement ?? ''),
    ];
    const viewIds = new Set(clauses.flatMap((w) => [...w.matchAll(/view\s*==\s*([\w.]+)/g)].map((m) => m[1])));
    const read = new Set(
      clauses.flatMap((w) =>
        [...w.replace(/\/[^/]*\//g, '').matchAll(/(?<![\w.])hederaExplorer\.[\w.]+/g)].map((m) => m[0]),
      ),
    );
    for (const v of viewIds) read.delete(v);
    assert.ok(read.size >= 5, [...read].join(', '));

    const files = sourceFiles(path.join(root, 'src'));
    const sets = new Set<string>();
    for (const f of files) {
      const code = fs.readFileSync(f, 'utf8');
      if (!f.endsWith(path.join('core', 'contextKeys.ts')))
        assert.ok(!/executeCommand\(\s*'setContext'/.test(code), `${f}: setContext outside src/core/contextKeys.ts`);
      for (const m of code.matchAll(/\bsetContext\(\s*([^,]+),/g)) {
        const arg = m[1].trim();
        const named = /^ContextKey\.(\w+)$/.exec(arg);
        if (named) sets.add((ContextKey as Record<string, string>)[named[1]] ?? `<unknown ${arg}>`);
        else if (/^ListFilteredKey\[/.test(arg)) for (const k of Object.values(ListFilteredKey)) sets.add(k);
      }
    }
    assert.deepStrictEqual(
      [...read].filter((k) => !sets.has(k)),
      [],
      'read by a when clause, set nowhere',
    );
    assert.deepStrictEqual(
      Object.values(ContextKey).filter((k) => !sets.has(k)),
      [],
      'declared, set nowhere',
    );
  });
});
