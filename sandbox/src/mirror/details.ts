/**
 * What happened inside each generated contract result: its call tree (mirror/trace.ts), events and storage slots,
 * built from what the result says (contract kind, call data, call result, revert data, internal results) with a
 * seeded PRNG of its timestamp, so the same on every start. Built on first request and cached (a bounded LRU).
 *
 * By contract kind: ERC-20 calls (Transfer/Approval, balances and allowances, now and then a compliance STATICCALL
 * or the exchange rate system contract 0x168), ERC-721 (Transfer with its indexed token id, ApprovalForAll, an
 * onERC721Received CALL to a receiving contract, the PRNG 0x169 on mints), routers (transferFrom, then per hop a
 * getReserves STATICCALL and a swap CALL that transfers the output token, with Sync/Swap events and the amounts of
 * the call result), vaults (the account service 0x16a, an asset transfer), DAOs (a votes STATICCALL, a DELEGATECALL
 * into a library, VoteCast with a reason string and an ERC-1155 TransferSingle receipt), creations (CREATE, its
 * call result as output, OwnershipTransferred). Internal results are the depth-1 calls they are (the token
 * service 0x167 as PRECOMPILE, with the token's ERC-20 Transfer event). A revert starts in a nested frame when
 * there is one that fits and bubbles up; halts (INSUFFICIENT_GAS, ...) are ERROR frames with the reason's text.
 */
import { Prng } from '../prng';
import { addrWord, boolWord, uintWord } from '../abi';
import { selectorOf, topicOf } from '../keccak';
import {
  type Contract,
  type ContractData,
  type ContractResultRow,
  HTS_NFT_TOKEN,
  HTS_PRECOMPILE,
  ZERO_BLOOM,
} from './contracts';
import { longZero } from './ids';
import { numOfAddress, senderAddress } from './records';
import {
  type CallNode,
  type Execution,
  type LogSpec,
  type SlotChange,
  addrTopic,
  execute,
  mappingSlot,
  slotHex,
  sortStateChanges,
  uintTopic,
} from './trace';

/** Hedera's system contracts. */
export const EXCHANGE_RATE = 0x168;
export const PRNG_CONTRACT = 0x169;
export const ACCOUNT_SERVICE = 0x16a;

export interface Built {
  exec: Execution;
  /** State changes of the parent's timestamp (a child has none). */
  changes: SlotChange[];
  /** The transaction has no recorded actions (older records): the actions list is empty. */
  noActions?: boolean;
}

const ZERO = '0'.repeat(40);
const w = (v: number | bigint): string => uintWord(v);
const call = (sig: string, ...words: string[]): string => `0x${selectorOf(sig)}${words.join('')}`;
const log = (c: { num: number; evm: string }, topics: string[], data: string, text?: LogSpec['text']): LogSpec => ({
  log: true,
  num: c.num,
  evm: c.evm,
  topics,
  data,
  text,
});
const args = (params: string): string[] => {
  const out: string[] = [];
  for (let i = 10; i + 64 <= params.length; i += 64) out.push(params.slice(i, i + 64));
  return out;
};
const addrArg = (word: string): string => word.slice(24);
const big = (word: string): bigint => BigInt('0x' + word);

/** A contract as an emitter/state owner: its num and its own EVM address. */
const who = (c: Contract): { num: number; evm: string } => ({ num: c.num, evm: c.evm });
const system = (num: number): { num: number; evm: string } => ({ num, evm: longZero(num).slice(2) });

/** `string` ABI tail after `head` words (the string's offset is the word after them). */
export function withString(head: string[], s: string): string {
  const bytes = Buffer.from(s, 'utf8');
  const hex = bytes.toString('hex');
  return (
    '0x' +
    head.join('') +
    w(32 * (head.length + 1)) +
    w(bytes.length) +
    hex.padEnd(Math.ceil(hex.length / 64) * 64, '0')
  );
}

function node(
  op: CallNode['op'],
  recipient: number | null,
  input: string,
  output: string,
  extra: Partial<CallNode> = {},
): CallNode {
  const type: CallNode['type'] = op === 'CREATE' || op === 'CREATE2' ? 'CREATE' : 'CALL';
  return { op, type, recipient, recipientType: recipient === null ? null : 'CONTRACT', input, output, ...extra };
}
const precompile = (num: number, input: string, output: string, extra: Partial<CallNode> = {}): CallNode => ({
  op: 'CALL',
  type: 'PRECOMPILE',
  recipient: num,
  recipientType: 'CONTRACT',
  input,
  output,
  ...extra,
});

interface Ctx {
  rng: Prng;
  data: ContractData;
  row: ContractResultRow;
  c: Contract;
  /** msg.sender of the top frame (40 hex). */
  sender: string;
  changes: SlotChange[];
  /** Nodes a revert may start in (CALLs into contracts). */
  revertable: CallNode[];
}

/** A contract other than these, picked by the PRNG (kind preferred). */
function other(ctx: Ctx, kind: Contract['kind'] | null, ...not: number[]): Contract {
  const pool = ctx.data.contracts.filter((c) => (kind === null || c.kind === kind) && !not.includes(c.num));
  return ctx.rng.pick(pool.length ? pool : ctx.data.contracts.filter((c) => !not.includes(c.num)));
}

const balance = (rng: Prng, min = 0n): bigint =>
  min + BigInt(rng.int(1, 900_000)) * 10n ** BigInt(rng.pick([6, 8, 12, 18]));

function slot(ctx: Ctx, c: { num: number; evm: string }, s: string, read: bigint, written: bigint | null): void {
  ctx.changes.push({ num: c.num, evm: c.evm, slot: s, read, written });
}

/** An ERC-20 balance move on `token`: balances (slot 0) of `from` and `to`. */
function tokenMove(ctx: Ctx, token: { num: number; evm: string }, from: string, to: string, amount: bigint): void {
  const b1 = balance(ctx.rng, amount);
  if (from !== ZERO) slot(ctx, token, mappingSlot(from, 0), b1, b1 - amount);
  const b2 = balance(ctx.rng);
  if (to !== ZERO) slot(ctx, token, mappingSlot(to, 0), b2, b2 + amount);
}

/** ERC-20 `transfer(to, amount)` on a token, as a nested CALL with its Transfer event. */
function tokenTransferCall(ctx: Ctx, token: Contract, from: string, to: string, amount: bigint): CallNode {
  tokenMove(ctx, who(token), from, to, amount);
  const n = node('CALL', token.num, call('transfer(address,uint256)', addrWord(to), w(amount)), '0x' + boolWord(true), {
    body: [
      log(who(token), [topicOf('Transfer(address,address,uint256)'), addrTopic(from), addrTopic(to)], '0x' + w(amount)),
    ],
  });
  ctx.revertable.push(n);
  return n;
}

function erc20(ctx: Ctx, sel: string, a: string[]): (CallNode | LogSpec)[] {
  const { c, sender, rng } = ctx;
  const body: (CallNode | LogSpec)[] = [];
  const T = topicOf('Transfer(address,address,uint256)');
  const A = topicOf('Approval(address,address,uint256)');
  if (rng.chance(0.25) && sel !== selectorOf('balanceOf(address)') && sel !== selectorOf('name()')) {
    const compliance = other(ctx, null, c.num);
    const n = node('STATICCALL', compliance.num, call('isAllowed(address)', addrWord(sender)), '0x' + boolWord(true));
    body.push(n);
  }
  if (sel === selectorOf('transfer(address,uint256)')) {
    const [to, amount] = [addrArg(a[0]), big(a[1])];
    tokenMove(ctx, who(c), sender, to, amount);
    body.push(log(who(c), [T, addrTopic(sender), addrTopic(to)], '0x' + w(amount)));
  } else if (sel === selectorOf('approve(address,uint256)')) {
    const [spender, amount] = [addrArg(a[0]), big(a[1])];
    slot(ctx, who(c), mappingSlot(spender, mappingSlot(sender, 1)), balance(rng), amount);
    body.push(log(who(c), [A, addrTopic(sender), addrTopic(spender)], '0x' + w(amount)));
  } else if (sel === selectorOf('transferFrom(address,address,uint256)')) {
    const [from, to, amount] = [addrArg(a[0]), addrArg(a[1]), big(a[2])];
    const allowance = balance(rng, amount);
    slot(ctx, who(c), mappingSlot(sender, mappingSlot(from, 1)), allowance, allowance - amount);
    tokenMove(ctx, who(c), from, to, amount);
    body.push(log(who(c), [T, addrTopic(from), addrTopic(to)], '0x' + w(amount)));
    body.push(log(who(c), [A, addrTopic(from), addrTopic(sender)], '0x' + w(allowance - amount)));
  } else if (sel === selectorOf('mint(address,uint256)')) {
    const [to, amount] = [addrArg(a[0]), big(a[1])];
    if (rng.chance(0.4))
      body.push(
        precompile(
          EXCHANGE_RATE,
          call('tinycentsToTinybars(uint256)', w(rng.int(100, 5_000_000))),
          '0x' + w(rng.int(1_000, 90_000_000)),
        ),
      );
    const supply = balance(rng, amount);
    slot(ctx, who(c), slotHex(2), supply, supply + amount);
    tokenMove(ctx, who(c), ZERO, to, amount);
    body.push(log(who(c), [T, addrTopic(ZERO), addrTopic(to)], '0x' + w(amount)));
  } else if (sel === selectorOf('balanceOf(address)')) {
    slot(ctx, who(c), mappingSlot(addrArg(a[0]), 0), balance(rng), null);
  } else if (sel === selectorOf('name()')) {
    const name = Buffer.from(c.name.slice(0, 31), 'utf8');
    slot(
      ctx,
      who(c),
      slotHex(3),
      BigInt('0x' + name.toString('hex').padEnd(62, '0') + (name.length * 2).toString(16).padStart(2, '0')),
      null,
    );
  }
  return body;
}

function erc721(ctx: Ctx, sel: string, a: string[]): (CallNode | LogSpec)[] {
  const { c, sender, rng, data } = ctx;
  const body: (CallNode | LogSpec)[] = [];
  const T = topicOf('Transfer(address,address,uint256)');
  const owners = 2;
  const balances = 3;
  if (sel === selectorOf('safeTransferFrom(address,address,uint256)')) {
    const [from, to, id] = [addrArg(a[0]), addrArg(a[1]), big(a[2])];
    slot(ctx, who(c), mappingSlot(id, owners), BigInt('0x' + from), BigInt('0x' + to));
    slot(ctx, who(c), mappingSlot(from, balances), BigInt(rng.int(1, 40)), null);
    body.push(log(who(c), [T, addrTopic(from), addrTopic(to), uintTopic(id)], '0x'));
    const receiver = numOfAddress(data, to);
    const rc = receiver === undefined ? undefined : data.contractsByNum.get(receiver);
    if (rc) {
      const sig = 'onERC721Received(address,address,uint256,bytes)';
      const n = node(
        'CALL',
        rc.num,
        call(sig, addrWord(sender), addrWord(from), w(id), w(128), w(0)),
        '0x' + selectorOf(sig).padEnd(64, '0'),
      );
      ctx.revertable.push(n);
      body.push(n);
    }
  } else if (sel === selectorOf('setApprovalForAll(address,bool)')) {
    const [operator, approved] = [addrArg(a[0]), big(a[1])];
    slot(ctx, who(c), mappingSlot(operator, mappingSlot(sender, 5)), approved === 0n ? 1n : 0n, approved);
    body.push(
      log(
        who(c),
        [topicOf('ApprovalForAll(address,address,bool)'), addrTopic(sender), addrTopic(operator)],
        '0x' + w(approved),
      ),
    );
  } else if (sel === selectorOf('mint(address,uint256)')) {
    const [to, id] = [addrArg(a[0]), big(a[1])];
    if (rng.chance(0.4)) body.push(precompile(PRNG_CONTRACT, call('getPseudorandomSeed()'), '0x' + rng.hex(32)));
    slot(ctx, who(c), mappingSlot(id, owners), 0n, BigInt('0x' + to));
    const held = BigInt(rng.int(0, 30));
    slot(ctx, who(c), mappingSlot(to, balances), held, held + 1n);
    body.push(log(who(c), [T, addrTopic(ZERO), addrTopic(to), uintTopic(id)], '0x'));
  } else if (sel === selectorOf('burn(uint256)')) {
    const id = big(a[0]);
    slot(ctx, who(c), mappingSlot(id, owners), BigInt('0x' + sender), 0n);
    body.push(log(who(c), [T, addrTopic(sender), addrTopic(ZERO), uintTopic(id)], '0x'));
  }
  return body;
}

function router(ctx: Ctx, a: string[]): (CallNode | LogSpec)[] {
  const { c, sender, rng, data, row } = ctx;
  const body: (CallNode | LogSpec)[] = [];
  if (a.length < 6) return body;
  const amountIn = big(a[0]);
  const to = addrArg(a[3]);
  const pathLen = Number(big(a[5]));
  const path = a.slice(6, 6 + pathLen).map((x) => addrArg(x));
  const tokens = path.map((p) => data.contractsByNum.get(numOfAddress(data, p) ?? -1) ?? other(ctx, 'erc20', c.num));
  // the amounts of the call result (uint256[]), as the hops produce them
  const out = args('0x00000000' + (row.obj.call_result as string).slice(2));
  const amounts = out.length >= 2 + pathLen ? out.slice(2, 2 + pathLen).map(big) : tokens.map(() => balance(rng));
  const pairs = tokens.slice(1).map(() => other(ctx, null, c.num, ...tokens.map((t) => t.num)));
  const first = tokens[0];
  const pair0 = pairs[0] ?? other(ctx, null, c.num);
  const pull = node(
    'CALL',
    first.num,
    call('transferFrom(address,address,uint256)', addrWord(sender), addrWord(pair0.evm), w(amountIn)),
    '0x' + boolWord(true),
    {
      body: [
        log(
          who(first),
          [topicOf('Transfer(address,address,uint256)'), addrTopic(sender), addrTopic(pair0.evm)],
          '0x' + w(amountIn),
        ),
      ],
    },
  );
  tokenMove(ctx, who(first), sender, pair0.evm, amountIn);
  ctx.revertable.push(pull);
  body.push(pull);
  for (let h = 0; h < pairs.length; h++) {
    const pair = pairs[h];
    const tokenOut = tokens[h + 1];
    const next = h + 1 < pairs.length ? pairs[h + 1].evm : to;
    const r0 = balance(rng);
    const r1 = balance(rng);
    const stamp = BigInt(rng.int(1_700_000_000, 1_800_000_000));
    body.push(node('STATICCALL', pair.num, call('getReserves()'), '0x' + w(r0) + w(r1) + w(stamp)));
    const amountOut = amounts[h + 1] ?? balance(rng);
    const swap = node(
      'CALL',
      pair.num,
      call('swap(uint256,uint256,address,bytes)', w(0), w(amountOut), addrWord(next), w(128), w(0)),
      '0x',
      {
        body: [
          tokenTransferCall(ctx, tokenOut, pair.evm, next, amountOut),
          node(
            'STATICCALL',
            tokens[h].num,
            call('balanceOf(address)', addrWord(pair.evm)),
            '0x' + w(r0 + (amounts[h] ?? amountIn)),
          ),
          node(
            'STATICCALL',
            tokenOut.num,
            call('balanceOf(address)', addrWord(pair.evm)),
            '0x' + w(r1 > amountOut ? r1 - amountOut : 0n),
          ),
          log(
            who(pair),
            [topicOf('Sync(uint112,uint112)')],
            '0x' + w(r0 + (amounts[h] ?? amountIn)) + w(r1 > amountOut ? r1 - amountOut : 0n),
          ),
          log(
            who(pair),
            [topicOf('Swap(address,uint256,uint256,uint256,uint256,address)'), addrTopic(c.evm), addrTopic(next)],
            '0x' + w(amounts[h] ?? amountIn) + w(0) + w(0) + w(amountOut),
          ),
        ],
      },
    );
    slot(
      ctx,
      who(pair),
      slotHex(8),
      r0 | (r1 << 112n) | (stamp << 224n),
      (r0 + (amounts[h] ?? amountIn)) | ((r1 > amountOut ? r1 - amountOut : 0n) << 112n) | ((stamp + 1n) << 224n),
    );
    ctx.revertable.push(swap);
    body.push(swap);
  }
  return body;
}

function vault(ctx: Ctx, sel: string, a: string[]): (CallNode | LogSpec)[] {
  const { c, sender, rng, row } = ctx;
  const body: (CallNode | LogSpec)[] = [];
  const held = balance(rng);
  const total = balance(rng, held);
  if (sel === selectorOf('deposit()')) {
    const amount = BigInt(row.obj.amount as number | bigint);
    if (rng.chance(0.4))
      body.push(
        precompile(
          ACCOUNT_SERVICE,
          call('hbarAllowance(address,address)', addrWord(c.evm), addrWord(sender)),
          '0x' + w(22) + w(rng.int(0, 10_000_000)),
        ),
      );
    slot(ctx, who(c), mappingSlot(sender, 1), held, held + amount);
    slot(ctx, who(c), slotHex(2), total, total + amount);
    body.push(log(who(c), [topicOf('Deposited(address,uint256)'), addrTopic(sender)], '0x' + w(amount)));
  } else if (sel === selectorOf('withdraw(uint256)')) {
    const amount = big(a[0]);
    const asset = other(ctx, 'erc20', c.num);
    slot(ctx, who(c), mappingSlot(sender, 1), held + amount, held);
    slot(ctx, who(c), slotHex(2), total + amount, total);
    body.push(log(who(c), [topicOf('Withdrawn(address,uint256)'), addrTopic(sender)], '0x' + w(amount)));
    body.push(tokenTransferCall(ctx, asset, c.evm, sender, amount));
  }
  return body;
}

const REASONS = ['For: the treasury needs it', 'Against, see the forum thread', 'Abstain', '', 'Ja, weil 🚀', '赞成'];

function dao(ctx: Ctx, a: string[]): (CallNode | LogSpec)[] {
  const { c, sender, rng } = ctx;
  const proposal = a.length ? big(a[0]) : BigInt(rng.int(1, 80));
  const support = a.length > 1 ? big(a[1]) : 1n;
  const votes = other(ctx, 'erc20', c.num);
  const lib = other(ctx, null, c.num, votes.num);
  const weight = balance(rng);
  const body: (CallNode | LogSpec)[] = [
    node(
      'STATICCALL',
      votes.num,
      call('getPastVotes(address,uint256)', addrWord(sender), w(rng.int(80_000_000, 90_000_000))),
      '0x' + w(weight),
    ),
  ];
  const count = node(
    'DELEGATECALL',
    lib.num,
    call('countVote(uint256,address,uint8,uint256)', w(proposal), addrWord(sender), w(support), w(weight)),
    '0x',
  );
  ctx.revertable.push(count);
  body.push(count);
  if (rng.chance(0.2)) body.push(precompile(PRNG_CONTRACT, call('getPseudorandomSeed()'), '0x' + rng.hex(32)));
  const forVotes = balance(rng);
  slot(ctx, who(c), mappingSlot(proposal, 4), forVotes, forVotes + weight);
  slot(ctx, who(c), mappingSlot(sender, mappingSlot(proposal, 5)), 0n, 1n);
  const reason = rng.pick(REASONS);
  const head = [w(proposal), w(support), w(weight)];
  body.push(
    log(
      who(c),
      [topicOf('VoteCast(address,uint256,uint8,uint256,string)'), addrTopic(sender)],
      withString(head, reason),
      { value: reason, encode: (s) => withString(head, s) },
    ),
  );
  body.push(
    log(
      who(c),
      [
        topicOf('TransferSingle(address,address,address,uint256,uint256)'),
        addrTopic(c.evm),
        addrTopic(ZERO),
        addrTopic(sender),
      ],
      '0x' + w(proposal) + w(1),
    ),
  );
  return body;
}

/** An internal result as the depth-1 call it is: the token service (PRECOMPILE, with its ERC-20/721 Transfer) or a contract. */
function childNode(ctx: Ctx, child: ContractResultRow): CallNode {
  const params = child.obj.function_parameters as string;
  const own = Number(child.obj.gas_used);
  if (child.contractNum !== HTS_PRECOMPILE) {
    const target = ctx.data.contractsByNum.get(child.contractNum);
    const n = node('CALL', child.contractNum, params, child.obj.call_result as string, { own });
    if (target) {
      const a = args(params);
      n.body = [
        log(
          who(target),
          [topicOf('Transfer(address,address,uint256)'), addrTopic(ctx.c.evm), addrTopic(addrArg(a[0]))],
          '0x' + a[1],
        ),
      ];
    }
    return n;
  }
  const a = args(params);
  const token = system(Number(big(a[0]) & 0xffffffffffffn));
  const nft = token.num === HTS_NFT_TOKEN;
  const topics = [topicOf('Transfer(address,address,uint256)'), addrTopic(addrArg(a[1])), addrTopic(addrArg(a[2]))];
  return precompile(HTS_PRECOMPILE, params, child.obj.call_result as string, {
    own,
    body: [nft ? log(token, [...topics, uintTopic(big(a[3]))], '0x') : log(token, topics, '0x' + a[3])],
  });
}

const HALTS = new Set([
  'INSUFFICIENT_GAS',
  'MAX_GAS_LIMIT_EXCEEDED',
  'CONTRACT_EXECUTION_EXCEPTION',
  'INVALID_SOLIDITY_ADDRESS',
  'MAX_CHILD_RECORDS_EXCEEDED',
]);

/** The execution of a generated (non-scenario) parent result. */
export function genericExecution(data: ContractData, row: ContractResultRow): Built {
  const rng = new Prng(Number(row.tsNs % 2147483629n) ^ 0x74726163);
  const c = data.contractsByNum.get(row.contractNum) as Contract;
  const ctx: Ctx = { rng, data, row, c, sender: senderAddress(data, row.senderNum), changes: [], revertable: [] };
  const params = row.obj.function_parameters as string;
  const sel = params.slice(2, 10);
  const a = args(params);
  const ok = row.obj.result === 'SUCCESS';
  // a creation by its transaction, not by failed_initcode (a failed Ethereum call has its call data there too)
  const create =
    (row.obj.created_contract_ids as string[]).includes(row.obj.contract_id as string) || row.deploy === true;
  let root: CallNode;
  if (create) {
    slot(ctx, who(c), slotHex(0), 0n, BigInt('0x' + ctx.sender));
    // a create's output is what the result says it returned (its call_result)
    root = node('CREATE', c.num, params, ok ? (row.obj.call_result as string) : '0x', {
      own: 60_000,
      body: [
        log(who(c), [topicOf('OwnershipTransferred(address,address)'), addrTopic(ZERO), addrTopic(ctx.sender)], '0x'),
      ],
    });
  } else {
    let body: (CallNode | LogSpec)[] = [];
    if (c.kind === 'erc20') body = erc20(ctx, sel, a);
    else if (c.kind === 'erc721') body = erc721(ctx, sel, a);
    else if (c.kind === 'router') body = router(ctx, a);
    else if (c.kind === 'vault') body = vault(ctx, sel, a);
    else if (c.kind === 'dao') body = dao(ctx, a);
    else if (c.kind === 'ledger' && a.length >= 2) {
      const entry = balance(rng);
      const count = BigInt(rng.int(1, 5000));
      slot(ctx, who(c), mappingSlot(addrArg(a[0]), 0), entry, entry + big(a[1]));
      slot(ctx, who(c), slotHex(1), count, count + 1n);
      body.push(
        log(
          who(c),
          [topicOf('Recorded(address,uint256,uint256)'), addrTopic(addrArg(a[0]))],
          '0x' + a[1] + w(count + 1n),
        ),
      );
    }
    for (const child of row.children ?? []) body.push(childNode(ctx, child));
    root = node('CALL', c.num, params, row.obj.call_result as string, {
      body,
      value: row.obj.amount as number | bigint,
    });
  }
  if (!ok) {
    const result = row.obj.result as string;
    const error = row.obj.error_message as string | null;
    if (result === 'CONTRACT_REVERT_EXECUTED' || !HALTS.has(result)) {
      const data = error !== null && error.startsWith('0x') ? error : '0x';
      const nested = ctx.revertable.filter((n) => n !== root);
      const origin = nested.length && rng.chance(0.6) ? rng.pick(nested) : root;
      origin.fail = { kind: 'revert', data };
    } else if (result === 'INSUFFICIENT_GAS') {
      // the frame running when the gas ran out: the deepest last call, else the top
      let deepest: CallNode = root;
      const walk = (n: CallNode): void => {
        for (const x of n.body ?? []) {
          if ('log' in x) continue;
          deepest = x;
          walk(x);
        }
      };
      walk(root);
      deepest.fail = { kind: 'error', text: result };
      deepest.outOfGas = true;
    } else if (result === 'INVALID_SOLIDITY_ADDRESS') {
      const missing = rng.hex(20);
      const bad: CallNode = {
        op: 'CALL',
        type: 'CALL',
        recipient: null,
        recipientType: null,
        address: missing,
        input: call('transfer(address,uint256)', addrWord(ctx.sender), w(rng.int(1, 1000))),
        output: '0x',
        fail: { kind: 'error', text: result },
      };
      (root.body ??= []).push(bad);
    } else if (result === 'MAX_CHILD_RECORDS_EXCEEDED') {
      const token = system(7101);
      const n = rng.int(3, 6);
      for (let i = 0; i < n; i++) {
        const p = precompile(
          HTS_PRECOMPILE,
          call(
            'transferToken(address,address,address,int64)',
            addrWord(token.evm),
            addrWord(c.evm),
            addrWord(ctx.sender),
            w(rng.int(1, 1_000_000)),
          ),
          '0x' + w(22),
        );
        if (i === n - 1) {
          p.output = '0x';
          p.fail = { kind: 'error', text: result };
        }
        (root.body ??= []).push(p);
      }
    } else {
      root.fail = { kind: 'error', text: result };
    }
    // a failed transaction writes nothing: only what it read is recorded
    for (const ch of ctx.changes) ch.written = null;
  }
  // the result's bloom says whether it has logs (a view call with internal results may have drawn none)
  if (row.obj.bloom === ZERO_BLOOM) withoutLogs(root);
  const exec = execute(root, row.senderNum, gasLimitOf(row), Number(row.obj.gas_consumed));
  return { exec, changes: sortStateChanges(dedupe(ctx.changes)) };
}

/** Hedera's most gas a transaction can use. */
const MAX_GAS = 15_000_000;
/** The gas a result's execution had: its limit, at most MAX_GAS (a result's limit may be larger: `bigGasLimit`). */
export const gasLimitOf = (row: ContractResultRow): number => Math.min(Number(row.obj.gas_limit), MAX_GAS);

function withoutLogs(n: CallNode): void {
  if (!n.body) return;
  n.body = n.body.filter((x) => !('log' in x));
  for (const x of n.body) withoutLogs(x as CallNode);
}

/** One change per (contract, slot): the first read, the last write. */
export function dedupe(changes: SlotChange[]): SlotChange[] {
  const by = new Map<string, SlotChange>();
  for (const ch of changes) {
    const k = `${ch.num}/${ch.slot}`;
    const prev = by.get(k);
    if (!prev) by.set(k, { ...ch });
    else if (ch.written !== null) prev.written = ch.written;
  }
  return [...by.values()];
}
