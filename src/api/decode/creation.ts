/**
 * Contract creations: which workspace artifact a creation's init code (`function_parameters` of an EVM
 * contract creation) was built from, and its constructor arguments. The init code is the artifact's creation
 * bytecode followed by the ABI-encoded constructor arguments. The bytecode's metadata tail (CBOR, its length in
 * the last 2 bytes: solcOutput.ts) may differ between builds of the same source and is not compared, only its
 * length; library link placeholders (`__$…$__`, 20 bytes) match any address. Each artifact's bytecode is prepared
 * for matching once. Part of the decoders bundle (viem).
 */
import { decodeAbiParameters } from 'viem';
import type { AbiParameter } from 'viem';
import type { AbiFile } from './abiFiles';
import { decodedValues, valuesText } from './abi';
import type { AbiOrigin, DecodedValue } from './abi';
import { metadataTailLength } from './solcOutput';

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
 * An artifact's creation bytecode ready for matching: the code before its metadata tail, as literal runs and
 * the places of library link placeholders (`__…__`, 40 characters, matching any address), and the tail's length.
 */
interface PreparedCode {
  /** Length of the code before the metadata tail, in hex characters. */
  body: number;
  /** Length of the metadata tail (0: none). */
  meta: number;
  /** Runs of the body to compare as they are: [offset, text]. */
  literals: Array<[number, string]>;
  /** Offsets of link placeholders in the body. */
  placeholders: number[];
}

/** Undefined: a bytecode that never matches (too short, or a placeholder running past the body). */
function prepareCode(bytecode: string): PreparedCode | undefined {
  const code = bytecode.replace(/^0x/i, '').toLowerCase();
  const meta = metadataTailLength(code);
  const body = code.slice(0, code.length - meta);
  if (body.length < MIN_BODY) return undefined;
  const literals: Array<[number, string]> = [];
  const placeholders: number[] = [];
  let i = 0;
  while (i < body.length) {
    const j = body.indexOf('__', i);
    const end = j < 0 ? body.length : j;
    if (end > i) literals.push([i, body.slice(i, end)]);
    if (j < 0) break;
    if (j + 40 > body.length) return undefined;
    placeholders.push(j);
    i = j + 40;
  }
  return { body: body.length, meta, literals, placeholders };
}

/** Per artifact file: its creation bytecode prepared once, not again for every creation decoded. */
const prepared = new WeakMap<AbiFile, PreparedCode | null>();
function preparedOf(file: AbiFile): PreparedCode | undefined {
  let p = prepared.get(file);
  if (p === undefined) {
    const code = file.bytecode;
    p = (code ? prepareCode(code) : undefined) ?? null;
    prepared.set(file, p);
  }
  return p ?? undefined;
}

/** Where the constructor arguments start in init code `data` (lowercase hex without 0x) built from `code`. */
function argsOffset(data: string, code: PreparedCode): number | undefined {
  if (data.length < code.body) return undefined;
  for (const [at, text] of code.literals) if (!data.startsWith(text, at)) return undefined;
  for (const at of code.placeholders) if (!HEX.test(data.slice(at, at + 40))) return undefined;
  if (!code.meta) return code.body;
  // the metadata tail in the data: same length, a CBOR map, the same length bytes at its end
  const tail = data.slice(code.body, code.body + code.meta);
  if (tail.length !== code.meta || !HEX.test(tail) || metadataTailLength(tail) !== code.meta) return undefined;
  return code.body + code.meta;
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
    try {
      const code = preparedOf(file);
      if (!code) continue;
      const offset = argsOffset(d, code);
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
