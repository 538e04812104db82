// The context keys that decide where a command shows (package.json `when` clauses: "Clear Filters" only while a
// filter is set, "Stop Following" only while following, "Clear Explorer API Key" only while a key is stored), as the
// extension sets them in the real extension host: each follows the state it names, both ways.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ContextKeyId } from '../../src/api/commands';
import { resetSettings, SANDBOX_KEYS, waitUntil } from './helpers';
import { settled, useSandbox, type ViewsApi } from './views.helpers';

describe('palette: context keys follow the state', function () {
  this.timeout(60000);
  let api: ViewsApi;
  const key = (k: ContextKeyId) => api.contextKey(k);

  before(async () => {
    ({ api } = await useSandbox());
    await vscode.commands.executeCommand('hederaExplorer.contractResults.focus');
    await settled(api.contractResults);
  });
  after(async () => {
    api.contractResults.setFollow(false);
    api.contractResults.clearFilters();
    await resetSettings(SANDBOX_KEYS);
  });

  it('a filter set on Contract Results: its "filtered" key is true; Clear Filters: false again', async () => {
    api.contractResults.clearFilters();
    await settled(api.contractResults);
    assert.strictEqual(key('hederaExplorer.contractResults.filtered'), false);
    api.contractResults.setFilters({ blockNumber: '1' });
    assert.strictEqual(key('hederaExplorer.contractResults.filtered'), true);
    assert.notStrictEqual(key('hederaExplorer.schedules.filtered'), true, "the other list's key is its own");
    await vscode.commands.executeCommand('hederaExplorer.contractResults.clearFilters');
    assert.strictEqual(key('hederaExplorer.contractResults.filtered'), false);
    await settled(api.contractResults);
  });

  it('Follow and Stop Following swap with the "following" key', async () => {
    await vscode.commands.executeCommand('hederaExplorer.contractResults.follow');
    assert.strictEqual(key('hederaExplorer.contractResults.following'), true);
    await vscode.commands.executeCommand('hederaExplorer.contractResults.unfollow');
    assert.strictEqual(key('hederaExplorer.contractResults.following'), false);
    api.contractResults.clearFilters(); // Follow sets the newest-first order
    await settled(api.contractResults);
  });

  it('"Clear Explorer API Key" is offered only while a key is stored', async () => {
    await vscode.commands.executeCommand('hederaExplorer.setApiKey', 'palette-test-key');
    assert.ok(await api.hasApiKey());
    await waitUntil('the key is known stored', () => key('hederaExplorer.hasApiKey') === true);
    await vscode.commands.executeCommand('hederaExplorer.clearApiKey');
    assert.ok(!(await api.hasApiKey()));
    await waitUntil('the key is known gone', () => key('hederaExplorer.hasApiKey') === false);
  });
});
