/**
 * Reading an NFT out of text selected in an editor: `0.0.1234`, `0.0.1234/7`, `0.0.1234#7`, `0.0.1234 #7`,
 * `0.0.1234 / 7`, with quotes or backticks around it. Plain TypeScript, no `vscode`.
 */
import { checkEntityId, checkSerial } from '../../api/validation';

export interface NftSelection {
  tokenId: string;
  serial?: string;
}

const PATTERN = /^\s*["'`]?\s*(\d{1,19}\.\d{1,19}\.\d{1,19})\s*(?:[/#]\s*#?\s*(\d{1,19}))?\s*["'`]?\s*$/;

/** The token id (normalised) and serial (when given and in range), or undefined when the text is not an NFT. */
export function parseNftSelection(text: string): NftSelection | undefined {
  if (!text || text.length > 200) return undefined;
  const m = PATTERN.exec(text);
  if (!m) return undefined;
  const token = checkEntityId(m[1]);
  if (!token.ok) return undefined;
  if (m[2] === undefined) return { tokenId: token.value };
  const serial = checkSerial(m[2]);
  if (!serial.ok) return undefined;
  return { tokenId: token.value, serial: serial.value };
}
