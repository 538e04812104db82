/** Decoding with the workspace's ABIs and Sourcify: the ABI index, created at activation, started on first use. */
export { registerAbiIndex, type AbiIndex } from './abiIndex';
