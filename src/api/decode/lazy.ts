/**
 * The decoders (viem, protobufjs, the Hedera protobuf descriptor) are a lazy entry of the extension build,
 * dist/decoders.js (LAZY_ENTRIES in esbuild.js), required on first use: activation never loads them. The require
 * below loads it from next to dist/main.js; test bundles include ./index directly.
 */
import type * as Decoders from './index';

export type DecodersModule = typeof Decoders;

let loaded: DecodersModule | undefined;
let failure: unknown;

/** The decoders module, loaded now if it was not. Throws if the bundle cannot be loaded. */
export function decoders(): DecodersModule {
  if (!loaded) {
    if (failure) throw failure;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      loaded = require('./index') as DecodersModule;
    } catch (e) {
      failure = e;
      throw e;
    }
  }
  return loaded;
}

/** The decoders, or undefined if their bundle cannot be loaded (views then show hex, as before). */
export function tryDecoders(): DecodersModule | undefined {
  try {
    return decoders();
  } catch {
    return undefined;
  }
}
