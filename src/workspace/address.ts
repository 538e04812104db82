/**
 * What counts as a contract address for verification: an EVM address (40 hexadecimal digits, 0x optional)
 * or a Hedera entity id `shard.realm.num` (a `-abcde` checksum allowed), turned into its long-zero EVM
 * address. Anything else is refused with one sentence, before any request.
 */
import * as l10n from '@vscode/l10n';
import { type Check, checkEvmAddress, entityIdToEvmAddress } from '../api/validation';

export interface ParsedAddress {
  /** 0x and 40 lowercase hex digits. */
  address: string;
  /** The entity id, when one was given. */
  entityId?: string;
}

const clip = (s: string, n = 60): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function unquote(s: string): string {
  const t = s.trim();
  const m = /^(['"`])(.*)\1$/s.exec(t);
  return (m ? m[2] : t).trim();
}

/** Parses one value: an EVM address or an entity id. */
export function parseContractAddress(input: string): Check<ParsedAddress> {
  const s = unquote(input);
  if (!s)
    return {
      ok: false,
      message: l10n.t("Enter the contract's EVM address (0x and 40 hexadecimal digits) or its entity id (0.0.1234)."),
    };
  if (/^(0x)?[0-9a-fA-F]{40}$/.test(s)) {
    const c = checkEvmAddress(s);
    if (!c.ok) return c;
    if (/^0x0{40}$/.test(c.value))
      return {
        ok: false,
        message: l10n.t('The zero address is not a contract: enter the address the contract was deployed at.'),
      };
    return { ok: true, value: { address: c.value } };
  }
  const id = /^(\d{1,10})\.(\d{1,10})\.(\d{1,10})(?:-[a-z]{5})?$/.exec(s);
  if (id) {
    const entityId = `${BigInt(id[1])}.${BigInt(id[2])}.${BigInt(id[3])}`;
    if (BigInt(id[3]) === 0n)
      return { ok: false, message: l10n.t('{0} is not a contract: the entity number must be above 0.', entityId) };
    const c = entityIdToEvmAddress(entityId);
    if (!c.ok) return c;
    return { ok: true, value: { address: c.value, entityId } };
  }
  if (/^0x[0-9a-fA-F]*$/i.test(s)) {
    return {
      ok: false,
      message: l10n.t(
        '"{0}" is not an EVM address: it has {1} hexadecimal digits after 0x, an address has 40.',
        clip(s),
        s.length - 2,
      ),
    };
  }
  if (/^\d+$/.test(s))
    return {
      ok: false,
      message: l10n.t(
        '"{0}" is not a contract address: write an entity id in full, for example 0.0.{1}, or an EVM address.',
        clip(s),
        clip(s, 12),
      ),
    };
  return {
    ok: false,
    message: l10n.t(
      '"{0}" is neither an EVM address (0x and 40 hexadecimal digits) nor a Hedera entity id (0.0.1234).',
      clip(s),
    ),
  };
}

/**
 * The address in an editor selection: the whole selection when it is one value, else the single EVM address
 * written in it (a selected line such as `const TOKEN = "0x…";`). Several different addresses, or none: refused.
 */
export function addressFromSelection(text: string): Check<ParsedAddress> {
  const whole = parseContractAddress(text);
  if (whole.ok) return whole;
  const found = [
    ...new Set([...text.matchAll(/(?<![0-9a-zA-Z])0x[0-9a-fA-F]{40}(?![0-9a-zA-Z])/g)].map((m) => m[0].toLowerCase())),
  ];
  if (found.length === 1) return parseContractAddress(found[0]);
  if (found.length > 1)
    return {
      ok: false,
      message: l10n.t('The selection holds {0} different addresses: select just the one to verify.', found.length),
    };
  return { ok: false, message: l10n.t('The selection is not a contract address: {0}', whole.message) };
}

/** What the mirror node says about a contract (`GET /api/v1/contracts/{id}`). */
export interface MirrorContract {
  /** The contract's own EVM address, 0x and 40 lowercase hex digits. */
  address: string;
  entityId?: string;
  /** `runtime_bytecode`, when the mirror node has it. */
  runtimeBytecode?: string;
}

/** The one request needed: `MirrorClient.contract` (the contract's JSON, null when the mirror node has none). */
export interface ContractSource {
  contract(idOrAddress: string): Promise<Record<string, unknown> | null>;
}

/**
 * The EVM address of a contract given by entity id: contracts created by an Ethereum transaction or by CREATE2
 * have an address of their own, not the long-zero one, so the mirror node is asked (`evm_address` of
 * `GET /api/v1/contracts/{id}`). A failed lookup is said in one sentence, never replaced by the long-zero address.
 */
export async function lookUpContract(mirror: ContractSource, idOrAddress: string): Promise<Check<MirrorContract>> {
  let body: Record<string, unknown> | null;
  try {
    body = await mirror.contract(idOrAddress);
  } catch (e) {
    return {
      ok: false,
      message: l10n.t(
        'Could not look up contract {0} on the mirror node ({1}), so its EVM address is unknown: try again, or enter the EVM address.',
        idOrAddress,
        e instanceof Error ? e.message : String(e),
      ),
    };
  }
  if (body === null)
    return {
      ok: false,
      message: l10n.t(
        'The mirror node knows no contract {0} on this network: check the id and the selected network.',
        idOrAddress,
      ),
    };
  const evm = typeof body.evm_address === 'string' ? body.evm_address.trim().toLowerCase() : '';
  if (!/^0x[0-9a-f]{40}$/.test(evm))
    return {
      ok: false,
      message: l10n.t(
        "The mirror node's answer for contract {0} has no EVM address: enter the EVM address.",
        idOrAddress,
      ),
    };
  const runtime =
    typeof body.runtime_bytecode === 'string' && /^0x[0-9a-fA-F]{2,}$/.test(body.runtime_bytecode)
      ? body.runtime_bytecode.toLowerCase()
      : undefined;
  return {
    ok: true,
    value: {
      address: evm,
      entityId: typeof body.contract_id === 'string' ? body.contract_id : undefined,
      ...(runtime ? { runtimeBytecode: runtime } : {}),
    },
  };
}
