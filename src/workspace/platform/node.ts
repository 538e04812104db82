/**
 * What differs between the Node build (desktop) and the browser build (VS Code for the web) in src/workspace. The
 * browser build resolves every import of this file to ./browser.ts (esbuild.js, browserBuild), which exports the
 * same names: undefined where the browser cannot do the thing.
 */
import { promises as fs } from 'fs';
import { CompileCache, type Produced, produceOutput } from '../compiler';

/**
 * Produces a build's compiler output with a solc the machine has (src/workspace/compiler.ts, a child process),
 * cached in `cacheDir`; undefined where no local compiler can run.
 */
export const localCompile:
  | ((
      version: string,
      input: object,
      options: Omit<Parameters<typeof produceOutput>[2], 'cache'> & { cacheDir: string },
    ) => Promise<Produced>)
  | undefined = (version, input, { cacheDir, ...options }) =>
  produceOutput(version, input, { ...options, cache: new CompileCache(cacheDir) });

/** Opens a file of the local disk for reading in pieces; undefined where there is no local disk. */
export const openLocalFile: ((path: string) => ReturnType<typeof fs.open>) | undefined = (path) => fs.open(path, 'r');
