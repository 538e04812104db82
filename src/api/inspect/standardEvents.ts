/**
 * The standard token interfaces, to decode what no ABI of the workspace or Sourcify knows: the events of ERC-20,
 * ERC-721 and ERC-1155, their functions (what a call to an HTS token's own address speaks, the network handing it
 * to the token service) and the custom errors of ERC-6093. ERC-20 and ERC-721 `Transfer` and `Approval` share their
 * topic 0; the number of topics tells them apart (3: ERC-20, the amount in the data; 4: ERC-721, the token id
 * indexed). Plain TypeScript.
 */
import type { AbiRegistry } from '../decode/abi';
import { registryOf } from './systemContracts';

export const ERC20_EVENTS = [
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
];

export const ERC721_EVENTS = [
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)',
];

/** ERC-721 and ERC-1155 declare the same event (ERC-1155 names its first argument `account`). */
export const APPROVAL_FOR_ALL = [
  'event ApprovalForAll(address indexed owner, address indexed operator, bool approved)',
];

export const ERC1155_EVENTS = [
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
  'event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)',
  'event URI(string value, uint256 indexed id)',
];

export const ERC20_FUNCTIONS = [
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address account) view returns (uint256)',
  'function transfer(address to, uint256 amount) returns (bool)',
  'function allowance(address owner, address spender) view returns (uint256)',
  'function approve(address spender, uint256 amount) returns (bool)',
  'function transferFrom(address from, address to, uint256 amount) returns (bool)',
];

/** ERC-721's own functions (balanceOf, approve and transferFrom share ERC-20's selectors: ERC-20's names are used). */
export const ERC721_FUNCTIONS = [
  'function ownerOf(uint256 tokenId) view returns (address)',
  'function tokenURI(uint256 tokenId) view returns (string)',
  'function getApproved(uint256 tokenId) view returns (address)',
  'function setApprovalForAll(address operator, bool approved)',
  'function isApprovedForAll(address owner, address operator) view returns (bool)',
  'function safeTransferFrom(address from, address to, uint256 tokenId)',
  'function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)',
];

export const ERC1155_FUNCTIONS = [
  'function balanceOf(address account, uint256 id) view returns (uint256)',
  'function balanceOfBatch(address[] accounts, uint256[] ids) view returns (uint256[])',
  'function uri(uint256 id) view returns (string)',
  'function safeTransferFrom(address from, address to, uint256 id, uint256 value, bytes data)',
  'function safeBatchTransferFrom(address from, address to, uint256[] ids, uint256[] values, bytes data)',
];

/** A registry of one standard, and its name (what a decoded call, event or error says it was decoded with). */
export interface Standard {
  label: string;
  registry: AbiRegistry;
}

let events: Standard[] | undefined;

/** The standard events, one registry a standard in the order tried: ERC-20, ERC-721, ERC-1155, then ApprovalForAll (both). */
export function standardEvents(): Standard[] {
  events ??= [
    { label: 'ERC-20', registry: registryOf('ERC-20', ERC20_EVENTS) },
    { label: 'ERC-721', registry: registryOf('ERC-721', ERC721_EVENTS) },
    { label: 'ERC-1155', registry: registryOf('ERC-1155', ERC1155_EVENTS) },
    { label: 'ERC-721 / ERC-1155', registry: registryOf('ERC-721 / ERC-1155', APPROVAL_FOR_ALL) },
  ];
  return events;
}

let functions: Standard[] | undefined;

/** The standard functions, one registry a standard in the order tried: ERC-20, ERC-721, ERC-1155 (built on first use). */
export function standardFunctions(): Standard[] {
  functions ??= [
    { label: 'ERC-20', registry: registryOf('ERC-20', ERC20_FUNCTIONS) },
    { label: 'ERC-721', registry: registryOf('ERC-721', ERC721_FUNCTIONS) },
    { label: 'ERC-1155', registry: registryOf('ERC-1155', ERC1155_FUNCTIONS) },
  ];
  return functions;
}

/** ERC-6093's custom errors of token contracts (OpenZeppelin 5 raises them). */
export const ERC6093_ERRORS = [
  'error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)',
  'error ERC20InvalidSender(address sender)',
  'error ERC20InvalidReceiver(address receiver)',
  'error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)',
  'error ERC20InvalidApprover(address approver)',
  'error ERC20InvalidSpender(address spender)',
  'error ERC721InvalidOwner(address owner)',
  'error ERC721NonexistentToken(uint256 tokenId)',
  'error ERC721IncorrectOwner(address sender, uint256 tokenId, address owner)',
  'error ERC721InvalidSender(address sender)',
  'error ERC721InvalidReceiver(address receiver)',
  'error ERC721InsufficientApproval(address operator, uint256 tokenId)',
  'error ERC721InvalidApprover(address approver)',
  'error ERC721InvalidOperator(address operator)',
  'error ERC1155InsufficientBalance(address sender, uint256 balance, uint256 needed, uint256 tokenId)',
  'error ERC1155InvalidSender(address sender)',
  'error ERC1155InvalidReceiver(address receiver)',
  'error ERC1155MissingApprovalForAll(address operator, address owner)',
  'error ERC1155InvalidApprover(address approver)',
  'error ERC1155InvalidOperator(address operator)',
  'error ERC1155InvalidArrayLength(uint256 idsLength, uint256 valuesLength)',
];

let errors: AbiRegistry | undefined;

/** The standard errors of token contracts (ERC-6093), built on first use. */
export function standardErrors(): AbiRegistry {
  errors ??= registryOf('ERC-6093', ERC6093_ERRORS);
  return errors;
}
