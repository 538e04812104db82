/**
 * What differs between the Node build (desktop) and the browser build (VS Code for the web) in src/api. The browser
 * build resolves every import of this file to ./browser.ts (esbuild.js, browserBuild), which exports the same names.
 */
export { nodeTransport as httpTransport } from '../httpNode';
