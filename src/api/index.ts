/** The API layer: plain TypeScript, no `vscode` import anywhere below this folder. */
export * from './errors';
export * from './http';
export * from './json';
export * from './mirror';
export * from './mirrorTypes';
export * from './networks';
export * from './status';
export * from './validation';
export * from './verify';
