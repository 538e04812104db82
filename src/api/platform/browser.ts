/** The browser build's ./node.ts (esbuild.js, browserBuild): the same names, with no Node module or global. */
import type * as NodePlatform from './node';
import { fetchTransport } from '../httpTransport';

export const httpTransport: typeof NodePlatform.httpTransport = fetchTransport;
