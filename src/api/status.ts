/**
 * Client of an Atlassian Statuspage API v2 (status.hedera.com): the summary and the upcoming maintenances.
 * Every enum keeps values it does not know (shown as they are); missing lists become empty lists; nothing in a
 * well-formed but unusual answer makes it throw.
 */
import * as l10n from '@vscode/l10n';
import { ApiError } from './errors';
import { type HttpClient, type RequestOptions } from './http';
import type { Open } from './mirrorTypes';

export type Indicator = Open<'none' | 'minor' | 'major' | 'critical' | 'maintenance'>;
export type ComponentStatus = Open<
  'operational' | 'degraded_performance' | 'partial_outage' | 'major_outage' | 'under_maintenance'
>;
export type IncidentStatus = Open<'investigating' | 'identified' | 'monitoring' | 'resolved' | 'postmortem'>;
export type MaintenanceStatus = Open<'scheduled' | 'in_progress' | 'verifying' | 'completed'>;
export type Impact = Open<'none' | 'minor' | 'major' | 'critical' | 'maintenance'>;

export interface StatusPageInfo {
  id: string;
  name: string;
  url: string;
  time_zone?: string;
  updated_at: string;
}

export interface StatusComponent {
  id: string;
  name: string;
  status: ComponentStatus;
  created_at?: string;
  updated_at?: string;
  description: string | null;
  group: boolean;
  group_id: string | null;
  /** Child component ids (groups only). */
  components: string[];
  only_show_if_degraded: boolean;
  position: number;
  showcase?: boolean;
  start_date?: string | null;
  page_id?: string;
}

export interface AffectedComponent {
  code?: string;
  name: string;
  old_status?: string;
  new_status?: string;
}

export interface IncidentUpdate {
  id: string;
  incident_id?: string;
  status: Open<IncidentStatus | MaintenanceStatus>;
  body: string;
  created_at: string;
  updated_at?: string;
  display_at: string;
  affected_components: AffectedComponent[] | null;
}

export interface Incident {
  id: string;
  name: string;
  status: Open<IncidentStatus | MaintenanceStatus>;
  impact: Impact;
  created_at: string;
  updated_at?: string;
  resolved_at: string | null;
  monitoring_at: string | null;
  started_at?: string;
  shortlink: string;
  incident_updates: IncidentUpdate[];
  components: Array<Pick<StatusComponent, 'id' | 'name' | 'status'>>;
}

export interface Maintenance extends Incident {
  scheduled_for: string | null;
  scheduled_until: string | null;
}

export interface StatusSummary {
  page: StatusPageInfo;
  status: { indicator: Indicator; description: string };
  components: StatusComponent[];
  incidents: Incident[];
  scheduled_maintenances: Maintenance[];
}

export interface UpcomingMaintenances {
  page: StatusPageInfo;
  scheduled_maintenances: Maintenance[];
}

const str = (v: unknown, fallback = ''): string =>
  typeof v === 'string' ? v : v === null || v === undefined ? fallback : String(v);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function page(v: unknown): StatusPageInfo {
  const p = obj(v);
  return {
    id: str(p.id),
    name: str(p.name, 'Status page'),
    url: str(p.url),
    time_zone: typeof p.time_zone === 'string' ? p.time_zone : undefined,
    updated_at: str(p.updated_at),
  };
}

function component(v: unknown): StatusComponent {
  const c = obj(v);
  return {
    id: str(c.id),
    name: str(c.name, '(unnamed component)'),
    status: str(c.status, 'unknown'),
    created_at: typeof c.created_at === 'string' ? c.created_at : undefined,
    updated_at: typeof c.updated_at === 'string' ? c.updated_at : undefined,
    description: strOrNull(c.description),
    group: c.group === true,
    group_id: strOrNull(c.group_id),
    components: list(c.components).filter((x): x is string => typeof x === 'string'),
    only_show_if_degraded: c.only_show_if_degraded === true,
    position: typeof c.position === 'number' ? c.position : Number.MAX_SAFE_INTEGER,
    showcase: typeof c.showcase === 'boolean' ? c.showcase : undefined,
    start_date: strOrNull(c.start_date),
    page_id: typeof c.page_id === 'string' ? c.page_id : undefined,
  };
}

function update(v: unknown): IncidentUpdate {
  const u = obj(v);
  const affected = Array.isArray(u.affected_components)
    ? u.affected_components.map((a) => {
        const x = obj(a);
        return {
          code: typeof x.code === 'string' ? x.code : undefined,
          name: str(x.name),
          old_status: typeof x.old_status === 'string' ? x.old_status : undefined,
          new_status: typeof x.new_status === 'string' ? x.new_status : undefined,
        };
      })
    : null;
  return {
    id: str(u.id),
    incident_id: typeof u.incident_id === 'string' ? u.incident_id : undefined,
    status: str(u.status, 'unknown'),
    body: str(u.body),
    created_at: str(u.created_at),
    updated_at: typeof u.updated_at === 'string' ? u.updated_at : undefined,
    display_at: str(u.display_at ?? u.created_at),
    affected_components: affected,
  };
}

function incident(v: unknown): Incident {
  const i = obj(v);
  const updates = list(i.incident_updates).map(update);
  // newest first, whatever order the page used
  updates.sort(
    (a, b) => (Date.parse(b.display_at || b.created_at) || 0) - (Date.parse(a.display_at || a.created_at) || 0),
  );
  return {
    id: str(i.id),
    name: str(i.name, '(unnamed incident)'),
    status: str(i.status, 'unknown'),
    impact: str(i.impact, 'unknown'),
    created_at: str(i.created_at),
    updated_at: typeof i.updated_at === 'string' ? i.updated_at : undefined,
    resolved_at: strOrNull(i.resolved_at),
    monitoring_at: strOrNull(i.monitoring_at),
    started_at: typeof i.started_at === 'string' ? i.started_at : undefined,
    shortlink: str(i.shortlink),
    incident_updates: updates,
    components: list(i.components).map((c) => {
      const x = component(c);
      return { id: x.id, name: x.name, status: x.status };
    }),
  };
}

function maintenance(v: unknown): Maintenance {
  const m = obj(v);
  return { ...incident(v), scheduled_for: strOrNull(m.scheduled_for), scheduled_until: strOrNull(m.scheduled_until) };
}

/** Normalises a summary.json body; throws when it is not a status page summary at all. */
export function parseSummary(body: unknown, url = ''): StatusSummary {
  const b = obj(body);
  if (!b.page && !b.status && !b.components) {
    throw new ApiError({
      kind: 'malformed',
      message: l10n.t('The status page answer is not a Statuspage summary (no page, status or components).'),
      url,
    });
  }
  const s = obj(b.status);
  return {
    page: page(b.page),
    status: { indicator: str(s.indicator, 'unknown'), description: str(s.description) },
    components: list(b.components)
      .map(component)
      .sort((a, z) => a.position - z.position),
    incidents: list(b.incidents).map(incident),
    scheduled_maintenances: list(b.scheduled_maintenances).map(maintenance),
  };
}

export function parseUpcoming(body: unknown, url = ''): UpcomingMaintenances {
  const b = obj(body);
  if (!Array.isArray(b.scheduled_maintenances)) {
    throw new ApiError({
      kind: 'malformed',
      message: l10n.t('The status page answer has no list of scheduled maintenances.'),
      url,
    });
  }
  return { page: page(b.page), scheduled_maintenances: b.scheduled_maintenances.map(maintenance) };
}

export class StatusClient {
  readonly baseUrl: string;

  /** `baseUrl` with `/api/v2`, e.g. https://status.hedera.com/api/v2 */
  constructor(
    baseUrl: string,
    private readonly http: HttpClient,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
  }

  async summary(options?: RequestOptions): Promise<StatusSummary> {
    const res = await this.http.get<unknown>(`${this.baseUrl}/summary.json`, options);
    return parseSummary(res.data, res.url);
  }

  async upcomingMaintenances(options?: RequestOptions): Promise<UpcomingMaintenances> {
    const res = await this.http.get<unknown>(`${this.baseUrl}/scheduled-maintenances/upcoming.json`, options);
    return parseUpcoming(res.data, res.url);
  }
}

/** Components to show: groups with their children, hiding `only_show_if_degraded` ones while operational. */
export function visibleComponents(
  components: StatusComponent[],
): Array<StatusComponent & { children: StatusComponent[] }> {
  const shown = (c: StatusComponent) => !(c.only_show_if_degraded && c.status === 'operational');
  const byId = new Map(components.map((c) => [c.id, c]));
  const top = components.filter((c) => !c.group_id || !byId.has(c.group_id));
  return top
    .map((c) => {
      const childIds = c.group
        ? c.components.length
          ? c.components
          : components.filter((x) => x.group_id === c.id).map((x) => x.id)
        : [];
      const children = childIds
        .map((id) => byId.get(id))
        .filter((x): x is StatusComponent => !!x && shown(x))
        .sort((a, z) => a.position - z.position);
      return { ...c, children };
    })
    .filter((c) => (c.group ? c.children.length > 0 : shown(c)));
}
