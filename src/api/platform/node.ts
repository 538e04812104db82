/**
 * What differs between the Node build (desktop) and the browser build (VS Code for the web) in src/api. The browser
 * build resolves every import of this file to ./browser.ts (esbuild.js, browserBuild), which exports the same names.
 */
export { nodeTransport as httpTransport } from '../httpNode';

/** Bytes of base64 text (standard or URL-safe; characters outside the alphabet are skipped, as Node does). */
export const base64Bytes = (b64: string): Uint8Array => Buffer.from(b64, 'base64');
/** Bytes of hex text, up to the first pair that is not hex. */
export const hexBytes = (hex: string): Uint8Array => Buffer.from(hex, 'hex');
const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);
/** Lower-case hex of bytes, no 0x. */
export const hexOf = (bytes: Uint8Array): string => asBuffer(bytes).toString('hex');
/** Text of UTF-8 bytes (a malformed sequence becomes U+FFFD). */
export const utf8Of = (bytes: Uint8Array): string => asBuffer(bytes).toString('utf8');
/** UTF-8 bytes of text. */
export const utf8Bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');

/** CPU time of this process since `from` (process.cpuUsage), in µs. */
export const cpuUsage = (from?: { user: number; system: number }): { user: number; system: number } =>
  process.cpuUsage(from);

/**
 * CPU time of this thread so far, in ms, where Node has process.threadCpuUsage (Node 23.9+): unlike wall
 * time it does not grow while the system runs other processes, so it shows what our code itself costs.
 */
export function threadCpuMs(): number | undefined {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
  if (typeof usage !== 'function') return undefined;
  const u = usage.call(process);
  return (u.user + u.system) / 1000;
}
