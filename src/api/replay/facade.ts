/**
 * HIP-218 / HIP-719 token facades: a call straight to an HTS token's own address (`IERC20(token).transfer(…)`,
 * `balanceOf`, `name`, …), as Hedera runs it and as the mirror node records it. Plain TypeScript, no `vscode`.
 *
 * What Hedera does (hiero-consensus-node: `DispatchingEvmFrameState.getTokenRedirectCode`, the design note
 * `RedirectContract-description.md`):
 * - a token's long-zero address has code: a small "redirect" contract, one template with the token's address in it.
 *   It reverts on a call with value; otherwise it copies the call data after `redirectForToken(address,bytes)`'s
 *   selector (0x618dc65e) and the token's 20-byte address (not ABI-encoded), DELEGATECALLs the token service 0x167
 *   with that, all its gas, and returns or reverts with what 0x167 gave. The token service answers the ERC call
 *   (balances, a transfer with its `Transfer` event at the token's address; a failed ERC-20 transfer reverts with the
 *   response code's name in UTF-8).
 *
 * What the record shows (hiero-consensus-node `ActionStack.completePush` / `finalizeLastStackActionAsPrecompile`,
 * hiero-mirror-node `ContractActionViewModel`):
 * - the call to the token: `call_type` CALL, `call_operation_type` as the caller made it (CALL, STATICCALL),
 *   `recipient` the token (`0.0.T`) with `recipient_type` CONTRACT (its code is not empty), `to` its long-zero address
 *   (the view model writes the recipient's EVM address), `result_data` the facade's output, `gas_used` the redirect's
 *   own gas plus the token service's;
 * - one level deeper, right after it, the redirect's call: `call_operation_type` DELEGATECALL, `call_type` SYSTEM
 *   (PRECOMPILE in records of the older, monolithic node), caller the token (`0.0.T`, CONTRACT), recipient 0.0.359,
 *   `to` 0x…0167, `input` 0x618dc65e ‖ token address ‖ the facade's call data, `result_data` the token service's.
 *
 * So a replay runs the same redirect code at the token's address and answers its DELEGATECALL to 0x167 from the
 * record like any other system contract call; the check compares both actions like any others.
 */

/** `redirectForToken(address,bytes)`. */
export const REDIRECT_FOR_TOKEN = '618dc65e';
export const TOKEN_SERVICE = '0x0000000000000000000000000000000000000167';

const lower = (s: unknown): string => (typeof s === 'string' ? s.toLowerCase() : '');
const LONG_ZERO = /^0x0{24}[0-9a-f]{16}$/;

/** The runtime code Hedera gives the token at `address` (0x + 40 hex): hex without 0x. */
export function tokenRedirectCode(address: string): string {
  const a = lower(address).replace(/^0x/, '');
  if (!/^[0-9a-f]{40}$/.test(a)) throw new Error(`not an address: ${address}`);
  return (
    `6080604052348015600f57600080fd5b50600061${TOKEN_SERVICE.slice(-4)}905077${REDIRECT_FOR_TOKEN}${a}` +
    '600052366000602037600080366018016008845af43d806000803e8160008114605857816000f35b816000fdfe' +
    'a2646970667358221220d8378feed472ba49a0005514ef7087017f707b45fb9bf56bb81bb93ff19a238b64736f6c634300080b0033'
  );
}

/** The token a call to 0x167 is a facade's redirect for (its input starts with the selector), else null. */
export function redirectedToken(input: string): string | null {
  const h = lower(input).replace(/^0x/, '');
  return h.startsWith(REDIRECT_FOR_TOKEN) && h.length >= 48 ? `0x${h.slice(8, 48)}` : null;
}

/** The fields of a recorded action read here. */
interface ActionLike {
  call_depth?: unknown;
  call_operation_type?: unknown;
  call_type?: unknown;
  recipient?: unknown;
  to?: unknown;
  input?: unknown;
}

/**
 * The token facades a record shows (long-zero address → entity id): every call to a long-zero address followed, one
 * level deeper, by the redirect's DELEGATECALL to 0x167 with that address in its input (its caller is not read: a
 * facade reached by DELEGATECALL runs in its caller's context). `sorted`: the actions in index order.
 */
export function facadesOfRecord(sorted: readonly ActionLike[]): Map<string, string> {
  const out = new Map<string, string>();
  for (let k = 0; k + 1 < sorted.length; k++) {
    const a = sorted[k];
    const b = sorted[k + 1];
    const address = lower(a.to);
    if (a.call_type !== 'CALL' || !LONG_ZERO.test(address) || typeof a.recipient !== 'string') continue;
    if (
      Number(b.call_depth) === Number(a.call_depth) + 1 &&
      b.call_operation_type === 'DELEGATECALL' &&
      lower(b.to) === TOKEN_SERVICE &&
      redirectedToken(lower(b.input)) === address
    )
      out.set(address, a.recipient);
  }
  return out;
}
