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
