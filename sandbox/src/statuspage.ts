/**
 * Atlassian Statuspage API v2, Hedera-like. Scenarios switch the indicator, component statuses and incidents.
 * Times are relative to the request time (the upcoming maintenance is always in the future), rounded so that
 * answers are stable within a minute.
 */
import { type Reply, jsonReply } from './http';
import { type HostileCtx, has, payload } from './hostile';

export type StatusScenario = 'operational' | 'degraded' | 'major' | 'maintenance';
export const SCENARIOS: readonly StatusScenario[] = ['operational', 'degraded', 'major', 'maintenance'];

const PAGE_ID = 'mfh2bj3lp4ct';
const MIN = 60_000;
const HOUR = 60 * MIN;

/** ISO 8601 with a zone offset (minutes east of UTC), e.g. 2026-11-22T06:00:00.000-06:00; 0 gives Z. */
export function isoAt(ms: number, offsetMin = 0): string {
  if (offsetMin === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMin * MIN).toISOString().slice(0, -1);
  const sign = offsetMin < 0 ? '-' : '+';
  const a = Math.abs(offsetMin);
  return `${local}${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

type ComponentStatus = 'operational' | 'degraded_performance' | 'partial_outage' | 'major_outage' | 'under_maintenance';

interface ComponentDef {
  id: string;
  name: string;
  description: string | null;
  groupId: string | null;
  onlyShowIfDegraded?: boolean;
  showcase?: boolean;
}

const GROUPS: { id: string; name: string; description: string | null; children: [string, string, string | null][] }[] =
  [
    {
      id: 'grp0mainnet1',
      name: 'Hedera Mainnet (v0.68.2)',
      description: 'Hedera mainnet consensus nodes',
      children: [
        ['cmpmain0up01', 'Hedera Mainnet (v0.68.2) | Network Uptime', 'Consensus network availability'],
        ['cmpmain0hcs2', 'Hedera Mainnet (v0.68.2) | Consensus Service (HCS)', null],
        ['cmpmain0hts3', 'Hedera Mainnet (v0.68.2) | Token Service (HTS)', null],
        ['cmpmain0scs4', 'Hedera Mainnet (v0.68.2) | Smart Contract Service', 'EVM execution'],
        ['cmpmain0cry5', 'Hedera Mainnet (v0.68.2) | Cryptocurrency Service', null],
      ],
    },
    {
      id: 'grp0testnet2',
      name: 'Hedera Testnet (v0.69.0)',
      description: null,
      children: [
        ['cmptest0up01', 'Hedera Testnet (v0.69.0) | Network Uptime', null],
        ['cmptest0scs2', 'Hedera Testnet (v0.69.0) | Smart Contract Service', null],
        ['cmptest0fau3', 'Hedera Testnet (v0.69.0) | Faucet', null],
      ],
    },
    {
      id: 'grp0mirror03',
      name: 'Mirror Node REST API Public Mainnet',
      description: 'mainnet-public.mirrornode.hedera.com',
      children: [
        ['cmpmirr0acc1', 'Mirror Node REST API Public Mainnet | Accounts', null],
        ['cmpmirr0con2', 'Mirror Node REST API Public Mainnet | Contracts', 'contracts/results, contracts/call'],
        ['cmpmirr0sch3', 'Mirror Node REST API Public Mainnet | Schedules', null],
        ['cmpmirr0tok4', 'Mirror Node REST API Public Mainnet | Tokens and NFTs', null],
      ],
    },
    {
      id: 'grp0relay004',
      name: 'JSON-RPC Relay (Hashio)',
      description: null,
      children: [
        ['cmprely0mai1', 'JSON-RPC Relay Mainnet', 'mainnet.hashio.io'],
        ['cmprely0tes2', 'JSON-RPC Relay Testnet', 'testnet.hashio.io'],
      ],
    },
  ];

const STANDALONE: ComponentDef[] = [
  {
    id: 'cmpprev0up01',
    name: 'Hedera Previewnet | Network Uptime',
    description: 'Shown only while degraded',
    groupId: null,
    onlyShowIfDegraded: true,
    showcase: false,
  },
  { id: 'cmphashscan1', name: 'HashScan Explorer', description: null, groupId: null },
];

function componentStatuses(s: StatusScenario): Map<string, ComponentStatus> {
  const m = new Map<string, ComponentStatus>();
  if (s === 'degraded') m.set('cmpmirr0con2', 'degraded_performance');
  if (s === 'major') {
    m.set('cmpmain0scs4', 'major_outage');
    m.set('cmpmain0hts3', 'partial_outage');
    m.set('cmprely0mai1', 'partial_outage');
    m.set('cmpmirr0con2', 'degraded_performance');
    m.set('cmpprev0up01', 'major_outage');
  }
  if (s === 'maintenance') {
    m.set('cmpmirr0sch3', 'under_maintenance');
    m.set('cmpmirr0tok4', 'under_maintenance');
  }
  return m;
}

const SEVERITY: ComponentStatus[] = [
  'operational',
  'under_maintenance',
  'degraded_performance',
  'partial_outage',
  'major_outage',
];

function components(s: StatusScenario, now: number): Record<string, unknown>[] {
  const statuses = componentStatuses(s);
  const created = Date.UTC(2019, 8, 16, 17, 42, 11, 350);
  const updated = (id: string): string =>
    statuses.has(id) ? isoAt(Math.floor(now / MIN) * MIN - 38 * MIN) : isoAt(Date.UTC(2026, 9, 28, 9, 14, 2, 118));
  const out: Record<string, unknown>[] = [];
  let position = 1;
  for (const g of GROUPS) {
    let worst: ComponentStatus = 'operational';
    for (const [id] of g.children) {
      const st = statuses.get(id) ?? 'operational';
      if (SEVERITY.indexOf(st) > SEVERITY.indexOf(worst)) worst = st;
    }
    out.push({
      id: g.id,
      name: g.name,
      status: worst,
      created_at: isoAt(created),
      updated_at: updated(g.children.find(([id]) => statuses.has(id))?.[0] ?? g.id),
      position: position++,
      description: g.description,
      showcase: false,
      start_date: null,
      group_id: null,
      page_id: PAGE_ID,
      group: true,
      only_show_if_degraded: false,
      components: g.children.map(([id]) => id),
    });
    let childPos = 1;
    for (const [id, name, description] of g.children) {
      out.push({
        id,
        name,
        status: statuses.get(id) ?? 'operational',
        created_at: isoAt(created + childPos * 1000),
        updated_at: updated(id),
        position: childPos++,
        description,
        showcase: true,
        start_date: '2019-09-16',
        group_id: g.id,
        page_id: PAGE_ID,
        group: false,
        only_show_if_degraded: false,
      });
    }
  }
  for (const c of STANDALONE) {
    out.push({
      id: c.id,
      name: c.name,
      status: statuses.get(c.id) ?? 'operational',
      created_at: isoAt(created),
      updated_at: updated(c.id),
      position: position++,
      description: c.description,
      showcase: c.showcase ?? true,
      start_date: null,
      group_id: null,
      page_id: PAGE_ID,
      group: false,
      only_show_if_degraded: c.onlyShowIfDegraded ?? false,
    });
  }
  return out;
}

function pickComponents(all: Record<string, unknown>[], ids: string[]): Record<string, unknown>[] {
  return all.filter((c) => ids.includes(c.id as string));
}

interface UpdateDef {
  status: string;
  body: string;
  atMs: number;
  offset?: number;
  affected?: { code: string; name: string; old_status: string; new_status: string }[] | null;
}

function incident(
  id: string,
  name: string,
  status: string,
  impact: string,
  createdMs: number,
  updates: UpdateDef[],
  comps: Record<string, unknown>[],
  offset: number,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const sorted = [...updates].sort((a, b) => b.atMs - a.atMs); // newest first, as Statuspage lists them
  return {
    id,
    name,
    status,
    created_at: isoAt(createdMs, offset),
    updated_at: isoAt(sorted[0].atMs, offset),
    monitoring_at: null,
    resolved_at: null,
    impact,
    shortlink: `https://stspg.io/${id.slice(0, 8)}`,
    started_at: isoAt(createdMs, offset),
    page_id: PAGE_ID,
    incident_updates: sorted.map((u, i) => ({
      id: `${id.slice(0, 6)}upd${String(sorted.length - i).padStart(3, '0')}`,
      status: u.status,
      body: u.body,
      incident_id: id,
      created_at: isoAt(u.atMs, u.offset ?? offset),
      updated_at: isoAt(u.atMs, u.offset ?? offset),
      display_at: isoAt(u.atMs, u.offset ?? offset),
      affected_components: u.affected ?? null,
      deliver_notifications: true,
      custom_tweet: null,
      tweet_id: null,
    })),
    components: comps,
    ...extra,
  };
}

function upcomingMaintenance(now: number, all: Record<string, unknown>[]): Record<string, unknown> {
  const day = Math.floor(now / (24 * HOUR)) * 24 * HOUR;
  const start = day + 2 * 24 * HOUR + 14 * HOUR; // the day after tomorrow, 14:00 UTC
  const created = day - 3 * 24 * HOUR + 9 * HOUR + 12 * MIN;
  return incident(
    'mnt0upgrade70',
    'Hedera Mainnet upgrade to v0.69',
    'scheduled',
    'maintenance',
    created,
    [
      {
        status: 'scheduled',
        body: 'Mainnet will be upgraded to v0.69.0. Transactions submitted during the upgrade window may fail with PLATFORM_NOT_ACTIVE; please retry.',
        atMs: created,
      },
    ],
    pickComponents(all, ['cmpmain0up01', 'cmpmain0scs4']),
    -300,
    { scheduled_for: isoAt(start, -300), scheduled_until: isoAt(start + 90 * MIN, -300) },
  );
}

function activeMaintenance(now: number, all: Record<string, unknown>[]): Record<string, unknown> {
  const start = Math.floor(now / MIN) * MIN - 25 * MIN;
  const created = start - 5 * 24 * HOUR;
  return incident(
    'mnt0mirrordb1',
    'Mirror Node database migration',
    'in_progress',
    'maintenance',
    created,
    [
      {
        status: 'scheduled',
        body: 'We will migrate the mirror node database to new storage. Schedules and NFT endpoints may be slow.',
        atMs: created,
      },
      {
        status: 'in_progress',
        body: 'Scheduled maintenance is currently in progress. We will provide updates as necessary.',
        atMs: start,
        affected: [
          {
            code: 'cmpmirr0sch3',
            name: 'Mirror Node REST API Public Mainnet | Schedules',
            old_status: 'operational',
            new_status: 'under_maintenance',
          },
          {
            code: 'cmpmirr0tok4',
            name: 'Mirror Node REST API Public Mainnet | Tokens and NFTs',
            old_status: 'operational',
            new_status: 'under_maintenance',
          },
        ],
      },
    ],
    pickComponents(all, ['cmpmirr0sch3', 'cmpmirr0tok4']),
    0,
    { scheduled_for: isoAt(start), scheduled_until: isoAt(start + 2 * HOUR) },
  );
}

function incidents(s: StatusScenario, now: number, all: Record<string, unknown>[]): Record<string, unknown>[] {
  const t = Math.floor(now / MIN) * MIN;
  if (s === 'degraded') {
    return [
      incident(
        'inc0latency01',
        'Elevated latency on Mirror Node REST API (contracts)',
        'investigating',
        'minor',
        t - 52 * MIN,
        [
          {
            status: 'investigating',
            body: 'We are investigating elevated response times on /api/v1/contracts/results.',
            atMs: t - 52 * MIN,
          },
          {
            status: 'investigating',
            body: 'Latency remains elevated (p95 around 4 s). Requests still succeed; some clients may time out.',
            atMs: t - 20 * MIN,
            offset: 120,
          },
        ],
        pickComponents(all, ['cmpmirr0con2']),
        0,
      ),
    ];
  }
  if (s === 'major') {
    return [
      incident(
        'inc0outage002',
        'Smart contract execution failing on mainnet',
        'escalated', // not a documented incident status: clients must show it as unknown, not crash
        'major',
        t - 95 * MIN,
        [
          {
            status: 'investigating',
            body: 'Contract calls are failing with <b>CONTRACT_EXECUTION_EXCEPTION</b>.',
            atMs: t - 95 * MIN,
          },
          {
            status: 'identified',
            body: 'Root cause identified in the EVM module. <script>alert("status")</script> Do not <img src=x onerror=alert(1)> retry large batches.',
            atMs: t - 61 * MIN,
          },
          {
            status: 'escalated',
            body: 'Escalated to the node operators & council. Next update in 30 minutes.',
            atMs: t - 12 * MIN,
            offset: -360,
          },
        ],
        pickComponents(all, ['cmpmain0scs4', 'cmpmain0hts3', 'cmprely0mai1']),
        -360,
      ),
      incident(
        'inc0relay0003',
        'JSON-RPC Relay returning 502 errors',
        'identified',
        'minor',
        t - 40 * MIN,
        [
          { status: 'investigating', body: 'Some eth_sendRawTransaction calls return 502.', atMs: t - 40 * MIN },
          { status: 'identified', body: 'A relay instance is unhealthy and is being replaced.', atMs: t - 15 * MIN },
        ],
        pickComponents(all, ['cmprely0mai1']),
        60,
      ),
    ];
  }
  return [];
}

const STATUS: Record<StatusScenario, { indicator: string; description: string }> = {
  operational: { indicator: 'none', description: 'All Systems Operational' },
  degraded: { indicator: 'minor', description: 'Partially Degraded Service' },
  major: { indicator: 'major', description: 'Partial System Outage' },
  maintenance: { indicator: 'maintenance', description: 'Service Under Maintenance' },
};

/** Incidents and maintenances in a fixed order: the ordinal o gives their hostile payloads (README). */
const TEXT_ORDER = ['mnt0upgrade70', 'mnt0mirrordb1', 'inc0latency01', 'inc0outage002', 'inc0relay0003'];

/** `text`: component j (as listed) gets payload j after its name and payload j+1 as description. */
function hostileComponents(all: Record<string, unknown>[]): void {
  all.forEach((c, j) => {
    c.name = `${String(c.name)} ${payload(j)}`;
    c.description = payload(j + 1);
  });
}

/** `text`: incident/maintenance o gets payload 3o after its name, its update k (newest first) payload 3o+1+k after its body. */
function hostileIncidents(list: Record<string, unknown>[]): void {
  for (const inc of list) {
    const o = Math.max(0, TEXT_ORDER.indexOf(inc.id as string));
    inc.name = `${String(inc.name)} ${payload(3 * o)}`;
    (inc.incident_updates as Record<string, unknown>[]).forEach((u, k) => {
      u.body = `${String(u.body)}\n${payload(3 * o + 1 + k)}`;
      if (Array.isArray(u.affected_components))
        u.affected_components = (u.affected_components as Record<string, unknown>[]).map((a) => ({
          ...a,
          name: `${String(a.name)} ${payload(3 * o)}`,
        }));
    });
  }
}

export function handleStatusPage(
  scenario: StatusScenario,
  method: string,
  path: string,
  nowMs: number,
  h?: HostileCtx,
): Reply {
  if (method !== 'GET' && method !== 'HEAD') return jsonReply(405, { error: 'Method not allowed' });
  const text = has(h, 'text');
  const all = components(scenario, nowMs);
  if (text) hostileComponents(all);
  const page = {
    id: PAGE_ID,
    name: 'Hedera',
    url: 'https://status.hedera.com',
    time_zone: 'Etc/UTC',
    updated_at: isoAt(Math.floor(nowMs / MIN) * MIN - 7 * MIN),
  };
  const upcoming = [upcomingMaintenance(nowMs, all)];
  const active = scenario === 'maintenance' ? [activeMaintenance(nowMs, all)] : [];
  const open = incidents(scenario, nowMs, all);
  let status = STATUS[scenario];
  if (text) {
    hostileIncidents([...upcoming, ...active, ...open]);
    status = { ...status, description: `${status.description} ${payload(5)}` };
  }
  const headers = { 'cache-control': 'max-age=0, private, must-revalidate' };
  const p = path.replace(/\/+$/, '');
  switch (p) {
    case '/api/v2/summary.json':
      return jsonReply(
        200,
        { page, components: all, incidents: open, scheduled_maintenances: [...active, ...upcoming], status },
        headers,
      );
    case '/api/v2/status.json':
      return jsonReply(200, { page, status }, headers);
    case '/api/v2/components.json':
      return jsonReply(200, { page, components: all }, headers);
    case '/api/v2/incidents/unresolved.json':
      return jsonReply(200, { page, incidents: open }, headers);
    case '/api/v2/incidents.json':
      return jsonReply(200, { page, incidents: open }, headers);
    case '/api/v2/scheduled-maintenances/upcoming.json':
      return jsonReply(200, { page, scheduled_maintenances: upcoming }, headers);
    case '/api/v2/scheduled-maintenances/active.json':
      return jsonReply(200, { page, scheduled_maintenances: active }, headers);
    case '/api/v2/scheduled-maintenances.json':
      return jsonReply(200, { page, scheduled_maintenances: [...active, ...upcoming] }, headers);
    default:
      return jsonReply(404, { error: 'Not found' });
  }
}
