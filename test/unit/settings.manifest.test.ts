// The settings as package.json contributes them, held to what the Settings UI needs: a scope on every setting, a
// default the setting's own schema accepts (an untouched setting never shows "URI expected" in red), one place in the
// order per setting, a description per named enum value, and every %placeholder% translated in package.nls.json.
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
};
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const settings = Object.entries(manifest.contributes.configuration.properties);
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

  it('every named enum value is described (numbers such as page sizes speak for themselves), every setting too', () => {
    for (const [key, s] of settings) {
      assert.ok(s.markdownDescription || s.description, `${key}: description`);
      if (s.enum?.some((v) => typeof v === 'string'))
        assert.strictEqual(s.enumDescriptions?.length, s.enum.length, `${key}: enumDescriptions`);
    }
  });

  it('every %placeholder% of package.json is in package.nls.json', () => {
    const missing = [...manifestText.matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]).filter((k) => !(k in nls));
    assert.deepStrictEqual(missing, []);
  });
});
