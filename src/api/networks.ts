/**
 * Network profiles: where each service of a network lives, its EVM chain id and its explorer.
 */
import * as l10n from '@vscode/l10n';
import { hostOf } from './url';

export type NetworkName = 'mainnet' | 'testnet' | 'previewnet' | 'local' | 'custom';
export const NETWORK_NAMES: readonly NetworkName[] = ['mainnet', 'testnet', 'previewnet', 'local', 'custom'];

export type ChainId = 295 | 296 | 297 | 298;
export const CHAIN_IDS: readonly ChainId[] = [295, 296, 297, 298];
/** The networks behind Hedera's EVM chain ids. */
export const CHAIN_NAMES: Readonly<Record<ChainId, string>> = {
  295: 'Hedera mainnet',
  296: 'Hedera testnet',
  297: 'Hedera previewnet',
  298: 'Hedera local',
};

/** "Hedera testnet" for 296; undefined for a chain that is not Hedera's. */
export function chainName(chainId: number): string | undefined {
  return isChainId(chainId) ? CHAIN_NAMES[chainId] : undefined;
}

export interface NetworkProfile {
  name: NetworkName;
  /** Shown to people: "Testnet", "Custom" (or the custom network's name). */
  label: string;
  /** Mirror node base, without `/api/v1`. */
  mirrorUrl: string;
  /** Statuspage API v2 base, with `/api/v2`. */
  statusUrl: string;
  /** Sourcify server base (serves `/session/...` and `/v2/...`). */
  verifyUrl: string;
  chainId: ChainId;
  /** Explorer base for links: `${hashscanUrl}/transaction/<id>`. */
  hashscanUrl: string;
}

export const HEDERA_STATUS_URL = 'https://status.hedera.com/api/v2';
export const SOURCIFY_URL = 'https://sourcify.dev/server';

const PUBLIC: Record<'mainnet' | 'testnet' | 'previewnet', NetworkProfile> = {
  mainnet: {
    name: 'mainnet',
    label: 'Mainnet',
    mirrorUrl: 'https://mainnet-public.mirrornode.hedera.com',
    statusUrl: HEDERA_STATUS_URL,
    verifyUrl: SOURCIFY_URL,
    chainId: 295,
    hashscanUrl: 'https://hashscan.io/mainnet',
  },
  testnet: {
    name: 'testnet',
    label: 'Testnet',
    mirrorUrl: 'https://testnet.mirrornode.hedera.com',
    statusUrl: HEDERA_STATUS_URL,
    verifyUrl: SOURCIFY_URL,
    chainId: 296,
    hashscanUrl: 'https://hashscan.io/testnet',
  },
  previewnet: {
    name: 'previewnet',
    label: 'Previewnet',
    mirrorUrl: 'https://previewnet.mirrornode.hedera.com',
    statusUrl: HEDERA_STATUS_URL,
    verifyUrl: SOURCIFY_URL,
    chainId: 297,
    hashscanUrl: 'https://hashscan.io/previewnet',
  },
};

export interface CustomNetworkSettings {
  /** The label shown for the custom network (settings text: see customLabel). */
  name?: string;
  mirrorUrl?: string;
  statusUrl?: string;
  verifyUrl?: string;
  chainId?: number;
  hashscanUrl?: string;
}

export interface ProfileSettings {
  network?: string;
  custom?: CustomNetworkSettings;
}

/** Removes trailing slashes so that paths can be appended. */
export function trimBase(url: string): string {
  return url.trim().replace(/\/+$/, '');
}

export function isNetworkName(v: unknown): v is NetworkName {
  return typeof v === 'string' && (NETWORK_NAMES as readonly string[]).includes(v);
}

export function isChainId(v: unknown): v is ChainId {
  return typeof v === 'number' && (CHAIN_IDS as readonly number[]).includes(v);
}

/** The longest custom network name shown; the rest is cut. */
export const CUSTOM_NAME_MAX = 32;

/**
 * The custom network's label: its `name` setting reduced to letters, digits, spaces and `.-_` (a settings file is
 * untrusted text, and the label reaches the status bar, where `$(…)` is an icon, notifications, where `[…](…)` is a
 * link, and hovers), at most CUSTOM_NAME_MAX characters. When nothing is left, or when it would pass for another
 * network ("Mainnet"), the host of its mirror node, which is how the user knows it; "Custom" without either.
 */
export function customLabel(name: string | undefined, mirrorUrl?: string): string {
  // a name of ASCII letters, digits and ` ._-` is kept as it is without the Unicode classes (slow to build at activation)
  const kept =
    typeof name === 'string'
      ? (/^[\w .-]*$/.test(name) ? name : name.normalize('NFC').replace(/[^\p{L}\p{N} ._-]+/gu, ' '))
          .replace(/\s+/g, ' ')
          .trim()
      : '';
  const label = [...kept].slice(0, CUSTOM_NAME_MAX).join('').trim();
  if (label && !NETWORK_NAMES.includes(label.toLowerCase() as NetworkName)) return label;
  return hostOf(mirrorUrl) ?? l10n.t('Custom');
}

/** The profile for the settings. Unknown network names fall back to testnet. */
export function resolveProfile(settings: ProfileSettings): NetworkProfile {
  const name: NetworkName = isNetworkName(settings.network) ? settings.network : 'testnet';
  switch (name) {
    case 'mainnet':
    case 'testnet':
    case 'previewnet':
      return { ...PUBLIC[name] };
    case 'local':
      return {
        name,
        label: l10n.t('Local'),
        mirrorUrl: 'http://localhost:5551',
        statusUrl: HEDERA_STATUS_URL,
        verifyUrl: SOURCIFY_URL,
        chainId: 298,
        hashscanUrl: 'http://localhost:8080/devnet',
      };
    case 'custom': {
      const c = settings.custom ?? {};
      const mirrorUrl = trimBase(c.mirrorUrl || PUBLIC.testnet.mirrorUrl);
      return {
        name,
        label: customLabel(c.name, mirrorUrl),
        mirrorUrl,
        statusUrl: trimBase(c.statusUrl || HEDERA_STATUS_URL),
        verifyUrl: trimBase(c.verifyUrl || SOURCIFY_URL),
        chainId: isChainId(c.chainId) ? c.chainId : 296,
        hashscanUrl: trimBase(c.hashscanUrl || PUBLIC.testnet.hashscanUrl),
      };
    }
  }
}

export type HashscanKind = 'contract' | 'transaction' | 'schedule' | 'token' | 'account';

/** An explorer link: `hashscan(profile, 'transaction', '1700000000.000000001')`, `hashscan(p, 'token', '0.0.5', '7')`. */
export function hashscanUrl(profile: NetworkProfile, kind: HashscanKind, id: string, serial?: string): string {
  const path = [kind, encodeURIComponent(id), ...(serial !== undefined ? [encodeURIComponent(serial)] : [])].join('/');
  return `${trimBase(profile.hashscanUrl)}/${path}`;
}
