import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { encodeAbiParameters } from 'viem';
import type { AbiParameter } from 'viem';
import { AbiRegistry, decodeContractResult, decodeCreation } from '../../src/api/decode';
import { metadataTailLength } from '../../src/api/decode/solcOutput';
import { parseAbiFile } from '../../src/api/decode/abiFiles';
import type { AbiFile } from '../../src/api/decode/abiFiles';

const ROOT = path.join(__dirname, '../../..');
const HH3 = 'test/fixtures/workspaces/hardhat3';
/** A real artifact of the fixtures, read as the ABI index reads it. */
function artifact(rel: string, as = rel): AbiFile {
  const f = parseAbiFile(as, fs.readFileSync(path.join(ROOT, rel), 'utf8'));
  assert.ok(f, rel);
  return f;
}
const erc20 = () =>
  artifact(
    `${HH3}/artifacts/@openzeppelin/contracts/token/ERC20/ERC20.sol/ERC20.json`,
    'artifacts/@openzeppelin/contracts/token/ERC20/ERC20.sol/ERC20.json',
  );
const rig = () =>
  artifact(`${HH3}/artifacts/contracts/RigToken.sol/RigToken.json`, 'artifacts/contracts/RigToken.sol/RigToken.json');
const encodeCtor = (f: AbiFile, args: unknown[]) =>
  encodeAbiParameters((f.constructorInputs ?? []) as unknown as AbiParameter[], args as never).slice(2);

describe('contract creations: artifact and constructor arguments (src/api/decode/creation.ts)', () => {
  it('artifacts keep their creation bytecode and constructor inputs (Hardhat 3)', () => {
    const f = erc20();
    assert.match(f.bytecode ?? '', /^0x6080604052/);
    assert.deepStrictEqual(
      f.constructorInputs?.map((p) => `${p.type} ${p.name}`),
      ['string name_'],
    );
    assert.deepStrictEqual(rig().constructorInputs, []);
    // interfaces / ABI-only files have none
    assert.strictEqual(
      artifact('test/workspace/artifacts/contracts/sandbox/SandToken.sol/SandToken.json').bytecode,
      undefined,
    );
  });

  it('the metadata tail is found from its length bytes', () => {
    const code = (rig().bytecode ?? '').slice(2);
    const len = metadataTailLength(code);
    assert.strictEqual(len, (0x33 + 2) * 2);
    assert.strictEqual(code.slice(code.length - len, code.length - len + 2), 'a2');
    assert.strictEqual(metadataTailLength('6080604052'), 0);
  });

  it('init code = bytecode + encoded constructor arguments: names the artifact and decodes the arguments', () => {
    const f = erc20();
    const init = `${f.bytecode}${encodeCtor(f, ['Rig Token'])}`;
    const c = decodeCreation(init, [rig(), f]);
    assert.ok(c);
    assert.strictEqual(c.contractName, 'ERC20');
    assert.strictEqual(c.origin?.label, 'artifacts/@openzeppelin/contracts/token/ERC20/ERC20.sol/ERC20.json');
    assert.deepStrictEqual(
      c.args?.map((a) => [a.name, a.type, a.value]),
      [['name_', 'string', '"Rig Token"']],
    );
    assert.strictEqual(c.text, 'ERC20(name_="Rig Token")');
    assert.strictEqual(c.argsUndecoded, undefined);
    // no constructor arguments
    const r = decodeCreation(rig().bytecode, [f, rig()]);
    assert.strictEqual(r?.contractName, 'RigToken');
    assert.deepStrictEqual(r?.args, []);
    assert.strictEqual(r?.text, 'RigToken');
  });

  it('another build of the same source (other metadata hash) still matches; other code does not', () => {
    const f = erc20();
    const code = (f.bytecode ?? '').slice(2);
    const meta = metadataTailLength(code);
    // change the hash bytes inside the CBOR tail (after the map and key headers), keep its length
    const start = code.length - meta + 20;
    const rebuilt = `${code.slice(0, start)}${'ab'.repeat(10)}${code.slice(start + 20)}`;
    assert.notStrictEqual(rebuilt, code);
    assert.strictEqual(decodeCreation(`0x${rebuilt}${encodeCtor(f, ['X'])}`, [f])?.contractName, 'ERC20');
    // one changed opcode in the body: no match
    const body = `${code.slice(0, 200)}${code[200] === 'f' ? 'e' : 'f'}${code.slice(201)}`;
    assert.strictEqual(decodeCreation(`0x${body}`, [f]), undefined);
    assert.strictEqual(decodeCreation('0x6080604052', [f]), undefined);
    assert.strictEqual(decodeCreation('0x0707', [f]), undefined);
  });

  it('Foundry artifacts (bytecode.object) and library link placeholders', () => {
    const hh = erc20();
    const foundryText = JSON.stringify({
      abi: JSON.parse(
        fs.readFileSync(
          path.join(ROOT, `${HH3}/artifacts/@openzeppelin/contracts/token/ERC20/ERC20.sol/ERC20.json`),
          'utf8',
        ),
      ).abi,
      bytecode: { object: hh.bytecode, linkReferences: {} },
      deployedBytecode: { object: '0x' },
    });
    const foundry = parseAbiFile('out/ERC20.sol/ERC20.json', foundryText);
    assert.strictEqual(foundry?.format, 'foundry');
    assert.strictEqual(
      decodeCreation(`${hh.bytecode}${encodeCtor(hh, ['F'])}`, [foundry as AbiFile])?.text,
      'ERC20(name_="F")',
    );
    // a library address linked in at deployment: the artifact holds a placeholder there
    const code = (rig().bytecode ?? '').slice(2);
    const at = 400;
    const linkedArtifact: AbiFile = {
      ...rig(),
      bytecode: `0x${code.slice(0, at)}__$${'1'.repeat(34)}$__${code.slice(at + 40)}`,
    };
    const deployed = `0x${code.slice(0, at)}${'a'.repeat(40)}${code.slice(at + 40)}`;
    const linked = decodeCreation(deployed, [linkedArtifact]);
    // the constructor arguments start right after the code (none here): the whole init code is the linked bytecode
    assert.strictEqual(linked?.argsHex, '');
    assert.strictEqual(linked?.contractName, 'RigToken');
  });

  it("each artifact's bytecode is prepared once, not for every creation decoded", () => {
    const f = erc20();
    let reads = 0;
    const code = f.bytecode;
    const counted: AbiFile = { ...f };
    Object.defineProperty(counted, 'bytecode', {
      get: () => {
        reads++;
        return code;
      },
      enumerable: true,
    });
    for (const name of ['A', 'B', 'C'])
      assert.strictEqual(decodeCreation(`${code}${encodeCtor(f, [name])}`, [counted])?.text, `ERC20(name_="${name}")`);
    assert.strictEqual(reads, 1);
  });

  it('arguments that do not fit the constructor are kept as hex', () => {
    const f = erc20();
    const c = decodeCreation(`${f.bytecode}1234`, [f]);
    assert.strictEqual(c?.contractName, 'ERC20');
    assert.strictEqual(c?.argsUndecoded, true);
    assert.strictEqual(c?.argsHex, '0x1234');
  });

  it('decodeContractResult: a creation result is a creation, not a call with selector 0x60806040', () => {
    const f = erc20();
    const reg = new AbiRegistry([
      rig(),
      f,
      artifact(
        `${HH3}/ignition/deployments/chain-296/artifacts/RigModule#RigToken.json`,
        'ignition/deployments/chain-296/artifacts/RigModule#RigToken.json',
      ),
    ]);
    const init = `${f.bytecode}${encodeCtor(f, ['Rig'])}`;
    // as the real server shapes an EVM creation: the created contract is the result's contract
    const created = {
      contract_id: '0.0.6005',
      created_contract_ids: ['0.0.6005'],
      to: '0x0000000000000000000000000000000000001775',
      address: '0x0000000000000000000000000000000000001775',
      function_parameters: init,
      call_result: '0x',
      error_message: null,
    };
    const d = decodeContractResult(created, false, reg);
    assert.strictEqual(d.call, undefined);
    assert.strictEqual(d.creation?.text, 'ERC20(name_="Rig")');
    // init code with `to` null, created ids not sent
    assert.strictEqual(
      decodeContractResult(
        { function_parameters: rig().bytecode ?? null, call_result: null, error_message: null, to: null },
        false,
        reg,
      ).creation?.contractName,
      'RigToken',
    );
    // a native ContractCreate (function_parameters: constructor arguments only): a creation no artifact names
    assert.deepStrictEqual(
      decodeContractResult({ ...created, function_parameters: `0x${encodeCtor(f, ['Rig'])}` }, false, reg).creation,
      {},
    );
    // a call that created another contract is still a call
    assert.strictEqual(
      decodeContractResult(
        { ...created, created_contract_ids: ['0.0.7001'], function_parameters: '0x0707' },
        false,
        reg,
      ).creation,
      undefined,
    );
  });
});
