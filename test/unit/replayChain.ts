/**
 * A mirror node over a sandbox EvmChain, for replays of calls made on it: the accounts and contracts named (balance,
 * nonce and runtime code as the chain has them now), the blocks from a function, every URL asked kept; and the record
 * of a chain's execution as `/contracts/results/{id}` and `…/actions` would give it.
 */
import * as http from 'http';
import type { EvmChain, Execution } from '../../sandbox/src/evm';
import type { ContractResultDetails } from '../../src/api/mirrorTypes';
import type { ReplayInput } from '../../src/api/replay';

export interface ChainParty {
  address: string;
  entityId: string;
  contract?: boolean;
}

export interface ChainMirror {
  url: string;
  urls: string[];
  close: () => Promise<void>;
}

const NOT_FOUND = { _status: { messages: [{ message: 'Not found' }] } };

export async function chainMirror(
  chain: EvmChain,
  parties: readonly ChainParty[],
  blocks: (n: bigint) => Promise<{ status: number; body: unknown }> = async () => ({ status: 404, body: NOT_FOUND }),
): Promise<ChainMirror> {
  const urls: string[] = [];
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '';
      urls.push(url);
      const send = (status: number, body: unknown): void => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      const p = /^\/api\/v1\/([a-z]+)\/([^/?]+)/.exec(url);
      const [kind, id] = p ? [p[1], p[2].toLowerCase()] : ['', ''];
      if (kind === 'blocks') {
        const b = await blocks(BigInt(id));
        return send(b.status, b.body);
      }
      const party = parties.find((x) => x.address.toLowerCase() === id || x.entityId === id);
      if (!party) return send(404, NOT_FOUND);
      const address = party.address.toLowerCase();
      if (kind === 'contracts' && party.contract)
        return send(200, {
          contract_id: party.entityId,
          evm_address: address,
          runtime_bytecode: await chain.codeOf(address),
          nonce: Number(await chain.nonceOf(address)),
        });
      if (kind === 'accounts')
        return send(200, {
          account: party.entityId,
          evm_address: address,
          balance: { balance: Number(await chain.balanceOf(address)), timestamp: null, tokens: [] },
          ethereum_nonce: Number(await chain.nonceOf(address)),
          type: party.contract ? 'CONTRACT' : 'ACCOUNT',
        });
      send(404, NOT_FOUND);
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    urls,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The record of a call the chain executed (not committed), as the mirror node gives it. */
export function recordOf(
  ex: Execution,
  call: {
    from: string;
    to: ChainParty;
    data: string;
    gas: number;
    timestamp: string;
    block?: { number: bigint; hash: string };
  },
): ReplayInput {
  const record = {
    timestamp: call.timestamp,
    from: call.from,
    to: call.to.address,
    contract_id: call.to.entityId,
    function_parameters: call.data,
    amount: 0,
    gas_limit: call.gas,
    block_number: call.block ? Number(call.block.number) : null,
    block_hash: call.block ? `0x${call.block.hash}` : null,
    result: ex.result,
    call_result: ex.returnValue,
    error_message: ex.errorMessage,
    logs: ex.logs,
    state_changes: ex.stateChanges,
  } as unknown as ContractResultDetails;
  return { record, partial: false, actions: ex.actions };
}
