// Hovers and Ctrl+click links on Hedera references in the real extension host, against the sandbox (ids from GET
// /__sandbox/health notable): a TypeScript document opened from text, hovered through vscode.executeHoverProvider
// (an entity id, an EVM address, a transaction id, a hash, token/serial), read as VS Code renders it; the hover's
// requests counted cold and warm; its links only to our commands, and enabled; the document's links through
// vscode.executeLinkProvider, each followed as Ctrl+click follows it (its target command run); the settings; typing in
// a 10,000-line document asks VS Code's link provider again and again and requests nothing.
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { LedgerLinksSeam } from '../../src/features/ledgerLinks';
import { renderMarkdown } from '../unit/markdown';
import { benchFigure, resetSettings, waitUntil, SANDBOX_KEYS } from './helpers';
import { clearRequests, requests, sandboxPost, useSandbox, type ViewsApi } from './views.helpers';

const OURS = [
  'hederaExplorer.ledger.openInHashScan',
  'hederaExplorer.ledger.copy',
  'hederaExplorer.ledger.openLink',
  'hederaExplorer.inspectTransaction',
  'hederaExplorer.showNftHistory',
  'hederaExplorer.contractResults.showContract',
  'hederaExplorer.callContract',
  'hederaExplorer.debugTransaction',
];

interface Notable {
  inspector: Record<
    string,
    { transactionId: string; hash: string; contractId: string; result: string; timestamp: string }
  >;
  lookups: { accounts: { owner: string }; tokens: { payout: string }; topics: { withFees: string } };
  contractResults: { evmContract: string; evmContractAddress: string };
  schedules: { executed: string };
  nfts: { token: string; longHistory: string };
}

interface Read {
  text: string;
  links: Array<{ command: string; args: unknown[] }>;
  trusted: unknown;
  range: vscode.Range | undefined;
}

const commandOf = (href: string) => {
  const m = /^command:([\w.]+)\?(.*)$/.exec(href);
  assert.ok(m, `a command link: ${href}`);
  return { command: m[1], args: JSON.parse(decodeURIComponent(m[2])) as unknown[] };
};

describe('Ledger hovers and links', function () {
  this.timeout(120000);
  let api: ViewsApi;
  let seam: LedgerLinksSeam;
  let notable: Notable;
  let doc: vscode.TextDocument;
  let sandbox: string;
  const lines: string[] = [];
  /** Where `text` is in the document (its first character). */
  const at = (text: string): vscode.Position => {
    const line = lines.findIndex((l) => l.includes(text));
    assert.ok(line >= 0, `${text} is in the document`);
    // a text in quotes: its first character inside them
    return new vscode.Position(line, lines[line].indexOf(text) + 1);
  };

  /** Our hover at `text` (other providers' hovers, TypeScript's, left out), rendered. */
  async function hover(text: string): Promise<Read | undefined> {
    const hovers =
      (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, at(text))) ?? [];
    const ours = hovers.filter((h) =>
      h.contents.some(
        (c) =>
          typeof c === 'object' &&
          'value' in c &&
          /· Sandbox|Not on Sandbox|on Sandbox:/.test(renderMarkdown(c.value).text),
      ),
    );
    assert.ok(ours.length <= 1, `one hover of ours, not ${ours.length}`);
    const h = ours[0];
    if (!h) return undefined;
    const md = h.contents.find((c) => typeof c === 'object' && 'value' in c) as vscode.MarkdownString;
    const r = renderMarkdown(md.value);
    return { text: r.text, links: r.links.map(commandOf), trusted: md.isTrusted, range: h.range };
  }

  before(async () => {
    ({ api, url: sandbox } = await useSandbox());
    const url = sandbox;
    seam = api.ledgerLinks;
    seam.openExternal = async () => true;
    notable = ((await (await fetch(`${url}/__sandbox/health`)).json()) as { notable: Notable }).notable;
    const deep = notable.inspector.inspectorDeepRevert;
    const success = notable.inspector.inspectorSuccess;
    lines.push(
      '// deployment notes',
      `const vault = "${deep.contractId}"; // the vault`,
      `const token = '${notable.contractResults.evmContractAddress}';`,
      `const failed = "${deep.transactionId}";`,
      `const sdkForm = "${deep.transactionId.replace(/-(\d+)-(\d+)$/, '@$1.$2')}";`,
      `const txHash = "${success.hash}";`,
      `const schedule = "${notable.schedules.executed}";`,
      `const nft = "${notable.nfts.longHistory}";`,
      'const nobody = "0.0.274877906000";',
      `const owner = "${notable.lookups.accounts.owner}", reward = "${notable.lookups.tokens.payout}", audit = "${notable.lookups.topics.withFees}";`,
      'const version = "1.0.0.5"; // pragma solidity ^0.8.20; http://127.0.0.1:5599',
    );
    doc = await vscode.workspace.openTextDocument({ language: 'typescript', content: lines.join('\n') });
  });
  after(async () => {
    seam.openExternal = undefined;
    api.contractResults.clearFilters();
    await resetSettings(['hovers.enabled', 'hovers.languages', ...SANDBOX_KEYS]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('registers for the default languages, on files, untitled and raw JSON documents', () => {
    assert.deepStrictEqual(seam.selector, defaultSelector());
  });

  it('an entity id: a contract, its latest results and verification, asked on the first hover only', async () => {
    const deep = notable.inspector.inspectorDeepRevert;
    seam.clearCache();
    await clearRequests();
    const before = seam.stats();
    const h = await hover(deep.contractId);
    assert.ok(h, 'a hover');
    assert.match(h.text, new RegExp(`^Contract ${deep.contractId.replace(/\./g, '\\.')} · Sandbox`));
    assert.match(h.text, /EVM address: 0x[0-9a-f]{40}/);
    assert.match(h.text, /Verification: (✓ verified on Sourcify|not verified on Sourcify)/);
    assert.match(h.text, /Latest results: \d+ ✓ · \d+ ✗ in the latest \d+/);
    assert.match(h.text, /Latest failure: .* · Inspect/);
    assert.deepStrictEqual(h.range, new vscode.Range(1, 15, 1, 15 + deep.contractId.length), 'the hover covers the id');
    // links: only ours, each enabled
    assert.deepStrictEqual(
      h.links.map((l) => l.command),
      [
        'hederaExplorer.inspectTransaction',
        'hederaExplorer.debugTransaction',
        'hederaExplorer.ledger.openInHashScan',
        'hederaExplorer.contractResults.showContract',
        'hederaExplorer.callContract',
        'hederaExplorer.ledger.copy',
      ],
    );
    const enabled = (h.trusted as { enabledCommands?: string[] } | undefined)?.enabledCommands;
    assert.ok(Array.isArray(enabled), `isTrusted is a list of commands, not ${JSON.stringify(h.trusted)}`);
    for (const l of h.links) assert.ok(enabled.includes(l.command));
    for (const c of enabled) assert.ok(OURS.includes(c), c);
    const cold = (await requests('/')).filter((u) => !u.startsWith('/__sandbox'));
    assert.ok(cold.includes(`/api/v1/contracts/${deep.contractId}`), cold.join(' '));
    assert.ok(
      cold.some((u) => u.startsWith(`/api/v1/contracts/${deep.contractId}/results?limit=10`)),
      cold.join(' '),
    );
    assert.ok(
      cold.some((u) => u.startsWith('/v2/contract/296/')),
      cold.join(' '),
    );
    assert.ok(seam.stats().maxInFlight <= 4);
    // warm: from the cache, no request
    await clearRequests();
    const again = await hover(deep.contractId);
    assert.strictEqual(again?.text, h.text);
    assert.deepStrictEqual(
      (await requests('/')).filter((u) => !u.startsWith('/__sandbox')),
      [],
    );
    assert.strictEqual(seam.stats().cacheHits, before.cacheHits + 1);
  });

  it('an EVM address: the contract that has it', async () => {
    const h = await hover(notable.contractResults.evmContractAddress);
    assert.match(
      h?.text ?? '',
      new RegExp(`^Contract ${notable.contractResults.evmContract.replace(/\./g, '\\.')} · Sandbox`),
    );
    assert.match(h?.text ?? '', new RegExp(`EVM address: ${notable.contractResults.evmContractAddress}`));
  });

  it('a transaction id (both forms): its type, result, decoded call and revert reason; Inspect Transaction', async () => {
    const deep = notable.inspector.inspectorDeepRevert;
    await clearRequests();
    const before = seam.stats().requests;
    const h = await hover(deep.transactionId);
    assert.ok(h);
    assert.match(h.text, new RegExp(`^Transaction ${deep.transactionId.replace(/\./g, '\\.')} · Sandbox`));
    assert.match(h.text, new RegExp(`✗ ${deep.result}`));
    assert.match(h.text, /Call: \w+\(/, "the call decoded with the workspace's ABIs");
    assert.match(h.text, /Revert reason: \S/);
    assert.deepStrictEqual(h.links[0], { command: 'hederaExplorer.inspectTransaction', args: [deep.transactionId] });
    // the look-up's own requests: two, and these two (other views of the window may be asking the sandbox too)
    assert.strictEqual(seam.stats().requests - before, 2);
    const asked = (await requests('/api/v1/'))
      .map((u) => u.replace(/\?.*$/, ''))
      .filter((u) => u.includes(deep.transactionId))
      .sort();
    assert.deepStrictEqual(asked, [
      `/api/v1/contracts/results/${deep.transactionId}`,
      `/api/v1/transactions/${deep.transactionId}`,
    ]);
    // the SDK form is the same transaction, from the cache
    await clearRequests();
    const sdk = await hover(deep.transactionId.replace(/-(\d+)-(\d+)$/, '@$1.'));
    assert.match(sdk?.text ?? '', new RegExp(`^Transaction ${deep.transactionId.replace(/\./g, '\\.')} · Sandbox`));
    assert.strictEqual(seam.stats().requests - before, 2, 'no request for the SDK form');
    assert.deepStrictEqual(
      (await requests('/api/v1/')).filter(
        (u) => u.includes(deep.transactionId) || u.includes(deep.transactionId.replace(/-(\d+)-(\d+)$/, '@$1.')),
      ),
      [],
    );
  });

  it("a hash: the Ethereum transaction's contract result", async () => {
    const s = notable.inspector.inspectorSuccess;
    const h = await hover(s.hash);
    assert.match(h?.text ?? '', new RegExp(`^Ethereum transaction ${s.hash} · Sandbox`));
    assert.match(h?.text ?? '', /✓ SUCCESS/);
    assert.deepStrictEqual(h?.links[0], { command: 'hederaExplorer.inspectTransaction', args: [s.hash] });
  });

  it('a schedule id, token/serial, an id nothing has, and text that is no reference', async () => {
    assert.match(
      (await hover(notable.schedules.executed))?.text ?? '',
      new RegExp(`^Schedule ${notable.schedules.executed.replace(/\./g, '\\.')} · Sandbox · executed`),
    );
    const nft = await hover(notable.nfts.longHistory);
    const [token, serial] = notable.nfts.longHistory.split('/');
    // the sandbox's token endpoint may not exist yet: either the token or "not on Sandbox", with Show NFT History
    assert.ok(nft, 'a hover for token/serial');
    assert.ok(
      nft.links.some(
        (l) =>
          l.command === 'hederaExplorer.showNftHistory' && JSON.stringify(l.args) === JSON.stringify([token, serial]),
      ),
      JSON.stringify(nft.links),
    );
    assert.match(
      (await hover('0.0.274877906000'))?.text ?? '',
      /^0\.0\.274877906000 · Not on Sandbox: no account, contract, token, topic or schedule has this id\./,
    );
    await clearRequests();
    for (const text of ['1.0.0.5', '0.8.20', '127.0.0.1', 'deployment'])
      assert.strictEqual(await hover(text), undefined, text);
    assert.deepStrictEqual(await requests('/api/v1/'), [], 'nothing requested for text that is no reference');
  });

  it('an account with its balance (every digit past 2^53), a token, a topic', async () => {
    const owner = notable.lookups.accounts.owner;
    const raw = await (await fetch(`${sandbox}/api/v1/accounts/${owner}?transactions=false`)).text();
    const tinybars = /"balance":\{"balance":(\d+)/.exec(raw)?.[1] ?? '';
    assert.ok(BigInt(tinybars) > 2n ** 53n);
    const hbar = `${tinybars.slice(0, -8).replace(/^0+(?=\d)/, '')}.${tinybars.slice(-8)}`.replace(/\.?0+$/, '');
    const a = await hover(`"${owner}"`);
    assert.match(a?.text ?? '', new RegExp(`^Account ${owner.replace(/\./g, '\\.')} · Sandbox`));
    assert.ok(a?.text.includes(`Balance: ${hbar} ℏ`), `every digit of ${tinybars}: ${a?.text}`);
    assert.match(a?.text ?? '', /Key: ECDSA_SECP256K1/);
    assert.match(
      (await hover(`"${notable.lookups.tokens.payout}"`))?.text ?? '',
      /^Token 0\.0\.\d+ · Sandbox · FUNGIBLE_COMMON[\s\S]*Name: Vault Reward Token \(VRT\)/,
    );
    assert.match((await hover(`"${notable.lookups.topics.withFees}"`))?.text ?? '', /^Topic 0\.0\.\d+ · Sandbox/);
  });

  it('hostile text in a memo is shown as text: its Markdown link runs nothing', async () => {
    const topic = notable.lookups.topics.withFees;
    await sandboxPost('/__sandbox/hostile', { families: ['text'] });
    try {
      seam.clearCache();
      const h = await hover(`"${topic}"`);
      assert.ok(
        h?.text.includes('Memo: [Open a terminal](command:workbench.action.terminal.new) to fix this'),
        h?.text,
      );
      assert.deepStrictEqual(
        h?.links.map((l) => l.command),
        ['hederaExplorer.ledger.openInHashScan', 'hederaExplorer.ledger.copy'],
      );
    } finally {
      await sandboxPost('/__sandbox/hostile', undefined, 'DELETE');
      seam.clearCache();
    }
  });

  it('links: every reference, nothing requested; followed as Ctrl+click follows them', async () => {
    await clearRequests();
    const requestsBefore = seam.stats().requests;
    const links =
      (await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', doc.uri, 100)) ?? [];
    const ours = links.filter((l) => l.target?.scheme === 'command');
    const texts = ours.map((l) => doc.getText(l.range));
    const deep = notable.inspector.inspectorDeepRevert;
    assert.deepStrictEqual(texts, [
      deep.contractId,
      notable.contractResults.evmContractAddress,
      deep.transactionId,
      deep.transactionId.replace(/-(\d+)-(\d+)$/, '@$1.$2'),
      notable.inspector.inspectorSuccess.hash,
      notable.schedules.executed,
      notable.nfts.longHistory,
      '0.0.274877906000',
      notable.lookups.accounts.owner,
      notable.lookups.tokens.payout,
      notable.lookups.topics.withFees,
    ]);
    assert.deepStrictEqual(await requests('/api/v1/'), [], 'links request nothing');
    assert.strictEqual(seam.stats().requests, requestsBefore);
    const target = (text: string) => {
      const l = ours.find((x) => doc.getText(x.range) === text);
      assert.ok(l?.target, text);
      assert.strictEqual(l.target.scheme, 'command');
      const c = commandOf(l.target.toString());
      assert.deepStrictEqual(c, { command: 'hederaExplorer.ledger.openLink', args: [text] });
      return c;
    };
    const follow = async (text: string) => {
      const c = target(text);
      await vscode.commands.executeCommand(c.command, ...c.args);
    };

    // a transaction id: the inspector
    await follow(deep.transactionId);
    await waitUntil(
      'an inspector panel of the transaction',
      () =>
        api.inspector
          .list()
          .some(
            (p) => api.inspector.snapshot(p).title.includes(deep.transactionId) || p.key.includes(deep.transactionId),
          ),
      20000,
    );
    // a contract: the Contract Results view filtered to it
    await follow(deep.contractId);
    await waitUntil(
      `Contract Results filtered to ${deep.contractId} (${api.contractResults.describeFilters()})`,
      () => api.contractResults.describeFilters().includes(deep.contractId),
      10000,
    );
    // a schedule: HashScan, on the selected network
    await follow(notable.schedules.executed);
    assert.strictEqual(
      seam.effects().opened.at(-1),
      `${sandbox}/hashscan/testnet/schedule/${notable.schedules.executed}`,
    );
    // an NFT: its history panel
    await follow(notable.nfts.longHistory);
    const [token, serial] = notable.nfts.longHistory.split('/');
    await waitUntil('the NFT history panel', () => !!api.nftHistory.get(token, serial), 10000);
    assert.deepStrictEqual(
      seam.effects().commands.map((c) => c.command),
      [
        'hederaExplorer.inspectTransaction',
        'hederaExplorer.contractResults.showContract',
        'hederaExplorer.showNftHistory',
      ],
    );
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('the commands check their arguments again: anything but a reference is refused', async () => {
    const refusedBefore = seam.effects().refused.length;
    assert.strictEqual(await vscode.commands.executeCommand('hederaExplorer.ledger.openLink', 'rm -rf /'), false);
    assert.strictEqual(await vscode.commands.executeCommand('hederaExplorer.ledger.copy', { text: '0.0.5' }), false);
    assert.strictEqual(
      await vscode.commands.executeCommand('hederaExplorer.ledger.openInHashScan', {
        kind: 'account',
        id: 'javascript:alert(1)',
      }),
      false,
    );
    assert.strictEqual(
      await vscode.commands.executeCommand('hederaExplorer.ledger.openInHashScan', { kind: 'file', id: '0.0.5' }),
      false,
    );
    assert.strictEqual(seam.effects().refused.length, refusedBefore + 4);
    assert.strictEqual(await vscode.commands.executeCommand('hederaExplorer.ledger.copy', '0.0.7001'), true);
    assert.strictEqual(await vscode.env.clipboard.readText(), '0.0.7001');
    assert.strictEqual(
      await vscode.commands.executeCommand('hederaExplorer.ledger.openInHashScan', {
        kind: 'token',
        id: '0.0.5',
        serial: '7',
      }),
      true,
    );
    assert.strictEqual(seam.effects().opened.at(-1), `${sandbox}/hashscan/testnet/token/0.0.5/7`);
  });

  it('the settings: other languages only, or off', async () => {
    const cfg = vscode.workspace.getConfiguration('hederaExplorer');
    await cfg.update('hovers.languages', ['javascript'], vscode.ConfigurationTarget.Global);
    await waitUntil('the selector follows the setting', () =>
      JSON.stringify(seam.selector ?? []).includes('"javascript"'),
    );
    assert.strictEqual(
      await hover(notable.inspector.inspectorDeepRevert.contractId),
      undefined,
      'no hover in a TypeScript document',
    );
    const js = await vscode.workspace.openTextDocument({
      language: 'javascript',
      content: `const v = "${notable.inspector.inspectorDeepRevert.contractId}";`,
    });
    const jsLinks =
      (await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', js.uri)) ?? [];
    assert.strictEqual(jsLinks.length, 1);
    await cfg.update('hovers.enabled', false, vscode.ConfigurationTarget.Global);
    await waitUntil('off', () => seam.selector === undefined);
    assert.deepStrictEqual(
      (await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', js.uri)) ?? [],
      [],
    );
    await resetSettings(['hovers.enabled', 'hovers.languages']);
    await waitUntil(
      'on again, the default languages',
      () => JSON.stringify(seam.selector) === JSON.stringify(defaultSelector()),
    );
  });

  // the time of each answer (CPU and wall, median target < 50 ms) is a figure of `npm run bench` (test/bench/host.mjs)
  it('typing in a 10,000-line file with many ids: links asked again and again, nothing requested', async () => {
    const big: string[] = [];
    for (let i = 0; i < 10_000; i++) {
      big.push(
        i % 10 === 0
          ? `const a${i} = "0.0.${1000 + i}"; // sent by 0x${(i + 1).toString(16).padStart(40, 'a')} in 0.0.${i + 1}-1700000000-000000001`
          : `  total += values[${i}] * 2; // nothing here ${i}.${i}`,
      );
    }
    const bigDoc = await vscode.workspace.openTextDocument({ language: 'typescript', content: big.join('\n') });
    const editor = await vscode.window.showTextDocument(bigDoc);
    await clearRequests();
    const before = seam.stats();
    // 40 keystrokes; after every 10, the links are asked as VS Code asks them (debounced, at least a second apart)
    let asked = 0;
    for (let k = 0; k < 40; k++) {
      await editor.edit((e) => e.insert(new vscode.Position(5000, 0), 'x'), {
        undoStopBefore: false,
        undoStopAfter: false,
      });
      if (k % 10 === 9) {
        const links =
          (await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', bigDoc.uri)) ?? [];
        assert.strictEqual(
          links.filter((l) => !l.target || l.target.scheme === 'command').length,
          1500,
          'the links of the first 5,000 lines (3 on every tenth)',
        );
        asked++;
      }
    }
    const after = seam.stats();
    assert.ok(
      after.linkRequests >= before.linkRequests + asked,
      `${after.linkRequests - before.linkRequests} link requests`,
    );
    const n = after.linkRequests - before.linkRequests;
    const wall = after.linkMs.slice(-n);
    const cpu = after.linkCpuMs.slice(-n);
    assert.deepStrictEqual(await requests('/api/v1/'), [], 'typing requests nothing');
    assert.strictEqual(after.requests, before.requests);
    assert.strictEqual(after.hovers, before.hovers, 'no hover was asked');
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    benchFigure(
      'linkCpuMedianMs',
      median(cpu),
      `link provider on a 10,000-line file after typing, ${n} calls: CPU ${cpu.map((m) => m.toFixed(1)).join(', ')} ms`,
    );
    benchFigure('linkWallMedianMs', median(wall), `wall ${wall.map((m) => m.toFixed(1)).join(', ')} ms`);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});

/** The selector of the setting's default: each default language on files, untitled and raw JSON documents. */
function defaultSelector(): vscode.DocumentFilter[] {
  const languages =
    vscode.workspace.getConfiguration('hederaExplorer').inspect<string[]>('hovers.languages')?.defaultValue ?? [];
  assert.ok(languages.length > 0 && !languages.includes('*'), `default languages: ${languages.join(', ')}`);
  return languages.flatMap((language) =>
    ['file', 'untitled', 'hedera-explorer'].map((scheme) => ({ language, scheme })),
  );
}
