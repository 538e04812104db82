// Helpers for the view suites: point the extension at the sandbox, drive the sandbox's faults, read requests.
import type { ListSeam, ListSnapshot } from '../../src/ui/listRegistration';
import { activateApi, type HederaTestApi, sandboxUrl, selectSandbox, waitUntil } from './helpers';

/** What a list view shows (src/ui/listRegistration.ts). */
export type ViewSnapshot = ListSnapshot;

/** The test seam every list view has (Schedules, Contract Results). */
export type ListView = ListSeam<unknown>;

/** The test seams, with the list views' own (src/features/schedules, src/features/contractResults). */
export type ViewsApi = HederaTestApi;

export async function useSandbox(): Promise<{ api: ViewsApi; url: string }> {
  if (!sandboxUrl) throw new Error('HEDERA_SANDBOX_URL is not set: the runner starts the sandbox');
  const api = await activateApi();
  await selectSandbox(sandboxUrl);
  return { api, url: sandboxUrl };
}

export async function sandboxPost(path: string, body?: unknown, method = 'POST'): Promise<void> {
  const res = await fetch(`${sandboxUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status}`);
}

export async function addFault(rule: { path: string; times?: number; fault: Record<string, unknown> }): Promise<void> {
  await sandboxPost('/__sandbox/faults', rule);
}

export async function clearFaults(): Promise<void> {
  await sandboxPost('/__sandbox/faults', undefined, 'DELETE');
}

export async function clearRequests(): Promise<void> {
  await sandboxPost('/__sandbox/requests', undefined, 'DELETE');
}

export async function requests(prefix: string): Promise<string[]> {
  const res = await fetch(`${sandboxUrl}/__sandbox/requests`);
  const list = (await res.json()) as Array<{ url: string }>;
  return list.map((r) => r.url).filter((u) => u.startsWith(prefix));
}

/** Waits until the view has finished loading and shows at least one row of `kind`, or an error/empty row. */
export async function settled(view: ListView, ms = 10000): Promise<ViewSnapshot> {
  await waitUntil(
    'view settled',
    () => !view.loading && view.snapshot().rows.some((r) => r.contextValue !== 'loading'),
    ms,
  );
  return view.snapshot();
}
