// Why a build is not the code deployed (src/api/source/codeDifference.ts), one branch per thing the two codes can
// tell: another compiler version in the metadata, another length with the same compiler, another length with no
// compiler to compare, the same length with another metadata hash, the same metadata with other bytes. "The source"
// is never said to be the cause alone.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { codeDifference, codeDifferenceText, readMetadata } from '../../src/api/source/codeDifference';

const ROOT = path.join(__dirname, '../../..');

/** solc's metadata tail: {ipfs: 34 bytes of `hash`, solc: version bytes} and its length. */
function tail(hash: string, version: [number, number, number]): string {
  const text = (s: string) => (0x60 + s.length).toString(16) + Buffer.from(s).toString('hex');
  const map =
    'a2' +
    text('ipfs') +
    '5822' +
    hash.repeat(34) +
    text('solc') +
    '43' +
    version.map((v) => v.toString(16).padStart(2, '0')).join('');
  return map + (map.length / 2).toString(16).padStart(4, '0');
}
const CODE = '6080604052348015600f57600080fd5b50';

describe('source: why a build is not the code deployed', () => {
  it('reads the compiler version and hash from real solc output (the sandbox Vault, 0.8.28)', () => {
    const compiled = JSON.parse(fs.readFileSync(path.join(ROOT, 'sandbox/src/compiled/inspector.json'), 'utf8')) as {
      contracts: Array<{ name: string; deployedBytecode: string }>;
    };
    const m = readMetadata(compiled.contracts.find((c) => c.name === 'Vault')!.deployedBytecode);
    assert.strictEqual(m?.solc, '0.8.28');
    assert.match(m?.hash ?? '', /^1220[0-9a-f]{64}$/, 'an IPFS multihash');
    assert.strictEqual(readMetadata(CODE), undefined, 'no metadata tail: nothing read');
  });

  it('another compiler version in the metadata: said as such, with the version to build with', () => {
    const d = codeDifference(`0x${CODE}${tail('aa', [0, 8, 24])}`, `${CODE}00${tail('bb', [0, 8, 28])}`);
    assert.strictEqual(d.kind, 'compiler');
    assert.deepStrictEqual([d.onChainCompiler, d.buildCompiler], ['0.8.24', '0.8.28']);
    const text = codeDifferenceText(d);
    assert.strictEqual(
      text,
      'the code deployed was compiled with solc 0.8.24 and this build with solc 0.8.28: build with solc 0.8.24 and the settings of the deployment',
    );
    // the build's own version (build info) wins over its code's metadata
    assert.strictEqual(
      codeDifference(
        `0x${CODE}${tail('aa', [0, 8, 24])}`,
        `${CODE}${tail('aa', [0, 8, 24])}00`,
        '0.8.26+commit.8a97fa7a',
      ).buildCompiler,
      '0.8.26',
    );
  });

  it('another length, the same compiler: the source or the settings, not "the source"', () => {
    const d = codeDifference(`${CODE}00${tail('aa', [0, 8, 28])}`, `${CODE}${tail('bb', [0, 8, 28])}`);
    assert.strictEqual(d.kind, 'length');
    assert.deepStrictEqual([d.onChainBytes, d.buildBytes], [CODE.length / 2 + 1, CODE.length / 2]);
    assert.strictEqual(
      codeDifferenceText(d),
      `the code deployed is ${CODE.length / 2 + 1} bytes and this build ${CODE.length / 2} bytes (metadata aside), with the same compiler (solc 0.8.28): the source or the compiler settings (optimizer, runs, viaIR, EVM version) are not those of the deployment`,
    );
  });

  it('another length, no compiler version on chain: the source, the compiler or its settings', () => {
    const d = codeDifference(`${CODE}00`, `${CODE}${tail('bb', [0, 8, 28])}`, '0.8.28+commit.7893614a');
    assert.strictEqual(d.kind, 'length');
    assert.strictEqual(d.onChainCompiler, undefined);
    assert.match(codeDifferenceText(d), /: the source, the compiler version or its settings are not those/);
  });

  it('the same length, another metadata hash: where it first differs, a change that kept the size', () => {
    const changed = CODE.slice(0, 20) + 'ff' + CODE.slice(22);
    const d = codeDifference(`${changed}${tail('aa', [0, 8, 28])}`, `${CODE}${tail('bb', [0, 8, 28])}`);
    assert.strictEqual(d.kind, 'sameLength');
    assert.strictEqual(d.firstDifference, 10);
    assert.match(
      codeDifferenceText(d),
      /differs from byte 10, and its metadata hash differs: a change of the source, or of a setting/,
    );
  });

  it('the same metadata, other bytes: values written at deployment, never the source', () => {
    const changed = CODE.slice(0, 20) + 'ff' + CODE.slice(22);
    const d = codeDifference(`${changed}${tail('aa', [0, 8, 28])}`, `${CODE}${tail('aa', [0, 8, 28])}`, undefined, 10);
    assert.strictEqual(d.kind, 'deployTime');
    const text = codeDifferenceText(d);
    assert.match(text, /from byte 10: values written at deployment \(immutables, library addresses\)/);
    assert.doesNotMatch(text, /source/);
  });

  it('library placeholders in the build count as the 20 bytes they stand for', () => {
    const placeholder = `__$${'0'.repeat(34)}$__`;
    const d = codeDifference(`${CODE}${'11'.repeat(20)}00`, `${CODE}${placeholder}`);
    assert.strictEqual(d.kind, 'length');
    assert.deepStrictEqual([d.onChainBytes, d.buildBytes], [CODE.length / 2 + 21, CODE.length / 2 + 20]);
  });
});
