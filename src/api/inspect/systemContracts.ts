/**
 * Hedera's system contracts, named by address, with the public interfaces that decode calls to them:
 * the Hedera Token Service (0x167, IHederaTokenService), the exchange rate (0x168, IExchangeRate), the PRNG (0x169,
 * IPrngSystemContract), the Hedera Account Service (0x16a, IHederaAccountService), the Hedera Schedule Service (0x16b,
 * IHRC755 / IHRC1215), and the facades a token's or an account's own address answers (IHRC719, IHRC904, IHRC906):
 * signatures as hashgraph/hedera-smart-contracts declares them (contracts/system-contracts/**, the last version
 * before that folder moved, and the older versions of IHederaTokenService whose selectors the network still
 * answers: cryptoTransfer v1, mintToken/burnToken/wipeTokenAccount with unsigned amounts, token creation v1/v2).
 * The Ethereum precompiles (0x1–0xa) are named too. Response codes (`int64 responseCode`) are named with
 * ./responseCodes. Plain TypeScript: no vscode.
 */
import { parseAbi } from 'viem';
import { AbiRegistry } from '../decode/abi';
import { normalizeAbi, type AbiItem } from '../decode/abiFiles';
import responseCodes from './responseCodes.json';

// ------------------------------------------------------------------ IHederaTokenService

/** The structs of IHederaTokenService, current and older versions (names as in the interface, V1/V2 for the old ones). */
const HTS_STRUCTS = [
  'struct AccountAmount { address accountID; int64 amount; bool isApproval; }',
  'struct NftTransfer { address senderAccountID; address receiverAccountID; int64 serialNumber; bool isApproval; }',
  'struct TokenTransferList { address token; AccountAmount[] transfers; NftTransfer[] nftTransfers; }',
  'struct TransferList { AccountAmount[] transfers; }',
  'struct Expiry { int64 second; address autoRenewAccount; int64 autoRenewPeriod; }',
  'struct KeyValue { bool inheritAccountKey; address contractId; bytes ed25519; bytes ECDSA_secp256k1; address delegatableContractId; }',
  'struct TokenKey { uint256 keyType; KeyValue key; }',
  'struct HederaToken { string name; string symbol; address treasury; string memo; bool tokenSupplyType; int64 maxSupply; bool freezeDefault; TokenKey[] tokenKeys; Expiry expiry; }',
  'struct HederaTokenWithMetadata { string name; string symbol; address treasury; string memo; bool tokenSupplyType; int64 maxSupply; bool freezeDefault; TokenKey[] tokenKeys; Expiry expiry; bytes metadata; }',
  'struct FixedFee { int64 amount; address tokenId; bool useHbarsForPayment; bool useCurrentTokenForPayment; address feeCollector; }',
  'struct FractionalFee { int64 numerator; int64 denominator; int64 minimumAmount; int64 maximumAmount; bool netOfTransfers; address feeCollector; }',
  'struct RoyaltyFee { int64 numerator; int64 denominator; int64 amount; address tokenId; bool useHbarsForPayment; address feeCollector; }',
  'struct TokenInfo { HederaToken token; int64 totalSupply; bool deleted; bool defaultKycStatus; bool pauseStatus; FixedFee[] fixedFees; FractionalFee[] fractionalFees; RoyaltyFee[] royaltyFees; string ledgerId; }',
  'struct FungibleTokenInfo { TokenInfo tokenInfo; int32 decimals; }',
  'struct NonFungibleTokenInfo { TokenInfo tokenInfo; int64 serialNumber; address ownerId; int64 creationTime; bytes metadata; address spenderId; }',
  'struct PendingAirdrop { address sender; address receiver; address token; int64 serial; }',
  'struct NftID { address nft; int64 serial; }',
  // before isApproval (cryptoTransfer v1)
  'struct AccountAmountV1 { address accountID; int64 amount; }',
  'struct NftTransferV1 { address senderAccountID; address receiverAccountID; int64 serialNumber; }',
  'struct TokenTransferListV1 { address token; AccountAmountV1[] transfers; NftTransferV1[] nftTransfers; }',
  // token creation v1 (uint32 maxSupply) and v2 (int64 maxSupply), both with the uint32 expiry
  'struct ExpiryV1 { uint32 second; address autoRenewAccount; uint32 autoRenewPeriod; }',
  'struct HederaTokenV1 { string name; string symbol; address treasury; string memo; bool tokenSupplyType; uint32 maxSupply; bool freezeDefault; TokenKey[] tokenKeys; ExpiryV1 expiry; }',
  'struct HederaTokenV2 { string name; string symbol; address treasury; string memo; bool tokenSupplyType; int64 maxSupply; bool freezeDefault; TokenKey[] tokenKeys; ExpiryV1 expiry; }',
];

const HTS_FUNCTIONS = [
  // transfers
  'function cryptoTransfer(TransferList transferList, TokenTransferList[] tokenTransfers) returns (int64 responseCode)',
  'function cryptoTransfer(TokenTransferListV1[] tokenTransfers) returns (int64 responseCode)',
  'function transferTokens(address token, address[] accountId, int64[] amount) returns (int64 responseCode)',
  'function transferNFTs(address token, address[] sender, address[] receiver, int64[] serialNumber) returns (int64 responseCode)',
  'function transferToken(address token, address sender, address recipient, int64 amount) returns (int64 responseCode)',
  'function transferNFT(address token, address sender, address recipient, int64 serialNumber) returns (int64 responseCode)',
  'function transferFrom(address token, address from, address to, uint256 amount) returns (int64 responseCode)',
  'function transferFromNFT(address token, address from, address to, uint256 serialNumber) returns (int64 responseCode)',
  'function airdropTokens(TokenTransferList[] tokenTransfers) returns (int64 responseCode)',
  'function cancelAirdrops(PendingAirdrop[] pendingAirdrops) returns (int64 responseCode)',
  'function claimAirdrops(PendingAirdrop[] pendingAirdrops) returns (int64 responseCode)',
  'function rejectTokens(address rejectingAddress, address[] ftAddresses, NftID[] nftIDs) returns (int64 responseCode)',
  // supply
  'function mintToken(address token, int64 amount, bytes[] metadata) returns (int64 responseCode, int64 newTotalSupply, int64[] serialNumbers)',
  'function mintToken(address token, uint64 amount, bytes[] metadata) returns (int64 responseCode, uint64 newTotalSupply, int64[] serialNumbers)',
  'function burnToken(address token, int64 amount, int64[] serialNumbers) returns (int64 responseCode, int64 newTotalSupply)',
  'function burnToken(address token, uint64 amount, int64[] serialNumbers) returns (int64 responseCode, uint64 newTotalSupply)',
  'function wipeTokenAccount(address token, address account, int64 amount) returns (int64 responseCode)',
  'function wipeTokenAccount(address token, address account, uint32 amount) returns (int64 responseCode)',
  'function wipeTokenAccountNFT(address token, address account, int64[] serialNumbers) returns (int64 responseCode)',
  // association
  'function associateTokens(address account, address[] tokens) returns (int64 responseCode)',
  'function associateToken(address account, address token) returns (int64 responseCode)',
  'function dissociateTokens(address account, address[] tokens) returns (int64 responseCode)',
  'function dissociateToken(address account, address token) returns (int64 responseCode)',
  // allowances
  'function approve(address token, address spender, uint256 amount) returns (int64 responseCode)',
  'function allowance(address token, address owner, address spender) returns (int64 responseCode, uint256 allowance)',
  'function approveNFT(address token, address approved, uint256 serialNumber) returns (int64 responseCode)',
  'function approveNFT(address token, address approved, int64 serialNumber) returns (int64 responseCode)',
  'function getApproved(address token, uint256 serialNumber) returns (int64 responseCode, address approved)',
  'function getApproved(address token, int64 serialNumber) returns (int64 responseCode, address approved)',
  'function setApprovalForAll(address token, address operator, bool approved) returns (int64 responseCode)',
  'function isApprovedForAll(address token, address owner, address operator) returns (int64 responseCode, bool approved)',
  // creation
  'function createFungibleToken(HederaToken token, int64 initialTotalSupply, int32 decimals) payable returns (int64 responseCode, address tokenAddress)',
  'function createFungibleToken(HederaTokenV2 token, uint64 initialTotalSupply, uint32 decimals) payable returns (int64 responseCode, address tokenAddress)',
  'function createFungibleToken(HederaTokenV1 token, uint256 initialTotalSupply, uint256 decimals) payable returns (int64 responseCode, address tokenAddress)',
  'function createFungibleToken(HederaTokenWithMetadata token, int64 initialTotalSupply, int32 decimals) payable returns (int64 responseCode, address tokenAddress)',
  'function createFungibleTokenWithCustomFees(HederaToken token, int64 initialTotalSupply, int32 decimals, FixedFee[] fixedFees, FractionalFee[] fractionalFees) payable returns (int64 responseCode, address tokenAddress)',
  'function createFungibleTokenWithCustomFees(HederaTokenWithMetadata token, int64 initialTotalSupply, int32 decimals, FixedFee[] fixedFees, FractionalFee[] fractionalFees) payable returns (int64 responseCode, address tokenAddress)',
  'function createNonFungibleToken(HederaToken token) payable returns (int64 responseCode, address tokenAddress)',
  'function createNonFungibleToken(HederaTokenV2 token) payable returns (int64 responseCode, address tokenAddress)',
  'function createNonFungibleToken(HederaTokenV1 token) payable returns (int64 responseCode, address tokenAddress)',
  'function createNonFungibleToken(HederaTokenWithMetadata token) payable returns (int64 responseCode, address tokenAddress)',
  'function createNonFungibleTokenWithCustomFees(HederaToken token, FixedFee[] fixedFees, RoyaltyFee[] royaltyFees) payable returns (int64 responseCode, address tokenAddress)',
  'function createNonFungibleTokenWithCustomFees(HederaTokenWithMetadata token, FixedFee[] fixedFees, RoyaltyFee[] royaltyFees) payable returns (int64 responseCode, address tokenAddress)',
  // management
  'function freezeToken(address token, address account) returns (int64 responseCode)',
  'function unfreezeToken(address token, address account) returns (int64 responseCode)',
  'function grantTokenKyc(address token, address account) returns (int64 responseCode)',
  'function revokeTokenKyc(address token, address account) returns (int64 responseCode)',
  'function pauseToken(address token) returns (int64 responseCode)',
  'function unpauseToken(address token) returns (int64 responseCode)',
  'function deleteToken(address token) returns (int64 responseCode)',
  'function updateTokenInfo(address token, HederaToken tokenInfo) returns (int64 responseCode)',
  'function updateTokenInfo(address token, HederaTokenWithMetadata tokenInfo) returns (int64 responseCode)',
  'function updateTokenExpiryInfo(address token, Expiry expiryInfo) returns (int64 responseCode)',
  'function updateTokenKeys(address token, TokenKey[] keys) returns (int64 responseCode)',
  'function updateFungibleTokenCustomFees(address token, FixedFee[] fixedFees, FractionalFee[] fractionalFees) returns (int64 responseCode)',
  'function updateNonFungibleTokenCustomFees(address token, FixedFee[] fixedFees, RoyaltyFee[] royaltyFees) returns (int64 responseCode)',
  'function updateNFTsMetadata(address nftToken, int64[] serialNumbers, bytes metadata) returns (int256 responseCode)',
  // queries
  'function isToken(address token) returns (int64 responseCode, bool isToken)',
  'function getTokenType(address token) returns (int64 responseCode, int32 tokenType)',
  'function getTokenInfo(address token) returns (int64 responseCode, TokenInfo tokenInfo)',
  'function getFungibleTokenInfo(address token) returns (int64 responseCode, FungibleTokenInfo fungibleTokenInfo)',
  'function getNonFungibleTokenInfo(address token, int64 serialNumber) returns (int64 responseCode, NonFungibleTokenInfo nonFungibleTokenInfo)',
  'function getTokenCustomFees(address token) returns (int64 responseCode, FixedFee[] fixedFees, FractionalFee[] fractionalFees, RoyaltyFee[] royaltyFees)',
  'function getTokenDefaultFreezeStatus(address token) returns (int64 responseCode, bool defaultFreezeStatus)',
  'function getTokenDefaultKycStatus(address token) returns (int64 responseCode, bool defaultKycStatus)',
  'function getTokenExpiryInfo(address token) returns (int64 responseCode, Expiry expiry)',
  'function getTokenKey(address token, uint256 keyType) returns (int64 responseCode, KeyValue key)',
  'function isFrozen(address token, address account) returns (int64 responseCode, bool frozen)',
  'function isKyc(address token, address account) returns (int64 responseCode, bool kycGranted)',
  // a call to a token's address, as the network hands it to the token service
  'function redirectForToken(address token, bytes encodedFunctionSelector) returns (int64 responseCode, bytes response)',
];

// ------------------------------------------------------------------ the other services

const EXCHANGE_RATE = [
  'function tinycentsToTinybars(uint256 tinycents) returns (uint256)',
  'function tinybarsToTinycents(uint256 tinybars) returns (uint256)',
];

const PRNG = ['function getPseudorandomSeed() returns (bytes32)'];

/** IHederaAccountService (HIP-632, HIP-906). */
const ACCOUNT_SERVICE = [
  'function hbarAllowance(address owner, address spender) returns (int64 responseCode, int256 amount)',
  'function hbarApprove(address owner, address spender, int256 amount) returns (int64 responseCode)',
  'function getEvmAddressAlias(address accountNumAlias) returns (int64 responseCode, address evmAddressAlias)',
  'function getHederaAccountNumAlias(address evmAddressAlias) returns (int64 responseCode, address accountNumAlias)',
  'function isValidAlias(address addr) returns (int64 responseCode, bool response)',
  'function isAuthorizedRaw(address account, bytes messageHash, bytes signature) returns (int64 responseCode, bool authorized)',
  'function isAuthorized(address account, bytes message, bytes signature) returns (int64 responseCode, bool authorized)',
];

/** IHRC755 and IHRC1215 (HIP-755, HIP-1215). */
const SCHEDULE_SERVICE = [
  'function authorizeSchedule(address schedule) returns (int64 responseCode)',
  'function signSchedule(address schedule, bytes signatureMap) returns (int64 responseCode)',
  'function scheduleCall(address to, uint256 expirySecond, uint256 gasLimit, uint64 value, bytes callData) returns (int64 responseCode, address scheduleAddress)',
  'function scheduleCallWithPayer(address to, address payer, uint256 expirySecond, uint256 gasLimit, uint64 value, bytes callData) returns (int64 responseCode, address scheduleAddress)',
  'function executeCallOnPayerSignature(address to, address payer, uint256 expirySecond, uint256 gasLimit, uint64 value, bytes callData) returns (int64 responseCode, address scheduleAddress)',
  'function deleteSchedule(address scheduleAddress) returns (int64 responseCode)',
  'function hasScheduleCapacity(uint256 expirySecond, uint256 gasLimit) view returns (bool hasCapacity)',
];

/** What a token's own address answers besides ERC-20/721 (IHRC719, IHRC904 token facade). */
const TOKEN_FACADE = [
  'function associate() returns (uint256 responseCode)',
  'function dissociate() returns (uint256 responseCode)',
  'function isAssociated() view returns (bool associated)',
  'function cancelAirdropFT(address receiverAddress) returns (int64 responseCode)',
  'function cancelAirdropNFT(address receiverAddress, int64 serialNumber) returns (int64 responseCode)',
  'function claimAirdropFT(address senderAddress) returns (int64 responseCode)',
  'function claimAirdropNFT(address senderAddress, int64 serialNumber) returns (int64 responseCode)',
  'function rejectTokenFT() returns (int64 responseCode)',
  'function rejectTokenNFTs(int64[] serialNumbers) returns (int64 responseCode)',
];

/** What an account's own address answers (IHRC906 and IHRC904 account facades). */
const ACCOUNT_FACADE = [
  'function hbarAllowance(address spender) returns (int64 responseCode, int256 amount)',
  'function hbarApprove(address spender, int256 amount) returns (int64 responseCode)',
  'function setUnlimitedAutomaticAssociations(bool enableAutoAssociations) returns (int64 responseCode)',
];

// ------------------------------------------------------------------ the registry of system contracts

export interface SystemContract {
  /** Long-zero EVM address, lowercase. */
  address: string;
  /** `0.0.359` */
  id: string;
  /** `Hedera Token Service` */
  name: string;
  /** The interface its calls are decoded with (`IHederaTokenService`); undefined: named only (precompiles). */
  interfaceName?: string;
  /** Whether its answers carry a Hedera `responseCode`. */
  responseCodes: boolean;
}

const longZero = (n: number): string => `0x${n.toString(16).padStart(40, '0')}`;

const SYSTEM: Array<SystemContract & { abi?: () => string[] }> = [
  {
    address: longZero(0x167),
    id: '0.0.359',
    name: 'Hedera Token Service',
    interfaceName: 'IHederaTokenService',
    responseCodes: true,
    abi: () => [...HTS_STRUCTS, ...HTS_FUNCTIONS],
  },
  {
    address: longZero(0x168),
    id: '0.0.360',
    name: 'Exchange Rate',
    interfaceName: 'IExchangeRate',
    responseCodes: false,
    abi: () => EXCHANGE_RATE,
  },
  {
    address: longZero(0x169),
    id: '0.0.361',
    name: 'PRNG',
    interfaceName: 'IPrngSystemContract',
    responseCodes: false,
    abi: () => PRNG,
  },
  {
    address: longZero(0x16a),
    id: '0.0.362',
    name: 'Hedera Account Service',
    interfaceName: 'IHederaAccountService',
    responseCodes: true,
    abi: () => ACCOUNT_SERVICE,
  },
  {
    address: longZero(0x16b),
    id: '0.0.363',
    name: 'Hedera Schedule Service',
    interfaceName: 'IHRC755, IHRC1215',
    responseCodes: true,
    abi: () => SCHEDULE_SERVICE,
  },
  ...[
    'ecrecover',
    'sha256',
    'ripemd160',
    'identity',
    'modexp',
    'ecAdd',
    'ecMul',
    'ecPairing',
    'blake2f',
    'point evaluation',
  ].map((n, i) => ({
    address: longZero(i + 1),
    id: `0.0.${i + 1}`,
    name: `${n} precompile`,
    responseCodes: false,
  })),
];

const BY_KEY = new Map<string, (typeof SYSTEM)[number]>();
/** What systemContractAt hands out: the same object each time, without the ABI. */
const PUBLIC = new Map<(typeof SYSTEM)[number], SystemContract>();
for (const s of SYSTEM) {
  BY_KEY.set(s.address, s);
  BY_KEY.set(s.id, s);
  const { abi: _abi, ...rest } = s;
  PUBLIC.set(s, Object.freeze(rest));
}

/** The EVM address as a lowercase 0x + 40 hex string, or the entity id `0.0.x` without leading zeros (what BY_KEY holds). */
function keyOf(addressOrId: string | null | undefined): string | undefined {
  const t = (typeof addressOrId === 'string' ? addressOrId : '').trim().toLowerCase();
  if (/^0x[0-9a-f]{40}$/.test(t)) return t;
  if (/^\d{1,20}\.\d{1,20}\.\d{1,20}$/.test(t))
    return t
      .split('.')
      .map((p) => p.replace(/^0+(?=\d)/, ''))
      .join('.');
  return undefined;
}

/** The system contract (or precompile) at an EVM address (long-zero: `0x…0167`) or entity id (`0.0.359`). */
export function systemContractAt(addressOrId: string | null | undefined): SystemContract | undefined {
  const k = keyOf(addressOrId);
  if (!k) return undefined;
  const s = BY_KEY.get(k);
  return s && PUBLIC.get(s);
}

/** The ABI items of human-readable signatures (structs resolved by viem), as the decoders hold them. */
export function abiItems(signatures: readonly string[]): AbiItem[] {
  return normalizeAbi(parseAbi(signatures as string[]));
}

/** A registry of one interface, labelled with where it came from. */
export function registryOf(label: string, signatures: readonly string[]): AbiRegistry {
  const reg = new AbiRegistry();
  reg.add(
    { source: label, contractName: label, format: 'abi', abi: abiItems(signatures) },
    { kind: 'workspace', label },
  );
  return reg;
}

const registries = new Map<string, AbiRegistry | null>();

/** The registry decoding calls to a system contract (built on first use), or undefined (precompiles, other addresses). */
export function systemRegistry(addressOrId: string | null | undefined): AbiRegistry | undefined {
  const k = keyOf(addressOrId);
  const s = k ? BY_KEY.get(k) : undefined;
  if (!s?.abi) return undefined;
  let reg = registries.get(s.address);
  if (reg === undefined) {
    reg = registryOf(s.name, s.abi());
    registries.set(s.address, reg);
  }
  return reg ?? undefined;
}

let facades: AbiRegistry | undefined;

/** What a token's or an account's own address answers besides ERC-20/721: IHRC719, IHRC904, IHRC906 facades. */
export function facadeRegistry(): AbiRegistry {
  facades ??= registryOf('Hedera token/account facade', [...TOKEN_FACADE, ...ACCOUNT_FACADE]);
  return facades;
}

// ------------------------------------------------------------------ response codes

const codes: Record<string, string> = responseCodes.codes;

/**
 * A Hedera response code by number (ResponseCodeEnum of @hashgraph/proto, see ./responseCodes.build.cjs):
 * `SUCCESS` for 22; undefined for a number the table does not know.
 */
export function responseCodeName(code: bigint | number | string): string | undefined {
  const k = typeof code === 'string' ? code.trim() : code.toString();
  return /^-?\d+$/.test(k) && Object.prototype.hasOwnProperty.call(codes, k) ? codes[k] : undefined;
}

/** `SUCCESS (22)`, or the number alone when it is not a known code. */
export function responseCodeText(code: bigint | number | string): string {
  const name = responseCodeName(code);
  return name ? `${name} (${String(code)})` : String(code);
}
