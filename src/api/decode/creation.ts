/**
 * Contract creations: which workspace artifact a creation's init code (`function_parameters` of an EVM
 * contract creation) was built from, and its constructor arguments. The init code is the artifact's creation
 * bytecode followed by the ABI-encoded constructor arguments. The bytecode's metadata tail (CBOR, its length in
 * the last 2 bytes) may differ between builds of the same source and is not compared, only its length; library
 * link placeholders (`__$…$__`, 20 bytes) match any address. Part of the decoders bundle (viem).
 */
import { decodeAbiParameters } from 'viem';
import type { AbiParameter } from 'viem';
import type { AbiFile } from './abiFiles';
import { decodedValues, valuesText } from './abi';
import type { AbiOrigin, DecodedValue } from './abi';

export interface DecodedCreation {
  /** The artifact whose creation bytecode the init code starts with (undefined: none matched). */
  contractName?: string;
  origin?: AbiOrigin;
  /** Constructor arguments, decoded with the constructor's inputs. */
  args?: DecodedValue[];
  /** `Token(name_="Rig", …)`, or `Token` without a constructor. */
  text?: string;
  /** What followed the bytecode (the encoded constructor arguments), hex. */
  argsHex?: string;
  /** The arguments did not decode with the constructor's inputs (shown as hex). */
  argsUndecoded?: boolean;
}

const HEX = /^[0-9a-f]*$/;
/** Smaller bytecode bodies than this are not matched (too likely to be a coincidence). */
const MIN_BODY = 64;

/**
 * The length, in hex characters, of the metadata tail of a bytecode (CBOR map + 2-byte length), or 0 when it
 * does not end with one. `code`: lowercase hex without 0x.
 */
export function metadataTailLength(code: string): number {
  if (code.length < 6 || !HEX.test(code.slice(-4))) return 0;
  const len = (parseInt(code.slice(-4), 16) + 2) * 2;
  if (len <= 4 || len > code.length) return 0;
  const first = parseInt(code.slice(code.length - len, code.length - len + 2), 16);
  // a CBOR map with 1 to 7 entries (solc: ipfs/bzzr, experimental, solc version)
  return first >= 0xa1 && first <= 0xa7 ? len : 0;
}

/** Whether `data` starts with `body`, placeholders (`__…__`, 40 characters) in `body` matching any hex. */
function startsWithCode(data: string, body: string): boolean {
  if (data.length < body.length) return false;
  let i = 0;
  while (i < body.length) {
    const j = body.indexOf('__', i);
    const end = j < 0 ? body.length : j;
    if (data.slice(i, end) !== body.slice(i, end)) return false;
    if (j < 0) return true;
    if (!HEX.test(data.slice(j, j + 40)) || j + 40 > body.length) return false;
    i = j + 40;
  }
  return true;
}

/**
 * Where the constructor arguments start in init code `data` (hex without 0x, lowercase) built from `bytecode`,
 * or undefined when `data` is not that bytecode's init code.
 */
export function creationArgsOffset(data: string, bytecode: string): number | undefined {
  const code = bytecode.replace(/^0x/i, '').toLowerCase();
  const meta = metadataTailLength(code);
  const body = code.slice(0, code.length - meta);
  if (body.length < MIN_BODY || !startsWithCode(data, body)) return undefined;
  if (!meta) return body.length;
  // the metadata tail in the data: same length, a CBOR map, the same length bytes at its end
  const tail = data.slice(body.length, body.length + meta);
  if (tail.length !== meta || !HEX.test(tail) || metadataTailLength(tail) !== meta) return undefined;
  return body.length + meta;
}

function decodeArgs(file: AbiFile, argsHex: string): Pick<DecodedCreation, 'args' | 'argsUndecoded'> {
  const inputs = file.constructorInputs ?? [];
  if (!inputs.length) return argsHex ? { argsUndecoded: true } : { args: [] };
  try {
    const decoded = decodeAbiParameters(inputs as unknown as AbiParameter[], `0x${argsHex}`);
    return { args: decodedValues(inputs, [...decoded]) };
  } catch {
    return { argsUndecoded: true };
  }
}

/**
 * The artifact a creation's init code comes from, with its decoded constructor arguments. Of several matching
 * artifacts, the longest bytecode wins, then one whose arguments decode, then the first. Undefined when none
 * matches. Never throws.
 */
export function decodeCreation(data: string | null | undefined, files: Iterable<AbiFile>): DecodedCreation | undefined {
  const d = (data ?? '').trim().replace(/^0x/i, '').toLowerCase();
  if (!d || !HEX.test(d)) return undefined;
  let best: { file: AbiFile; offset: number; decoded: Pick<DecodedCreation, 'args' | 'argsUndecoded'> } | undefined;
  for (const file of files) {
    if (!file.bytecode) continue;
    try {
      const offset = creationArgsOffset(d, file.bytecode);
      if (offset === undefined) continue;
      if (best && (offset < best.offset || (offset === best.offset && !best.decoded.argsUndecoded))) continue;
      const decoded = decodeArgs(file, d.slice(offset));
      if (best && offset === best.offset && decoded.argsUndecoded) continue;
      best = { file, offset, decoded };
    } catch {
      // another artifact may match
    }
  }
  if (!best) return undefined;
  const { file, offset, decoded } = best;
  const argsHex = d.slice(offset);
  const name = file.contractName;
  const text = decoded.args ? (file.constructorInputs?.length ? `${name}(${valuesText(decoded.args)})` : name) : name;
  return {
    contractName: name,
    origin: { kind: 'workspace', label: file.source, contractName: name },
    ...decoded,
    text,
    argsHex: argsHex ? `0x${argsHex}` : '',
  };
}
