/**
 * The contract a call panel calls and where its ABI comes from: the contract named as typed (`0.0.1234`, an EVM
 * address, a HashScan link), looked up on the selected network's mirror node (its EVM address and code); its ABI
 * from the workspace's build that was deployed there (src/workspace/deployedBuild.ts, the one resolver), else from
 * Sourcify when it verified the contract. The source is said in a sentence: "exact" only when the build's code was
 * compared with the code on chain.
 */
import * as vscode from 'vscode';
import { evmAddressOf } from '../../api/contractCall';
import { type AbiItem, normalizeAbi } from '../../api/decode/abiFiles';
import { SourcifyAbiCache } from '../../api/decode/sourcifyAbi';
import { isApiError } from '../../api/errors';
import { oneLine } from '../../api/text';
import { evmAddressToEntityId, entityIdToEvmAddress } from '../../api/validation';
import { explainBuild } from '../../workspace/deployedBuild';
import type { FeatureContext } from '../context';

export interface CallTarget {
  /** The contract's EVM address (0x, lowercase): the call's `to`. */
  address: string;
  /** Its entity id, when the mirror node gave it. */
  id?: string;
  /** The contract's name from its ABI's source, else its id. */
  name: string;
  abi: AbiItem[];
  /** Where the ABI came from, one sentence. */
  source: string;
}

export type TargetAnswer = { ok: true; target: CallTarget } | { ok: false; message: string };

const HASHSCAN = /^(?:https?:\/\/)?(?:www\.)?hashscan\.io\/([a-z]+)\/(?:contract|account)\/([^/?#\s]+)/i;

/** What was typed as a contract: `{ idOrAddress, network? }` (a HashScan link names its network), or why not. */
export function parseContractInput(text: string): { idOrAddress: string; network?: string } | { error: string } {
  const s = text.trim();
  const link = HASHSCAN.exec(s);
  const id = link ? decodeURIComponent(link[2]) : s;
  if (!evmAddressOf(id))
    return {
      error: vscode.l10n.t(
        '"{0}" is not a contract: enter its id (0.0.1234), its EVM address (0x and 40 hex digits) or its HashScan link.',
        oneLine(s, 60),
      ),
    };
  return { idOrAddress: id, ...(link ? { network: link[1].toLowerCase() } : {}) };
}

let sourcify: SourcifyAbiCache | undefined;

/** Finds the contract on the selected network and its ABI. */
export async function findTarget(ctx: FeatureContext, text: string): Promise<TargetAnswer> {
  const parsed = parseContractInput(text);
  if ('error' in parsed) return { ok: false, message: parsed.error };
  const profile = ctx.network.profile;
  if (parsed.network && parsed.network !== profile.name && profile.name !== 'custom')
    return {
      ok: false,
      message: vscode.l10n.t(
        'The link is to a contract on {0}, and the selected network is {1}: select {0} first.',
        parsed.network,
        profile.label,
      ),
    };
  let body: Record<string, unknown> | null;
  try {
    body = await ctx.chainCode.contract(parsed.idOrAddress);
  } catch (e) {
    return { ok: false, message: isApiError(e) ? e.detail : String(e) };
  }
  if (!body)
    return {
      ok: false,
      message: vscode.l10n.t(
        'No contract at {0} on {1}: check the id or address, or select the network it was deployed on.',
        parsed.idOrAddress,
        profile.label,
      ),
    };
  const id = typeof body.contract_id === 'string' ? body.contract_id : undefined;
  const own = typeof body.evm_address === 'string' ? evmAddressOf(body.evm_address) : undefined;
  const address = own ?? (evmAddressOf(parsed.idOrAddress) as string);
  const longZero = id ? entityIdToEvmAddress(id) : undefined;
  const forms = [address, ...(longZero?.ok ? [longZero.value] : [])];
  const runtime = typeof body.runtime_bytecode === 'string' ? body.runtime_bytecode : undefined;
  const label = id ?? evmAddressToEntityId(address) ?? address;

  // the workspace's build deployed there
  try {
    ctx.abis.ensureStarted();
    await ctx.abis.scanned();
    const builds = await ctx.builds.get();
    const found = await builds.resolve(forms, {
      chainId: profile.chainId,
      deployments: ctx.abis.workspace().deployments,
      runtimeBytecode: runtime,
    });
    const abi = normalizeAbi(found?.built?.contract.abi);
    if (found && abi.length) {
      const name = found.match.contract.name;
      const exact = found.code?.match === true && !found.recorded;
      const why = explainBuild(found).replace(/\.$/, '');
      return {
        ok: true,
        target: {
          address,
          ...(id ? { id } : {}),
          name,
          abi,
          source: exact
            ? vscode.l10n.t("ABI from the workspace's build of {0}: {1}.", name, why)
            : vscode.l10n.t("ABI likely from the workspace's build of {0}: {1}.", name, why),
        },
      };
    }
  } catch (e) {
    ctx.log.warn(`Call contract ${label}: reading the workspace's builds failed: ${String(e)}`);
  }

  // Sourcify
  let unanswered: string | undefined;
  try {
    sourcify ??= new SourcifyAbiCache(
      () => ctx.network.clients.http,
      () => ctx.network.profile.verifyUrl,
    );
    const found = await sourcify.get(profile.chainId, address);
    if (found?.abi.length)
      return {
        ok: true,
        target: {
          address,
          ...(id ? { id } : {}),
          name: label,
          abi: found.abi,
          source: vscode.l10n.t(
            'ABI from Sourcify, where the contract is verified ({0}).',
            found.match === 'exact_match' ? vscode.l10n.t('exact match') : (found.match ?? vscode.l10n.t('match')),
          ),
        },
      };
  } catch (e) {
    unanswered = isApiError(e) ? e.detail : String(e);
    ctx.log.warn(`Call contract ${label}: Sourcify did not answer: ${unanswered}`);
  }
  if (unanswered)
    return {
      ok: false,
      message: vscode.l10n.t(
        'No build of this workspace is the code deployed at {0} on {1}, and Sourcify could not be asked for its ABI ({2}). Try again later, or compile the contract in this workspace.',
        label,
        profile.label,
        oneLine(unanswered, 200),
      ),
    };
  return {
    ok: false,
    message: vscode.l10n.t(
      'No ABI for {0} on {1}: no build of this workspace is the code deployed there, and Sourcify has not verified it. Compile the contract in this workspace or verify it on Sourcify, then call it again.',
      label,
      profile.label,
    ),
  };
}
