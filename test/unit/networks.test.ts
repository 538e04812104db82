import * as assert from 'assert';
import { chainName, customLabel, hashscanUrl, NETWORK_NAMES, resolveProfile } from '../../src/api/networks';
import { hostOf, httpUrl } from '../../src/api/url';

describe('networks: profiles', () => {
  it('has the public networks with their chain ids and explorers', () => {
    const m = resolveProfile({ network: 'mainnet' });
    assert.strictEqual(m.mirrorUrl, 'https://mainnet-public.mirrornode.hedera.com');
    assert.strictEqual(m.chainId, 295);
    assert.strictEqual(resolveProfile({ network: 'testnet' }).chainId, 296);
    assert.strictEqual(resolveProfile({ network: 'previewnet' }).chainId, 297);
    assert.strictEqual(resolveProfile({ network: 'previewnet' }).hashscanUrl, 'https://hashscan.io/previewnet');
    assert.strictEqual(m.statusUrl, 'https://status.hedera.com/api/v2');
  });

  it("local is hedera-local's mirror node on 5551, chain 298", () => {
    const l = resolveProfile({ network: 'local' });
    assert.strictEqual(l.mirrorUrl, 'http://localhost:5551');
    assert.strictEqual(l.chainId, 298);
  });

  it('has no sandbox network: the sandbox is a custom network, "sandbox" falls back to testnet like any unknown name', () => {
    assert.deepStrictEqual(NETWORK_NAMES, ['mainnet', 'testnet', 'previewnet', 'local', 'custom']);
    assert.strictEqual(resolveProfile({ network: 'sandbox' }).name, 'testnet');
  });

  it('the custom network is labelled by its name, reduced to letters, digits, spaces and .-_, at most 32 characters', () => {
    // unnamed: the host of its mirror node, the default one without a URL
    assert.strictEqual(resolveProfile({ network: 'custom' }).label, 'testnet.mirrornode.hedera.com');
    assert.strictEqual(
      resolveProfile({ network: 'custom', custom: { mirrorUrl: 'http://127.0.0.1:5600/mirror/' } }).label,
      '127.0.0.1:5600',
    );
    assert.strictEqual(resolveProfile({ network: 'custom', custom: { name: ' Sandbox ' } }).label, 'Sandbox');
    assert.strictEqual(customLabel('Réseau 2 — staging_b.1'), 'Réseau 2 staging_b.1');
    // an icon, a command link, bidi and control characters, Markdown and HTML: none survives
    assert.strictEqual(
      customLabel('$(alert) [Open](command:workbench.action.quit) \u202Eevil\u0007'),
      'alert Open command workbench.act',
    );
    assert.strictEqual(customLabel('<img src=x>*b*`c`'), 'img src x b c');
    assert.strictEqual(customLabel('x'.repeat(40)), 'x'.repeat(32));
    for (const empty of [undefined, '', '   ', '$()[]', 42 as unknown as string])
      assert.strictEqual(customLabel(empty), 'Custom');
    // nor does it pass for another network
    for (const other of ['Mainnet', ' testnet ', 'LOCAL', 'previewnet']) {
      assert.strictEqual(customLabel(other), 'Custom');
      assert.strictEqual(customLabel(other, 'https://mirror.example.org/'), 'mirror.example.org');
    }
    assert.strictEqual(customLabel('Mainnet fork'), 'Mainnet fork');
  });

  it('custom takes every URL and the chain id from settings, unknown names fall back to testnet', () => {
    const c = resolveProfile({
      network: 'custom',
      custom: {
        mirrorUrl: 'https://m.example/',
        statusUrl: 'https://s.example/api/v2',
        verifyUrl: 'https://v.example',
        chainId: 295,
        hashscanUrl: 'https://x.example/mainnet/',
      },
    });
    assert.deepStrictEqual(
      [c.mirrorUrl, c.statusUrl, c.verifyUrl, c.chainId, c.hashscanUrl],
      ['https://m.example', 'https://s.example/api/v2', 'https://v.example', 295, 'https://x.example/mainnet'],
    );
    assert.strictEqual(resolveProfile({ network: 'custom', custom: { chainId: 1 } }).chainId, 296);
    assert.strictEqual(resolveProfile({ network: 'moonnet' }).name, 'testnet');
  });

  it('builds HashScan links', () => {
    const t = resolveProfile({ network: 'testnet' });
    assert.strictEqual(
      hashscanUrl(t, 'transaction', '1700000000.000000001'),
      'https://hashscan.io/testnet/transaction/1700000000.000000001',
    );
    assert.strictEqual(
      hashscanUrl(t, 'token', '0.0.5', '9223372036854775807'),
      'https://hashscan.io/testnet/token/0.0.5/9223372036854775807',
    );
    assert.strictEqual(hashscanUrl(t, 'schedule', '0.0.9'), 'https://hashscan.io/testnet/schedule/0.0.9');
  });

  it('lets only http(s) URLs leave VS Code (httpUrl) and reads hosts (hostOf)', () => {
    assert.strictEqual(httpUrl('https://a.example'), 'https://a.example/');
    assert.strictEqual(httpUrl(' http://a.example:8080/x?y=1 '), 'http://a.example:8080/x?y=1');
    for (const bad of [
      'ftp://a.example',
      'not a url',
      '',
      'command:workbench.action.terminal.new',
      'javascript:alert(1)',
      'file:///etc/passwd',
      42,
      undefined,
    ]) {
      assert.strictEqual(httpUrl(bad), undefined, String(bad));
    }
    assert.strictEqual(hostOf('https://a.example:8443/p'), 'a.example:8443');
    assert.strictEqual(hostOf('not a url'), undefined);
    assert.strictEqual(hostOf(undefined), undefined);
  });

  it('names Hedera chains only', () => {
    assert.strictEqual(chainName(296), 'Hedera testnet');
    assert.strictEqual(chainName(1), undefined);
  });
});
