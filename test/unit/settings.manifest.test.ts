// The settings as package.json contributes them, held to what the Settings UI needs: a scope on every setting, a
// default the setting's own schema accepts (an untouched setting never shows "URI expected" in red), one place in the
// order per setting, a description per enum value, links between related settings that name real settings, nothing
// about the developers' sandbox, the URLs that receive the explorer API key restricted to user settings in
// Restricted Mode, and every %placeholder% translated in package.nls.json.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

interface Setting {
  type?: string | string[];
  default?: unknown;
  scope?: string;
  order?: number;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  enumDescriptions?: string[];
  minimum?: number;
  maximum?: number;
  markdownDescription?: string;
  description?: string;
}

const root = path.resolve(__dirname, '../../..');
const manifestText = fs.readFileSync(path.join(root, 'package.json'), 'utf8');
const manifest = JSON.parse(manifestText) as {
  contributes: { configuration: { properties: Record<string, Setting> } };
  capabilities?: {
    untrustedWorkspaces?: { supported: boolean | 'limited'; description?: string; restrictedConfigurations?: string[] };
    virtualWorkspaces?: boolean | { supported: boolean | 'limited'; description?: string };
  };
};
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const settings = Object.entries(manifest.contributes.configuration.properties);
/** A %placeholder% as the user reads it. */
const text = (s: string | undefined): string =>
  (s ?? '').replace(/^%([^%]+)%$/, (_, k: string) => nls[k] ?? `<missing ${k}>`);
/** What the Settings editor shows of a setting: its description and its enum values' descriptions. */
const shown = (s: Setting): string =>
  [s.markdownDescription, s.description, ...(s.enumDescriptions ?? [])].map(text).join('\n');
/** The settings a description links to (the Settings editor's `#id#` links). */
const links = (s: Setting): string[] => [...shown(s).matchAll(/`#([\w.*-]+)#`/g)].map((m) => m[1]);
const SCOPES = ['application', 'machine', 'machine-overridable', 'window', 'resource', 'language-overridable'];

/** The problems VS Code's settings editor would show for `value` under `s` (the constraints this manifest uses). */
function problems(s: Setting, value: unknown): string[] {
  const out: string[] = [];
  if (s.enum && !s.enum.includes(value)) out.push(`not one of ${JSON.stringify(s.enum)}`);
  if (typeof value === 'string') {
    if (s.format === 'uri' && !/^[a-z][a-z0-9+.-]*:/i.test(value)) out.push('URI expected');
    if (s.pattern && !new RegExp(s.pattern, 'u').test(value)) out.push(`does not match ${s.pattern}`);
  }
  if (typeof value === 'number') {
    if (s.minimum !== undefined && value < s.minimum) out.push(`below ${s.minimum}`);
    if (s.maximum !== undefined && value > s.maximum) out.push(`above ${s.maximum}`);
  }
  return out;
}

describe('settings: what package.json contributes', () => {
  it('every setting has a scope; the contract to verify is per folder', () => {
    for (const [key, s] of settings) assert.ok(s.scope && SCOPES.includes(s.scope), `${key}: scope ${s.scope}`);
    assert.strictEqual(
      manifest.contributes.configuration.properties['hederaExplorer.contractAddress'].scope,
      'resource',
    );
  });

  it("every default is accepted by the setting's own schema", () => {
    for (const [key, s] of settings) assert.deepStrictEqual(problems(s, s.default), [], key);
  });

  it('the checks above can fail: an empty URI, a value outside the enum or the range', () => {
    assert.deepStrictEqual(problems({ format: 'uri' }, ''), ['URI expected']);
    assert.deepStrictEqual(problems({ pattern: '^(https?://\\S+)?$' }, 'ftp://x'), [
      'does not match ^(https?://\\S+)?$',
    ]);
    assert.deepStrictEqual(problems({ enum: [1, 2] }, 3), ['not one of [1,2]']);
    assert.deepStrictEqual(problems({ minimum: 1 }, 0), ['below 1']);
  });

  it('each setting has its own place in the order', () => {
    const byOrder = new Map<number, string[]>();
    for (const [key, s] of settings) {
      assert.ok(typeof s.order === 'number', `${key}: order`);
      byOrder.set(s.order, [...(byOrder.get(s.order) ?? []), key]);
    }
    const shared = [...byOrder.values()].filter((keys) => keys.length > 1);
    assert.deepStrictEqual(shared, []);
  });

  it('every enum value is described, every setting too', () => {
    for (const [key, s] of settings) {
      assert.ok(s.markdownDescription || s.description, `${key}: description`);
      if (s.enum) assert.strictEqual(s.enumDescriptions?.length, s.enum.length, `${key}: enumDescriptions`);
    }
  });

  it('links between settings name real settings; the network and its custom URLs link each other', () => {
    const ids = new Set(settings.map(([key]) => key));
    for (const [key, s] of settings)
      for (const l of links(s)) assert.ok(ids.has(l), `${key} links to ${l}, which is not a setting`);
    const props = manifest.contributes.configuration.properties;
    const custom = [...ids].filter((k) => k.startsWith('hederaExplorer.custom.'));
    assert.deepStrictEqual(
      custom.filter((k) => !links(props['hederaExplorer.network']).includes(k)),
      [],
      'the network setting links every custom setting',
    );
    for (const k of custom) assert.ok(links(props[k]).includes('hederaExplorer.network'), `${k} links the network`);
    const linked = settings.filter(([, s]) => links(s).length).length;
    assert.ok(linked >= 15, `settings with links: ${linked}`);
  });

  it('the link check can fail: a wildcard or a misspelt id is not a setting', () => {
    assert.deepStrictEqual(links({ markdownDescription: 'the `#hederaExplorer.custom.*#` settings' }), [
      'hederaExplorer.custom.*',
    ]);
  });

  it('nothing a user of the .vsix sees about the network mentions the sandbox or npm scripts', () => {
    const network = shown(manifest.contributes.configuration.properties['hederaExplorer.network']);
    assert.doesNotMatch(network, /sandbox|npm run|5599/i);
    assert.ok(network.length > 50, network);
  });

  it('Restricted Mode: limited support; the URLs that receive the explorer API key are restricted to user settings', () => {
    const trust = manifest.capabilities?.untrustedWorkspaces;
    assert.strictEqual(trust?.supported, 'limited');
    assert.ok(text(trust.description).length > 40, 'says what Restricted Mode limits');
    const restricted = trust.restrictedConfigurations ?? [];
    for (const key of ['hederaExplorer.custom.verifyUrl', 'hederaExplorer.verify.sessionUrl'])
      assert.ok(restricted.includes(key), key);
    const props = manifest.contributes.configuration.properties;
    for (const key of restricted) {
      assert.ok(props[key], `${key} is a setting`);
      assert.match(shown(props[key]), /Restricted Mode/, `${key} says so in its description`);
    }
    const virtual = manifest.capabilities?.virtualWorkspaces;
    assert.ok(typeof virtual === 'object' && virtual.supported === 'limited' && text(virtual.description));
  });

  it('every %placeholder% of package.json is in package.nls.json', () => {
    const missing = [...manifestText.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]).filter((k) => !(k in nls));
    assert.deepStrictEqual(missing, []);
  });
});
