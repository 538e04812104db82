/**
 * The inspector's contracts (sandbox/src/compiled/inspector.json: Vault, Ledger, the library Accounting, compiled by
 * solc from test/workspace/contracts/inspector) deployed on a fresh chain exactly as on the sandbox's: each by running
 * its creation code with its constructor arguments from the deployer (Hardhat's first account, the Vault's owner), at
 * the nonce whose CREATE address is the recorded one, so the runtime code is byte for byte `deployedBytecode` (checked:
 * a difference throws) and the storage is what the constructors left (the Vault: owner, feeBps 25, name, ledger).
 */
import { createAddressFromString, generateAddress } from '@ethereumjs/util';
import { EvmChain } from './chain';

/** The part of inspector.json read here (its format: sandbox/src/compiled/README.md). */
export interface CompiledInspector {
  contracts: Array<{
    name: string;
    address: string;
    entityId: string;
    bytecode: string;
    constructorArguments: string;
    deployedBytecode: string;
  }>;
}

export interface Party {
  address: string;
  entityId: string;
}

/** Hardhat's first account: Hardhat Ignition's deployer, the Vault's owner (the sandbox's 0.0.7000). */
export const DEPLOYER: Party = { address: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', entityId: '0.0.7000' };

export interface InspectorChain {
  chain: EvmChain;
  deployer: Party;
  /** By contract name: its address and entity id. */
  contracts: Record<string, Party>;
}

/** The CREATE nonce of `from` that gives `address`, searching the first `limit` nonces. */
function nonceFor(from: string, address: string, limit = 256): bigint | undefined {
  const f = createAddressFromString(from).bytes;
  for (let n = 0n; n < BigInt(limit); n++) {
    if (
      `0x${Buffer.from(generateAddress(f, n === 0n ? new Uint8Array(0) : hexBytes(n))).toString('hex')}` ===
      address.toLowerCase()
    )
      return n;
  }
  return undefined;
}

function hexBytes(n: bigint): Uint8Array {
  let h = n.toString(16);
  if (h.length % 2) h = `0${h}`;
  return Uint8Array.from(Buffer.from(h, 'hex'));
}

/**
 * A chain with the inspector's contracts deployed (see the module comment). `deployer` defaults to DEPLOYER; its
 * balance to 1,000,000 ℏ (in tinybars).
 */
export async function createInspectorChain(
  compiled: CompiledInspector,
  options: { deployer?: Party; balance?: bigint } = {},
): Promise<InspectorChain> {
  const chain = await EvmChain.create();
  const deployer = options.deployer ?? DEPLOYER;
  await chain.addAccount({
    address: deployer.address,
    entityId: deployer.entityId,
    balance: options.balance ?? 100_000_000_000_000n,
  });
  const contracts: Record<string, Party> = {};
  let next = 0n;
  for (const c of compiled.contracts) {
    const nonce = nonceFor(deployer.address, c.address);
    if (nonce === undefined) throw new Error(`${c.name} at ${c.address} is no CREATE address of ${deployer.address}`);
    await chain.setNonce(deployer.address, nonce);
    const at = await chain.deploy(deployer.address, c.bytecode, { args: c.constructorArguments, entityId: c.entityId });
    if (at !== c.address.toLowerCase()) throw new Error(`${c.name} was deployed at ${at}, not ${c.address}`);
    const code = await chain.codeOf(at);
    if (code !== c.deployedBytecode.toLowerCase())
      throw new Error(`${c.name}'s runtime code on the chain differs from its deployedBytecode`);
    contracts[c.name] = { address: at, entityId: c.entityId };
    if (nonce + 1n > next) next = nonce + 1n;
  }
  await chain.setNonce(deployer.address, next);
  return { chain, deployer, contracts };
}
