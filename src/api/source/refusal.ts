/**
 * What a mirror node's refusal of `/contracts/results/{id}/opcodes` means for revert-to-source. Plain TypeScript.
 */

/**
 * Why the opcodes endpoint gave no trace: `off` (the route does not exist: 501, or a 404 that is not about the
 * transaction — the web3 module answers `No static resource …` when its tracer is disabled, the REST module `Not
 * found` for a route it lacks), `busy` (429, 503), or `transaction` (a 400, or the web3 module's 404 naming the
 * transaction or its contract result: this one cannot be re-executed).
 */
export function opcodeRefusal(status: number, serverMessages: readonly string[]): 'off' | 'busy' | 'transaction' {
  if (status === 429 || status === 503) return 'busy';
  if (status === 400) return 'transaction';
  // the web3 module names what it could not find; a bare `Not found` is the REST module's answer to a route it lacks
  if (
    status === 404 &&
    serverMessages.some((m) => /(transaction|contract result|contract transaction hash)[^:]{0,20} not found/i.test(m))
  )
    return 'transaction';
  return 'off';
}
