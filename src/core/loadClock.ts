/**
 * When the extension's module code started to run. extension.ts imports this module first, so in the bundle this
 * line runs before any other module's code: activate() logs the time from here to itself ("module code ran N ms
 * before"), the part of VS Code's activation time that the bundle's size and top-level code cost.
 */
export const moduleCodeStarted = performance.now();
