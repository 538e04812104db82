// Storage layouts of the workspace's contracts (src/workspace/storageLayout.ts) and the test workspace's inspector
// build (test/workspace/compile.mjs, real solc 0.8.28). The compiler runs once, in `before`: its output is checked
// against the committed files (a stale build fails here), and the Hardhat 3 and Foundry folders below are written
// from it to a temporary directory, shaped as those tools write them.
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { findStorageLayouts, parseStorageLayout, type StorageLayout } from '../../src/workspace/storageLayout';
import { nodeWorkspaceFs } from '../support/nodeFs';
import type { WorkspaceFs } from '../../src/workspace/workspaceFs';

const ROOT = path.join(__dirname, '../../..');
const WS = path.join(ROOT, 'test/workspace');
const VAULT = 'contracts/inspector/Vault.sol:Vault';
const LEDGER = 'contracts/inspector/Ledger.sol:Ledger';
const ACCOUNTING = 'contracts/inspector/Accounting.sol:Accounting';
const RULES = 'contracts/inspector/VaultRules.sol:VaultRules';
const PROXY = 'contracts/inspector/VaultProxy.sol:VaultProxy';
const ADDR = {
  Vault: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  Ledger: '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512',
  Accounting: '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0',
  VaultRules: '0xcf7ed3acca5a467e9e704c703e8d87f634fb0fc9',
  VaultProxy: '0xdc64a140aa3e981100a9beca4e685f962f0cf6c9',
};

interface SolcContract {
  abi: unknown[];
  metadata: string;
  storageLayout: { storage: unknown[]; types: Record<string, unknown> | null };
  evm: {
    bytecode: {
      object: string;
      sourceMap: string;
      linkReferences: Record<string, Record<string, Array<{ start: number; length: number }>>>;
    };
    deployedBytecode: {
      object: string;
      sourceMap: string;
      linkReferences: Record<string, Record<string, Array<{ start: number; length: number }>>>;
      immutableReferences: Record<string, Array<{ start: number; length: number }>>;
    };
    methodIdentifiers: Record<string, string>;
  };
}
interface SolcOutput {
  contracts: Record<string, Record<string, SolcContract>>;
  sources: Record<string, { id: number; ast: unknown }>;
}
interface Compiled {
  files: Array<{ path: string; content: string }>;
  buildInfo: {
    id: string;
    solcVersion: string;
    solcLongVersion: string;
    input: { sources: Record<string, unknown> };
    output: SolcOutput;
  };
}
interface CompileScript {
  compileInspector(): Compiled;
}

let tmp = '';
/** Writes `files` (relative path → JSON value or text) into a new folder under the temporary directory. */
function folder(name: string, files: Record<string, unknown>): WorkspaceFs {
  const dir = path.join(tmp, name);
  for (const [rel, v] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), typeof v === 'string' ? v : JSON.stringify(v, null, 2));
  }
  return nodeWorkspaceFs(dir);
}
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

describe('workspace: storage layouts', function () {
  this.timeout(60000);
  let fresh: Compiled;
  let out: SolcOutput;
  const layoutOf = (o: SolcOutput, id: string): StorageLayout => {
    const [source, name] = [id.slice(0, id.lastIndexOf(':')), id.slice(id.lastIndexOf(':') + 1)];
    const l = o.contracts[source][name].storageLayout;
    return { storage: l.storage, types: l.types ?? {} } as StorageLayout;
  };

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hedera-storage-layout-'));
    // the script is ES module code run by Node itself (not bundled): import() of its file URL
    const script = (await import(pathToFileURL(path.join(WS, 'compile.mjs')).href)) as CompileScript;
    fresh = script.compileInspector();
    out = fresh.buildInfo.output;
  });
  after(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  describe("the test workspace's build (test/workspace/compile.mjs)", () => {
    it('the committed files are what the compiler gives now (else run `node test/workspace/compile.mjs`)', () => {
      assert.match(fresh.buildInfo.solcLongVersion, /^0\.8\.28\+commit\.7893614a$/);
      assert.deepStrictEqual(
        fresh.files.map((f) => f.path).sort(),
        [
          `test/workspace/artifacts/build-info/${fresh.buildInfo.id}.json`,
          ...['Accounting', 'Ledger', 'Vault', 'VaultProxy', 'VaultRules'].flatMap((n) => [
            `test/workspace/artifacts/contracts/inspector/${n}.sol/${n}.dbg.json`,
            `test/workspace/artifacts/contracts/inspector/${n}.sol/${n}.json`,
          ]),
          'sandbox/src/compiled/inspector.json',
        ].sort(),
      );
      for (const f of fresh.files) {
        const p = path.join(ROOT, f.path);
        assert.ok(fs.existsSync(p), `${f.path} is missing: run node test/workspace/compile.mjs`);
        assert.ok(fs.readFileSync(p, 'utf8') === f.content, `${f.path} is stale: run node test/workspace/compile.mjs`);
      }
      // no older build of the same sources is left beside it
      const ours = fs.readdirSync(path.join(WS, 'artifacts/build-info')).filter((n) => {
        const b = JSON.parse(
          fs.readFileSync(path.join(WS, 'artifacts/build-info', n), 'utf8'),
        ) as Compiled['buildInfo'];
        return Object.keys(b.input.sources).every((s) => s.startsWith('contracts/inspector/'));
      });
      assert.deepStrictEqual(ours, [`${fresh.buildInfo.id}.json`]);
    });

    it('is written as Hardhat 2 writes it: build info named by the md5 of its input, artifacts and .dbg.json pointing at it', () => {
      const text = fs.readFileSync(path.join(WS, 'artifacts/build-info', `${fresh.buildInfo.id}.json`), 'utf8');
      assert.ok(
        text.startsWith(
          `{"id":"${fresh.buildInfo.id}","_format":"hh-sol-build-info-1","solcVersion":"0.8.28","solcLongVersion":"0.8.28+commit.7893614a","input":{`,
        ),
      );
      assert.ok(!text.includes('\n{') && !text.endsWith('\n'), 'one line');
      const b = JSON.parse(text) as Compiled['buildInfo'] & { _format: string };
      assert.deepStrictEqual(Object.keys(b), ['id', '_format', 'solcVersion', 'solcLongVersion', 'input', 'output']);
      assert.deepStrictEqual(Object.keys(b.output), ['sources', 'contracts']);
      const vault = JSON.parse(
        fs.readFileSync(path.join(WS, 'artifacts/contracts/inspector/Vault.sol/Vault.json'), 'utf8'),
      ) as Record<string, unknown>;
      assert.deepStrictEqual(Object.keys(vault), [
        '_format',
        'contractName',
        'sourceName',
        'abi',
        'bytecode',
        'deployedBytecode',
        'linkReferences',
        'deployedLinkReferences',
      ]);
      assert.match(
        String(vault.deployedBytecode),
        /__\$[0-9a-f]{34}\$__/,
        'library placeholders kept, as Hardhat leaves them',
      );
      assert.deepStrictEqual(Object.keys(vault.deployedLinkReferences as object), [
        'contracts/inspector/Accounting.sol',
      ]);
      const dbg = JSON.parse(
        fs.readFileSync(path.join(WS, 'artifacts/contracts/inspector/Vault.sol/Vault.dbg.json'), 'utf8'),
      ) as Record<string, unknown>;
      assert.deepStrictEqual(dbg, {
        _format: 'hh-sol-dbg-1',
        buildInfo: `../../../build-info/${fresh.buildInfo.id}.json`,
      });
      // source maps, ASTs and the other outputs revert to source needs are in the build info
      const c = b.output.contracts['contracts/inspector/Vault.sol'].Vault;
      assert.ok(c.evm.deployedBytecode.sourceMap.length > 100 && c.evm.bytecode.sourceMap.length > 100);
      assert.deepStrictEqual(Object.keys(c.evm.deployedBytecode.immutableReferences).length, 1);
      assert.strictEqual(c.evm.methodIdentifiers['withdraw(uint256)'], '2e1a7d4d');
      assert.deepStrictEqual(
        Object.keys(b.output.sources).map((s) => [
          s,
          b.output.sources[s].id,
          (b.output.sources[s].ast as { nodeType: string }).nodeType,
        ]),
        [
          ['contracts/inspector/Accounting.sol', 0, 'SourceUnit'],
          ['contracts/inspector/Ledger.sol', 1, 'SourceUnit'],
          ['contracts/inspector/Vault.sol', 2, 'SourceUnit'],
          ['contracts/inspector/VaultProxy.sol', 3, 'SourceUnit'],
          ['contracts/inspector/VaultRules.sol', 4, 'SourceUnit'],
        ],
      );
    });

    it("the sandbox's copy (sandbox/src/compiled/inspector.json) is the same code, linked and with its immutable set", () => {
      const copy = JSON.parse(fs.readFileSync(path.join(ROOT, 'sandbox/src/compiled/inspector.json'), 'utf8')) as {
        _format: string;
        buildInfoId: string;
        libraries: Record<string, string>;
        contracts: Array<{
          name: string;
          sourceName: string;
          address: string;
          entityId: string;
          abi: unknown;
          storageLayout: unknown;
          deployedBytecode: string;
          deployedSourceMap: string;
          immutableReferences: Record<string, Array<{ start: number; length: number }>>;
          immutableValues: Record<string, string>;
        }>;
      };
      assert.deepStrictEqual(
        [copy._format, copy.buildInfoId, copy.libraries],
        ['hedera-explorer-compiled-1', fresh.buildInfo.id, { [ACCOUNTING]: ADDR.Accounting }],
      );
      assert.deepStrictEqual(
        copy.contracts.map((c) => [c.name, c.address, c.entityId]),
        [
          ['Vault', ADDR.Vault, '0.0.7001'],
          ['Ledger', ADDR.Ledger, '0.0.7002'],
          ['Accounting', ADDR.Accounting, '0.0.7003'],
          ['VaultRules', ADDR.VaultRules, '0.0.7010'],
          ['VaultProxy', ADDR.VaultProxy, '0.0.7011'],
        ],
      );
      for (const c of copy.contracts) {
        const compiled = out.contracts[c.sourceName][c.name];
        assert.deepStrictEqual(c.storageLayout, layoutOf(out, `${c.sourceName}:${c.name}`));
        assert.deepStrictEqual(
          [c.abi, c.deployedSourceMap, c.immutableReferences],
          [compiled.abi, compiled.evm.deployedBytecode.sourceMap, compiled.evm.deployedBytecode.immutableReferences],
        );
        // every byte as compiled except the library address, the immutables and a library's own address
        const ours = c.deployedBytecode.slice(2);
        let expected = compiled.evm.deployedBytecode.object;
        assert.strictEqual(ours.length, expected.length, c.name);
        assert.ok(!ours.includes('__$'), c.name);
        const put = (start: number, hex: string) => {
          expected = expected.slice(0, start * 2) + hex + expected.slice(start * 2 + hex.length);
        };
        for (const refs of Object.values(compiled.evm.deployedBytecode.linkReferences))
          for (const r of Object.values(refs).flat()) put(r.start, ADDR.Accounting.slice(2));
        for (const [id, refs] of Object.entries(compiled.evm.deployedBytecode.immutableReferences))
          for (const r of refs) put(r.start, c.immutableValues[id].slice(2));
        if (c.name === 'Accounting') put(1, ADDR.Accounting.slice(2));
        assert.strictEqual(ours, expected, c.name);
      }
      assert.deepStrictEqual(Object.values(copy.contracts[0].immutableValues), [
        `0x${(500).toString(16).padStart(64, '0')}`,
      ]);
    });
  });

  describe('Hardhat 2 (the test workspace)', () => {
    const ws = nodeWorkspaceFs(WS);

    it('reads every layout of the build info, as the compiler gave it; builds without storageLayout give none', async () => {
      const idx = await findStorageLayouts([ws]);
      assert.deepStrictEqual(idx.problems, []);
      assert.deepStrictEqual(
        idx.layouts.map((l) => [l.identifier, l.format, l.file, l.buildId]),
        [ACCOUNTING, LEDGER, VAULT, PROXY, RULES].map((id) => [
          id,
          'hardhat',
          `artifacts/build-info/${fresh.buildInfo.id}.json`,
          fresh.buildInfo.id,
        ]),
      );
      for (const id of [VAULT, LEDGER, ACCOUNTING, PROXY, RULES])
        assert.deepStrictEqual((await idx.byName(id))?.layout, layoutOf(out, id), id);
      assert.strictEqual(
        await idx.byName('contracts/Counter.sol:Counter'),
        undefined,
        'the older build was compiled without storageLayout',
      );
      assert.strictEqual(
        await idx.byName('contracts/sandbox/StakingVault.sol:StakingVault'),
        undefined,
        'an artifact alone has no layout',
      );
    });

    it('Vault and Ledger: every state variable at its slot and offset, packed ones sharing slot 0', async () => {
      const idx = await findStorageLayouts([ws]);
      const table = (l: StorageLayout | undefined) =>
        l?.storage.map((s) => [
          s.label,
          s.slot,
          s.offset,
          l.types[s.type].label,
          l.types[s.type].encoding,
          l.types[s.type].numberOfBytes,
        ]);
      assert.deepStrictEqual(table((await idx.byName(VAULT))?.layout), [
        ['owner', '0', 0, 'address', 'inplace', '20'],
        ['feeBps', '0', 20, 'uint96', 'inplace', '12'],
        ['paused', '1', 0, 'bool', 'inplace', '1'],
        ['totalDeposits', '2', 0, 'uint256', 'inplace', '32'],
        ['balances', '3', 0, 'mapping(address => uint256)', 'mapping', '32'],
        ['name', '4', 0, 'string', 'bytes', '32'],
        ['ledger', '5', 0, 'contract Ledger', 'inplace', '20'],
        ['spins', '6', 0, 'uint256', 'inplace', '32'],
      ]);
      assert.deepStrictEqual(table((await idx.byName('Ledger'))?.layout), [
        ['entries', '0', 0, 'mapping(address => uint256)', 'mapping', '32'],
        ['count', '1', 0, 'uint256', 'inplace', '32'],
      ]);
      const vault = (await idx.byName('Vault'))?.layout;
      assert.deepStrictEqual(
        [vault?.types['t_mapping(t_address,t_uint256)'].key, vault?.types['t_mapping(t_address,t_uint256)'].value],
        ['t_address', 't_uint256'],
      );
      assert.deepStrictEqual(
        (await idx.byName(ACCOUNTING))?.layout,
        { storage: [], types: {} },
        'a library: no storage (solc says types: null)',
      );
    });

    it('by address, through the Ignition records (chain 296), any case; other chains and unknown addresses give undefined', async () => {
      const idx = await findStorageLayouts([ws]);
      assert.strictEqual(
        (await idx.byAddress(ADDR.Vault.toUpperCase().replace('0X', '0x'), { chainId: 296 }))?.identifier,
        VAULT,
      );
      assert.strictEqual((await idx.byAddress(ADDR.Ledger))?.identifier, LEDGER);
      assert.strictEqual((await idx.byAddress(ADDR.Accounting))?.identifier, ACCOUNTING);
      assert.strictEqual(await idx.byAddress(ADDR.Vault, { chainId: 295 }), undefined);
      assert.strictEqual(
        await idx.byAddress('0x1000000000000000000000000000000000000003'),
        undefined,
        'Counter: deployed, no layout',
      );
      assert.strictEqual(await idx.byAddress('0x00000000000000000000000000000000000004d2'), undefined);
      // records the caller already has (the ABI index's) are used instead of reading them again
      const given = await findStorageLayouts([ws], {
        deployments: [{ address: '0x00000000000000000000000000000000000004d2', contractName: 'Ledger', chainId: 296 }],
      });
      assert.strictEqual((await given.byAddress('0x00000000000000000000000000000000000004d2'))?.identifier, LEDGER);
      assert.strictEqual(await given.byAddress(ADDR.Vault), undefined);
    });
  });

  describe('Hardhat 3 and Foundry', () => {
    const P = (s: string) => s.replace(/^contracts\//, 'project/contracts/');
    /** The output as Hardhat 3 names its sources (`project/…`): in keys, ASTs, metadata and layouts alike. */
    const hh3Output = () =>
      JSON.parse(
        JSON.stringify(out).replaceAll('"contracts/inspector/', '"project/contracts/inspector/'),
      ) as SolcOutput;
    /** An earlier build of the Vault: the same output without `spins` (its last variable), its code one byte apart. */
    const olderOutput = (o: SolcOutput) => {
      const older = clone(o);
      const [source] = Object.keys(older.contracts).filter((s) => s.endsWith('Vault.sol'));
      const v = older.contracts[source].Vault;
      v.storageLayout.storage = v.storageLayout.storage.slice(0, -1);
      const code = v.evm.deployedBytecode.object;
      v.evm.deployedBytecode.object = code.slice(0, 200) + (code[200] === 'f' ? 'e' : 'f') + code.slice(201);
      return older;
    };
    const hh3Files = (id: string, o: SolcOutput) => ({
      [`artifacts/build-info/${id}.json`]: {
        _format: 'hh3-sol-build-info-1',
        id,
        solcVersion: '0.8.28',
        solcLongVersion: fresh.buildInfo.solcLongVersion,
        userSourceNameMap: Object.fromEntries(Object.keys(out.sources).map((s) => [s, P(s)])),
        input: JSON.parse(
          JSON.stringify(fresh.buildInfo.input).replaceAll('"contracts/inspector/', '"project/contracts/inspector/'),
        ) as unknown,
      },
      [`artifacts/build-info/${id}.output.json`]: { _format: 'hh3-sol-build-info-output-1', id, output: o },
    });
    const hh3Artifact = (o: SolcOutput, name: string, buildInfoId: string) => {
      const source = `contracts/inspector/${name}.sol`;
      const c = o.contracts[P(source)][name];
      return {
        _format: 'hh3-artifact-1',
        contractName: name,
        sourceName: source,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
        linkReferences: c.evm.bytecode.linkReferences,
        deployedLinkReferences: c.evm.deployedBytecode.linkReferences,
        immutableReferences: c.evm.deployedBytecode.immutableReferences,
        inputSourceName: P(source),
        buildInfoId,
      };
    };
    // the older build's id sorts first: file-name order alone would pick it
    const OLD = 'solc-0_8_28-0000aaaa';
    const NEW = 'solc-0_8_28-ffff0000';

    it('Hardhat 3: the output file next to the build info, `project/` source names, the build the artifact names', async () => {
      const newOut = hh3Output();
      const older = olderOutput(newOut);
      const hh3 = folder('hh3', {
        ...hh3Files(OLD, older),
        ...hh3Files(NEW, newOut),
        'artifacts/contracts/inspector/Vault.sol/Vault.json': hh3Artifact(newOut, 'Vault', NEW),
        'ignition/deployments/chain-296/deployed_addresses.json': { 'InspectorModule#Vault': ADDR.Vault },
        'ignition/deployments/chain-296/artifacts/InspectorModule#Vault.json': hh3Artifact(newOut, 'Vault', NEW),
      });
      const idx = await findStorageLayouts([hh3]);
      assert.deepStrictEqual(idx.problems, []);
      assert.deepStrictEqual(
        idx.layouts.filter((l) => l.contractName === 'Vault').map((l) => [l.format, l.buildId, l.sourceName, l.file]),
        [OLD, NEW].map((id) => [
          'hardhat3',
          id,
          'project/contracts/inspector/Vault.sol',
          `artifacts/build-info/${id}.output.json`,
        ]),
      );
      const byName = await idx.byName(VAULT);
      assert.strictEqual(byName?.buildId, NEW);
      assert.deepStrictEqual(byName?.layout, layoutOf(newOut, `project/${VAULT}`));
      assert.strictEqual(byName?.layout.storage[0].contract, `project/${VAULT}`, 'the layout as the compiler wrote it');
      assert.strictEqual((await idx.byName(`project/${VAULT}`))?.buildId, NEW);
      assert.strictEqual(
        (await idx.byAddress(ADDR.Vault, { chainId: 296 }))?.buildId,
        NEW,
        'through the Ignition record',
      );
      assert.strictEqual((await idx.byName(LEDGER))?.layout.storage.length, 2, 'builds that agree: either');
    });

    it('Hardhat 3 without the artifact: the code on chain chooses; nothing to choose by gives undefined, not a guess', async () => {
      const newOut = hh3Output();
      const older = olderOutput(newOut);
      const hh3 = folder('hh3-no-artifact', { ...hh3Files(OLD, older), ...hh3Files(NEW, newOut) });
      const idx = await findStorageLayouts([hh3]);
      const runtime = (o: SolcOutput) =>
        o.contracts[P('contracts/inspector/Vault.sol')].Vault.evm.deployedBytecode.object;
      assert.strictEqual((await idx.byName(VAULT, { runtimeBytecode: runtime(newOut) }))?.buildId, NEW);
      assert.strictEqual((await idx.byName(VAULT, { runtimeBytecode: `0x${runtime(older)}` }))?.buildId, OLD);
      assert.strictEqual((await idx.byName(VAULT, { runtimeBytecode: runtime(older) }))?.layout.storage.length, 7);
      assert.strictEqual(await idx.byName(VAULT), undefined);
    });

    /** Foundry's artifact of a contract (`extra_output = ["storageLayout"]`): code objects, metadata, storage layout. */
    const foundryArtifact = (name: string, opts: { metadata?: boolean } = {}) => {
      const source = `contracts/inspector/${name}.sol`;
      const c = out.contracts[source][name];
      return {
        abi: c.abi,
        bytecode: {
          object: `0x${c.evm.bytecode.object}`,
          sourceMap: c.evm.bytecode.sourceMap,
          linkReferences: c.evm.bytecode.linkReferences,
        },
        deployedBytecode: {
          object: `0x${c.evm.deployedBytecode.object}`,
          sourceMap: c.evm.deployedBytecode.sourceMap,
          linkReferences: c.evm.deployedBytecode.linkReferences,
          immutableReferences: c.evm.deployedBytecode.immutableReferences,
        },
        methodIdentifiers: c.evm.methodIdentifiers,
        rawMetadata: c.metadata,
        ...(opts.metadata === false
          ? { ast: { absolutePath: source, nodeType: 'SourceUnit' } }
          : { metadata: JSON.parse(c.metadata) as unknown }),
        storageLayout: c.storageLayout,
        id: out.sources[source].id,
      };
    };
    const broadcast = {
      transactions: [
        {
          hash: `0x${'11'.repeat(32)}`,
          transactionType: 'CREATE',
          contractName: 'Ledger',
          contractAddress: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
        },
        {
          hash: `0x${'22'.repeat(32)}`,
          transactionType: 'CREATE',
          contractName: 'Vault',
          contractAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
        },
      ],
    };

    it("Foundry out/ artifacts: the compilation target names the contract (else the AST's path); by address through the broadcast", async () => {
      const foundry = folder('foundry', {
        'foundry.toml': '[profile.default]\nsrc = "contracts"\nextra_output = ["storageLayout"]\n',
        'out/Vault.sol/Vault.json': foundryArtifact('Vault'),
        'out/Ledger.sol/Ledger.json': foundryArtifact('Ledger', { metadata: false }),
        'out/Accounting.sol/Accounting.json': { ...foundryArtifact('Accounting'), storageLayout: undefined },
        'broadcast/Deploy.s.sol/296/run-latest.json': broadcast,
      });
      const idx = await findStorageLayouts([foundry]);
      assert.deepStrictEqual(idx.problems, []);
      assert.deepStrictEqual(
        idx.layouts.map((l) => [l.identifier, l.format, l.file]),
        [
          [LEDGER, 'foundry-artifact', 'out/Ledger.sol/Ledger.json'],
          [VAULT, 'foundry-artifact', 'out/Vault.sol/Vault.json'],
        ],
      );
      assert.deepStrictEqual((await idx.byAddress(ADDR.Vault, { chainId: 296 }))?.layout, layoutOf(out, VAULT));
      assert.deepStrictEqual((await idx.byAddress(ADDR.Ledger))?.layout, layoutOf(out, LEDGER));
      assert.strictEqual(await idx.byName(ACCOUNTING), undefined, 'built without the layout');
    });

    it('Foundry out/build-info (when build_info is on), alone or with the artifacts', async () => {
      const buildInfo = {
        id: fresh.buildInfo.id,
        source_id_to_path: {
          0: 'contracts/inspector/Accounting.sol',
          1: 'contracts/inspector/Ledger.sol',
          2: 'contracts/inspector/Vault.sol',
          3: 'contracts/inspector/VaultProxy.sol',
          4: 'contracts/inspector/VaultRules.sol',
        },
        language: 'Solidity',
        input: fresh.buildInfo.input,
        output: out,
      };
      const onlyBuildInfo = await findStorageLayouts([
        folder('foundry-bi', {
          [`out/build-info/${fresh.buildInfo.id}.json`]: buildInfo,
          'broadcast/Deploy.s.sol/296/run-latest.json': broadcast,
        }),
      ]);
      assert.deepStrictEqual(
        onlyBuildInfo.layouts.map((l) => [l.identifier, l.format]),
        [
          [ACCOUNTING, 'foundry'],
          [LEDGER, 'foundry'],
          [VAULT, 'foundry'],
          [PROXY, 'foundry'],
          [RULES, 'foundry'],
        ],
      );
      assert.deepStrictEqual((await onlyBuildInfo.byAddress(ADDR.Vault))?.layout, layoutOf(out, VAULT));
      const both = await findStorageLayouts([
        folder('foundry-both', {
          [`out/build-info/${fresh.buildInfo.id}.json`]: buildInfo,
          'out/Vault.sol/Vault.json': foundryArtifact('Vault'),
        }),
      ]);
      assert.deepStrictEqual((await both.byName(VAULT))?.layout, layoutOf(out, VAULT));
      // a later compile changed the Vault: the out/ artifact is the latest, the build info an older one
      const older = olderOutput(out);
      const stale = await findStorageLayouts([
        folder('foundry-stale', {
          [`out/build-info/${fresh.buildInfo.id}.json`]: { ...buildInfo, output: older },
          'out/Vault.sol/Vault.json': foundryArtifact('Vault'),
        }),
      ]);
      assert.deepStrictEqual(
        [(await stale.byName(VAULT))?.format, (await stale.byName(VAULT))?.layout.storage.length],
        ['foundry-artifact', 8],
      );
    });

    it('the first folder that has the contract answers; the same name in two files of one folder is ambiguous', async () => {
      const a = folder('multi-a', { 'out/Vault.sol/Vault.json': foundryArtifact('Vault') });
      const b = folder('multi-b', { 'out/Ledger.sol/Ledger.json': foundryArtifact('Ledger') });
      const idx = await findStorageLayouts([a, b]);
      assert.deepStrictEqual(
        [(await idx.byName('Vault'))?.folder, (await idx.byName('Ledger'))?.folder],
        ['multi-a', 'multi-b'],
      );
      const twin = {
        ...foundryArtifact('Ledger'),
        metadata: { settings: { compilationTarget: { 'contracts/other/Vault.sol': 'Vault' } } },
      };
      const twins = await findStorageLayouts([
        folder('twins', {
          'out/Vault.sol/Vault.json': foundryArtifact('Vault'),
          'out/other/Vault.sol/Vault.json': twin,
        }),
      ]);
      assert.strictEqual(await twins.byName('Vault'), undefined);
      assert.strictEqual((await twins.byName(VAULT))?.layout.storage.length, 8);
      assert.strictEqual((await twins.byName('contracts/other/Vault.sol:Vault'))?.layout.storage.length, 2);
    });
  });

  describe('hostile and malformed files', () => {
    const good = () =>
      clone(layoutOf(out, VAULT)) as unknown as {
        storage: Array<Record<string, unknown>>;
        types: Record<string, Record<string, unknown>>;
      };
    const broken: Array<[string, (l: ReturnType<typeof good>) => unknown]> = [
      ['storage not an array', (l) => ({ ...l, storage: {} })],
      ['types an array', (l) => ({ ...l, types: [] })],
      [
        'a negative slot',
        (l) => {
          l.storage[0].slot = '-1';
          return l;
        },
      ],
      [
        'a slot in exponent form',
        (l) => {
          l.storage[0].slot = '1e3';
          return l;
        },
      ],
      [
        'a slot past 2^256',
        (l) => {
          l.storage[0].slot = (1n << 256n).toString();
          return l;
        },
      ],
      [
        'a numeric slot',
        (l) => {
          l.storage[0].slot = 0;
          return l;
        },
      ],
      [
        'offset 32',
        (l) => {
          l.storage[0].offset = 32;
          return l;
        },
      ],
      [
        'a fractional offset',
        (l) => {
          l.storage[0].offset = 1.5;
          return l;
        },
      ],
      [
        'a packed value past its slot',
        (l) => {
          l.storage[1].offset = 21;
          return l;
        },
      ],
      [
        'a value larger than a slot not at offset 0',
        (l) => {
          l.types.t_uint256.numberOfBytes = '64';
          l.storage[3].offset = 1;
          return l;
        },
      ],
      [
        'an empty label',
        (l) => {
          l.storage[0].label = '';
          return l;
        },
      ],
      [
        'a string astId',
        (l) => {
          l.storage[0].astId = '161';
          return l;
        },
      ],
      [
        'a type that is not in types',
        (l) => {
          l.storage[0].type = 't_address_payable';
          return l;
        },
      ],
      [
        'a type named __proto__',
        (l) => {
          l.storage[0].type = '__proto__';
          return l;
        },
      ],
      [
        'a type named constructor',
        (l) => {
          l.storage[0].type = 'constructor';
          return l;
        },
      ],
      ['a __proto__ key in types', () => JSON.parse(JSON.stringify(good()).replace('"t_address":', '"__proto__":'))],
      [
        'an unknown encoding',
        (l) => {
          l.types.t_bool.encoding = 'packed';
          return l;
        },
      ],
      [
        'numberOfBytes a number',
        (l) => {
          l.types.t_bool.numberOfBytes = 1;
          return l;
        },
      ],
      [
        'a mapping without its value type',
        (l) => {
          delete l.types['t_mapping(t_address,t_uint256)'].value;
          return l;
        },
      ],
      [
        'a mapping to a missing type',
        (l) => {
          l.types['t_mapping(t_address,t_uint256)'].value = 't_uint7';
          return l;
        },
      ],
      [
        'struct members not an array',
        (l) => {
          l.types.t_bool.members = 'x';
          return l;
        },
      ],
      ['10,001 variables', (l) => ({ ...l, storage: Array.from({ length: 10_001 }, () => l.storage[3]) })],
      [
        'a label of 3,000 characters',
        (l) => {
          l.storage[0].label = 'x'.repeat(3000);
          return l;
        },
      ],
    ];

    it('parseStorageLayout: a real layout passes whole; each malformation gives undefined, never throws', () => {
      assert.deepStrictEqual(parseStorageLayout(layoutOf(out, VAULT)), layoutOf(out, VAULT));
      assert.deepStrictEqual(parseStorageLayout({ storage: [], types: null }), { storage: [], types: {} });
      for (const v of [undefined, null, 42, 'x', [], {}, { storage: [], types: 'x' }])
        assert.strictEqual(parseStorageLayout(v), undefined, JSON.stringify(v));
      for (const [why, mutate] of broken) assert.strictEqual(parseStorageLayout(mutate(good())), undefined, why);
      // a label is data, kept as it is (shown as text by the page)
      const l = good();
      l.storage[0].label = '<img src=x onerror=alert(1)>';
      assert.strictEqual(parseStorageLayout(l)?.storage[0].label, '<img src=x onerror=alert(1)>');
    });

    it('files: broken JSON, broken layouts and a failing file system give problems and no layout; the good ones still read', async () => {
      const contracts: Record<string, Record<string, unknown>> = {
        'contracts/Good.sol': { Good: { storageLayout: layoutOf(out, LEDGER) } },
      };
      broken.forEach(([, mutate], i) => {
        contracts[`contracts/Bad${i}.sol`] = { [`Bad${i}`]: { storageLayout: mutate(good()) } };
      });
      contracts['contracts/Odd.sol'] = { Odd: 'x', Odder: { storageLayout: 'x', evm: 7 } };
      const hostile = folder('hostile', {
        'artifacts/build-info/0-broken.json': '{"output": {"contracts"',
        'artifacts/build-info/1-array.json': '[1, 2]',
        'artifacts/build-info/2-layouts.json': { _format: 'hh-sol-build-info-1', output: { contracts } },
        'artifacts/build-info/3-no-contracts.json': { output: { contracts: 'x' } },
        'out/Bad.sol/Bad.json': '{"storageLayout": {"storage": [',
        'out/Worse.sol/Worse.json': {
          storageLayout: 'x',
          metadata: { settings: { compilationTarget: { 'src/Worse.sol': 'Worse' } } },
        },
        'out/Nameless.sol/Nameless.json': { storageLayout: layoutOf(out, LEDGER) },
        'ignition/deployments/chain-296/deployed_addresses.json': {
          'M#Good': ADDR.Ledger,
          'M#Bad0': ADDR.Vault,
          'M#Weird': 12,
        },
      });
      const idx = await findStorageLayouts([hostile]);
      assert.deepStrictEqual(
        idx.layouts.map((l) => l.identifier),
        ['contracts/Good.sol:Good'],
      );
      assert.strictEqual((await idx.byAddress(ADDR.Ledger))?.identifier, 'contracts/Good.sol:Good');
      assert.strictEqual(await idx.byAddress(ADDR.Vault), undefined);
      assert.strictEqual(await idx.byName('contracts/Bad3.sol:Bad3'), undefined);
      assert.strictEqual(await idx.byName(''), undefined);
      assert.strictEqual(await idx.byName(':'), undefined);
      for (const [i] of broken.entries())
        assert.ok(
          idx.problems.includes(
            `hostile/artifacts/build-info/2-layouts.json: the storage layout of contracts/Bad${i}.sol:Bad${i} is not usable`,
          ),
          `Bad${i}`,
        );
      assert.ok(
        idx.problems.includes('hostile/artifacts/build-info/0-broken.json: no compiler output in it'),
        idx.problems.join('\n'),
      );
      assert.ok(idx.problems.includes('hostile/out/Bad.sol/Bad.json: not readable JSON'), idx.problems.join('\n'));
      assert.ok(
        idx.problems.includes('hostile/out/Worse.sol/Worse.json: the storage layout is not usable'),
        idx.problems.join('\n'),
      );
      assert.ok(
        idx.problems.includes('hostile/out/Nameless.sol/Nameless.json: no source path in it'),
        idx.problems.join('\n'),
      );

      // a file system that fails (a remote folder gone): problems, no throw
      const failing: WorkspaceFs = {
        name: 'failing',
        list: () => Promise.reject(new Error('folder gone')),
        read: () => Promise.reject(new Error('read failed')),
      };
      const none = await findStorageLayouts([failing, nodeWorkspaceFs(WS)]);
      assert.ok(
        none.problems.some((p) => p.startsWith('failing: ') && p.includes('folder gone')),
        none.problems.join('\n'),
      );
      assert.strictEqual((await none.byName(VAULT))?.folder, 'workspace', 'the next folder still answers');
      const readFails: WorkspaceFs = {
        name: 'reads-fail',
        list: (d) => nodeWorkspaceFs(WS).list(d),
        read: () => Promise.reject(new Error('read failed')),
      };
      const r = await findStorageLayouts([readFails]);
      assert.deepStrictEqual([r.layouts.length, r.problems.some((p) => p.includes('read failed'))], [0, true]);
    });
  });
});
