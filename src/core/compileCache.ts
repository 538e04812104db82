/**
 * The folder of the extension's global storage where the compiler outputs it produced are kept (./missingOutputs.ts).
 * A module of its own, so that what activation loads can name it without loading the compile step.
 */
export const COMPILE_CACHE = 'compiled';
