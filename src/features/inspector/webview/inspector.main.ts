/**
 * The transaction inspector page (browser code). Placeholder until the page lands: it only says it is ready.
 */
import type { FromWebview } from '../protocol';

declare function acquireVsCodeApi(): { postMessage(m: FromWebview): void };
acquireVsCodeApi().postMessage({ type: 'ready' });
