/**
 * Hedera's system contracts as the sandbox's EVM answers them (custom precompiles of @ethereumjs/evm), with the
 * answers the network gives, deterministically:
 *
 * - PRNG 0x169 (IPrngSystemContract): `getPseudorandomSeed()` (0xd83bf9a1) returns a 32-byte seed. On Hedera it is
 *   the running hash of a record three rounds back; here SHA-256 of the call's seed base (the transaction's, which
 *   the caller gives or the request determines) and the number of seeds drawn so far in the transaction.
 * - Token service 0x167 (IHederaTokenService): `transferToken(address token, address sender, address receiver, int64
 *   amount)` (0xeca36917) returns an int64 response code, ABI-encoded in one word: SUCCESS (22) when it moved the
 *   tokens (and the token emits its ERC-20 `Transfer`, as Hedera's synthetic events do), else INVALID_TOKEN_ID (167)
 *   for an unknown token, INVALID_ACCOUNT_AMOUNTS (48) for an amount ≤ 0, SPENDER_DOES_NOT_HAVE_ALLOWANCE (292) when
 *   `sender` is not the calling contract, TOKEN_NOT_ASSOCIATED_TO_ACCOUNT (184) for a receiver that is not
 *   associated, INSUFFICIENT_TOKEN_BALANCE (178). The tokens' balances and associations live in this object and are
 *   undone with the frame that made them when it fails (the chain's journal hooks).
 *
 * - Token facades (HIP-218, src/api/replay/facade): a token's address runs Hedera's redirect code, which DELEGATECALLs
 *   the token service with `redirectForToken` (0x618dc65e), the token's address and the ERC call. Answered from the
 *   same token data: ERC-20 `balanceOf(address)` (the balance, one word) and `transfer(address,uint256)` from the
 *   facade's caller (`true`, and the token's `Transfer`; refused, it reverts with the response code's name in UTF-8,
 *   as Hedera's ERC-20 calls do).
 *
 * Any other selector (or input too short for its arguments) makes the call revert without data, as a call the system
 * contract does not support. Gas: a fixed cost per function (an emulation: Hedera prices system contract calls from
 * its fee schedule); a call given less runs out of gas.
 */
import { createHash } from 'node:crypto';
import { REDIRECT_FOR_TOKEN } from '../../../src/api/replay/facade';

export const HTS_ADDRESS = '0x0000000000000000000000000000000000000167';
export const PRNG_ADDRESS = '0x0000000000000000000000000000000000000169';
export const SELECTOR_GET_PSEUDORANDOM_SEED = 'd83bf9a1';
export const SELECTOR_TRANSFER_TOKEN = 'eca36917';
export const SELECTOR_BALANCE_OF = '70a08231';
export const SELECTOR_ERC20_TRANSFER = 'a9059cbb';
/** keccak256("Transfer(address,address,uint256)"). */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export const PRNG_GAS = 5_000n;
export const HTS_TRANSFER_GAS = 23_700n;
/** A facade's view call (an emulation, as the other prices). */
export const HTS_VIEW_GAS = 2_600n;

/** Response codes (ResponseCodeEnum). */
export const RESPONSE = {
  SUCCESS: 22,
  INVALID_ACCOUNT_AMOUNTS: 48,
  INVALID_TOKEN_ID: 167,
  INSUFFICIENT_TOKEN_BALANCE: 178,
  TOKEN_NOT_ASSOCIATED_TO_ACCOUNT: 184,
  SPENDER_DOES_NOT_HAVE_ALLOWANCE: 292,
} as const;

/** What a system contract call did (turned into an ExecResult by the chain). */
export interface SystemCallResult {
  /** 'ok': returned `output`; 'revert': reverted with `output`; 'outOfGas': ran out of gas. */
  outcome: 'ok' | 'revert' | 'outOfGas';
  output: Uint8Array;
  gasUsed: bigint;
  /** Logs to emit (a token's Transfer): address (0x + 40 hex), topics (0x + 64 hex), data (bytes). */
  logs: Array<{ address: string; topics: string[]; data: Uint8Array }>;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const word = (v: bigint): Uint8Array => Buffer.from(BigInt.asUintN(256, v).toString(16).padStart(64, '0'), 'hex');
const addrOf = (w: string): string => `0x${w.slice(24)}`;
const lower = (a: string): string => a.toLowerCase();
const NAMES: Record<number, string> = Object.fromEntries(Object.entries(RESPONSE).map(([k, v]) => [v, k]));

interface TokenState {
  balances: Map<string, bigint>;
  associated: Set<string>;
}

/** The system contracts' state (tokens) and answers. One per chain. */
export class HederaSystemContracts {
  private readonly tokens = new Map<string, TokenState>();
  /** Undo steps of the current transaction, in the order they were made. */
  private journal: Array<() => void> = [];
  private seedBase = '';
  private seeds = 0;

  /** Registers an HTS token (EVM address 0x + 40 hex, usually its long-zero one). */
  addToken(address: string): void {
    if (!this.tokens.has(lower(address)))
      this.tokens.set(lower(address), { balances: new Map(), associated: new Set() });
  }

  /** Associates `holder` with the token and sets its balance. */
  setTokenBalance(token: string, holder: string, amount: bigint): void {
    this.addToken(token);
    const t = this.tokens.get(lower(token)) as TokenState;
    t.associated.add(lower(holder));
    t.balances.set(lower(holder), amount);
  }

  /** Associates `holder` with the token (balance 0 unless set). */
  associate(token: string, holder: string): void {
    this.addToken(token);
    (this.tokens.get(lower(token)) as TokenState).associated.add(lower(holder));
  }

  tokenBalance(token: string, holder: string): bigint {
    return this.tokens.get(lower(token))?.balances.get(lower(holder)) ?? 0n;
  }

  /** A transaction starts: its seed base, an empty journal. */
  beginTransaction(seedBase: string): void {
    this.seedBase = seedBase;
    this.seeds = 0;
    this.journal = [];
  }

  /** Where the journal stands when a frame starts (give it back to `frameFailed` if the frame fails). */
  mark(): number {
    return this.journal.length;
  }

  /** A frame failed: undo what it and its children did since its mark. */
  frameFailed(mark: number): void {
    while (this.journal.length > mark) (this.journal.pop() as () => void)();
  }

  /** The transaction is not kept (a simulation): undo everything. */
  rollbackTransaction(): void {
    this.frameFailed(0);
  }

  /** PRNG 0x169. */
  prng(data: Uint8Array, gasLimit: bigint): SystemCallResult {
    if (gasLimit < PRNG_GAS) return { outcome: 'outOfGas', output: new Uint8Array(0), gasUsed: gasLimit, logs: [] };
    if (hex(data.subarray(0, 4)) !== SELECTOR_GET_PSEUDORANDOM_SEED)
      return { outcome: 'revert', output: new Uint8Array(0), gasUsed: PRNG_GAS, logs: [] };
    const seed = createHash('sha256').update(`${this.seedBase}|prng|${this.seeds++}`).digest();
    return { outcome: 'ok', output: new Uint8Array(seed), gasUsed: PRNG_GAS, logs: [] };
  }

  /**
   * Token service 0x167, called by `caller` (the calling contract's address); a token facade's redirect is its
   * caller's call, made by `facadeCaller`.
   */
  tokenService(data: Uint8Array, gasLimit: bigint, caller: string, facadeCaller = ''): SystemCallResult {
    const h = hex(data);
    if (h.startsWith(REDIRECT_FOR_TOKEN) && h.length >= 48)
      return this.facade(`0x${h.slice(8, 48)}`, h.slice(48), gasLimit, facadeCaller);
    if (gasLimit < HTS_TRANSFER_GAS)
      return { outcome: 'outOfGas', output: new Uint8Array(0), gasUsed: gasLimit, logs: [] };
    if (h.slice(0, 8) !== SELECTOR_TRANSFER_TOKEN || h.length < 8 + 4 * 64)
      return { outcome: 'revert', output: new Uint8Array(0), gasUsed: HTS_TRANSFER_GAS, logs: [] };
    const args = [0, 1, 2, 3].map((i) => h.slice(8 + i * 64, 8 + (i + 1) * 64));
    const [token, sender, receiver] = args.slice(0, 3).map(addrOf);
    const amount = BigInt.asIntN(64, BigInt(`0x${args[3]}`));
    const r = this.move(token, sender, receiver, amount, sender === lower(caller));
    return { outcome: 'ok', output: word(BigInt(r.code)), gasUsed: HTS_TRANSFER_GAS, logs: r.logs };
  }

  /**
   * Moves `amount` of a token (the journal undoes it with a failed frame): its response code, and its Transfer.
   * `allowed`: the caller may move the sender's tokens.
   */
  private move(
    token: string,
    sender: string,
    receiver: string,
    amount: bigint,
    allowed = true,
  ): { code: number; logs: SystemCallResult['logs'] } {
    const fail = (code: number): { code: number; logs: SystemCallResult['logs'] } => ({ code, logs: [] });
    const t = this.tokens.get(token);
    if (!t) return fail(RESPONSE.INVALID_TOKEN_ID);
    if (amount <= 0n) return fail(RESPONSE.INVALID_ACCOUNT_AMOUNTS);
    if (!allowed) return fail(RESPONSE.SPENDER_DOES_NOT_HAVE_ALLOWANCE);
    if (!t.associated.has(receiver) || !t.associated.has(sender)) return fail(RESPONSE.TOKEN_NOT_ASSOCIATED_TO_ACCOUNT);
    const from = t.balances.get(sender) ?? 0n;
    if (from < amount) return fail(RESPONSE.INSUFFICIENT_TOKEN_BALANCE);
    const to = t.balances.get(receiver) ?? 0n;
    t.balances.set(sender, from - amount);
    t.balances.set(receiver, (receiver === sender ? from - amount : to) + amount);
    this.journal.push(() => {
      t.balances.set(receiver, to);
      t.balances.set(sender, from);
    });
    const topic = (a: string): string => `0x${a.slice(2).padStart(64, '0')}`;
    return {
      code: RESPONSE.SUCCESS,
      logs: [{ address: token, topics: [TRANSFER_TOPIC, topic(sender), topic(receiver)], data: word(amount) }],
    };
  }

  /** An ERC-20 call to a token's facade (`call`: its call data, hex), made by `sender`. */
  private facade(token: string, call: string, gasLimit: bigint, sender: string): SystemCallResult {
    const selector = call.slice(0, 8);
    const gas = selector === SELECTOR_ERC20_TRANSFER ? HTS_TRANSFER_GAS : HTS_VIEW_GAS;
    if (gasLimit < gas) return { outcome: 'outOfGas', output: new Uint8Array(0), gasUsed: gasLimit, logs: [] };
    const revert = (text = ''): SystemCallResult => ({
      outcome: 'revert',
      output: new TextEncoder().encode(text),
      gasUsed: gas,
      logs: [],
    });
    const t = this.tokens.get(token);
    if (!t) return revert(NAMES[RESPONSE.INVALID_TOKEN_ID]);
    if (selector === SELECTOR_BALANCE_OF && call.length >= 8 + 64)
      return { outcome: 'ok', output: word(t.balances.get(addrOf(call.slice(8, 72))) ?? 0n), gasUsed: gas, logs: [] };
    if (selector === SELECTOR_ERC20_TRANSFER && call.length >= 8 + 128) {
      const value = BigInt(`0x${call.slice(72, 136)}`);
      const r = this.move(token, lower(sender), addrOf(call.slice(8, 72)), value < 1n << 63n ? value : -1n);
      if (r.code !== RESPONSE.SUCCESS) return revert(NAMES[r.code]);
      return { outcome: 'ok', output: word(1n), gasUsed: gas, logs: r.logs };
    }
    return revert();
  }
}
