/**
 * Revert data of a failed contract call, decoded: `Error(string)`, `Panic(uint256)` with the panic's meaning,
 * a custom error selector, hex-encoded text, or plain text. Undecodable data stays as hex, never an error.
 */
import * as l10n from '@vscode/l10n';

export interface DecodedRevert {
  kind: 'error' | 'panic' | 'custom' | 'text' | 'empty';
  /** What to show: the reason string, "Panic 0x11: arithmetic overflow or underflow", the text, or the selector. */
  message: string;
  /** 4-byte selector for error/panic/custom; for text, when the printable data may also be a custom error's. */
  selector?: string;
  /** Panic code. */
  code?: bigint;
  /** The raw value from the mirror node. */
  raw: string;
}

export const ERROR_SELECTOR = '0x08c379a0';
export const PANIC_SELECTOR = '0x4e487b71';

/** Solidity's panic codes (docs: "Panic via assert and Error via require"). */
/** What a Solidity panic code means (the compiler's list). */
export function panicMeaning(code: bigint): string {
  switch (code.toString()) {
    case '0':
      return l10n.t('generic compiler-inserted panic');
    case '1':
      return l10n.t('assert(false) or a failed assertion');
    case '17':
      return l10n.t('arithmetic overflow or underflow');
    case '18':
      return l10n.t('division or modulo by zero');
    case '33':
      return l10n.t('conversion of a value too big or negative into an enum');
    case '34':
      return l10n.t('access to an incorrectly encoded storage byte array');
    case '49':
      return l10n.t('.pop() on an empty array');
    case '50':
      return l10n.t('array index out of bounds');
    case '65':
      return l10n.t('too much memory allocated or an array too large');
    case '81':
      return l10n.t('call of a zero-initialized internal function variable');
    default:
      return l10n.t('unknown panic code');
  }
}

function hexToBytes(hex: string): Uint8Array | undefined {
  const h = hex.replace(/^0x/i, '');
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) return undefined;
  const out = new Uint8Array(h.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(h.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function word(bytes: Uint8Array, offset: number): bigint | undefined {
  if (offset + 32 > bytes.length) return undefined;
  let v = 0n;
  for (let i = offset; i < offset + 32; i++) v = (v << 8n) | BigInt(bytes[i]);
  return v;
}

/** Text safe to show on one line: control and bidi-override characters removed. */
export function cleanText(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
}

/** ABI-decodes the `string` argument of `Error(string)` from the bytes after the selector. */
export function decodeAbiString(args: Uint8Array): string | undefined {
  const offset = word(args, 0);
  if (offset === undefined || offset > BigInt(args.length)) return undefined;
  const len = word(args, Number(offset));
  if (len === undefined || Number(offset) + 32 + Number(len) > args.length) return undefined;
  const start = Number(offset) + 32;
  return new TextDecoder('utf-8', { fatal: false }).decode(args.subarray(start, start + Number(len)));
}

/** Decodes `error_message` of a contract result. */
export function decodeRevert(errorMessage: string | null | undefined): DecodedRevert | undefined {
  if (errorMessage === null || errorMessage === undefined) return undefined;
  const raw = String(errorMessage);
  const trimmed = raw.trim();
  if (!trimmed || trimmed === '0x') return { kind: 'empty', message: l10n.t('reverted without a reason'), raw };
  if (!/^0x[0-9a-fA-F]*$/.test(trimmed)) return { kind: 'text', message: cleanText(trimmed), raw };
  const bytes = hexToBytes(trimmed);
  if (!bytes) return { kind: 'custom', message: trimmed, raw };
  const selector = `0x${trimmed.slice(2, 10).toLowerCase()}`;
  if (bytes.length >= 4) {
    const args = bytes.subarray(4);
    if (selector === ERROR_SELECTOR) {
      const s = decodeAbiString(args);
      if (s !== undefined) return { kind: 'error', message: cleanText(s), selector, raw };
    }
    if (selector === PANIC_SELECTOR) {
      const code = word(args, 0);
      if (code !== undefined)
        return {
          kind: 'panic',
          message: l10n.t('Panic {0}: {1}', `0x${code.toString(16).padStart(2, '0')}`, panicMeaning(code)),
          selector,
          code,
          raw,
        };
    }
  }
  // Hedera often stores the response code as hex-encoded ASCII ("0x494e53554646494349454e545f474153" = INSUFFICIENT_GAS).
  // Printable bytes can also be a custom error whose selector happens to be ASCII (`OnlyAdmin()` = 0x47556579, "GUey"):
  // when the data is shaped like ABI-encoded revert data (a selector and whole 32-byte words), the selector is kept
  // so that the ABIs are consulted first (./decode/abi's decodeError); the text is what is left when none knows it.
  if (bytes.length > 0 && bytes.every((b) => b >= 0x20 && b < 0x7f)) {
    const abiShaped = bytes.length >= 4 && (bytes.length - 4) % 32 === 0;
    return { kind: 'text', message: new TextDecoder().decode(bytes), ...(abiShaped ? { selector } : {}), raw };
  }
  if (bytes.length >= 4) return { kind: 'custom', message: l10n.t('custom error {0}', selector), selector, raw };
  return { kind: 'custom', message: trimmed, raw };
}
