/** CPU time of this thread so far, in ms, where the platform tells it (src/api/platform). */
export { threadCpuMs } from '../api/platform/node';
