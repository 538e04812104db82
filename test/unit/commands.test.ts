// The command ids in one place (src/api/commands.ts) and package.json name the same commands: one added, renamed or
// removed on one side only fails here (a contributed command nothing registers, or a registered one no menu shows).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ALL_COMMANDS, Command, ListCommand } from '../../src/api/commands';

interface Contributes {
  commands: Array<{ command: string }>;
  menus?: Record<string, Array<{ command?: string; submenu?: string }>>;
  keybindings?: Array<{ command: string }>;
}

const root = path.resolve(__dirname, '../../..');
const contributes = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: Contributes }
).contributes;
const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();

describe('command ids: the module and package.json', () => {
  it('contributes.commands and the module hold the same ids', () => {
    assert.deepStrictEqual(sorted(contributes.commands.map((c) => c.command)), sorted(ALL_COMMANDS));
    assert.strictEqual(
      new Set(Object.values(Command)).size,
      Object.values(Command).length,
      'no id twice in the module',
    );
  });

  it("every command a menu or keybinding names is one of the module's", () => {
    const named = [
      ...Object.values(contributes.menus ?? {}).flatMap((entries) =>
        entries.flatMap((e) => (e.command ? [e.command] : [])),
      ),
      ...(contributes.keybindings ?? []).map((k) => k.command),
    ];
    assert.ok(named.length > 20, `menus name commands (${named.length})`);
    const ours = new Set<string>(ALL_COMMANDS);
    assert.deepStrictEqual(
      named.filter((c) => !ours.has(c)),
      [],
    );
  });

  it("the list views' commands are module ids under their view's id", () => {
    for (const [view, ids] of Object.entries(ListCommand)) {
      for (const [name, id] of Object.entries(ids)) {
        assert.strictEqual(id, `${view}.${name}`);
        assert.ok((ALL_COMMANDS as readonly string[]).includes(id), id);
      }
    }
  });
});
