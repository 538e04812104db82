import * as assert from 'assert';
import { HttpClient } from '../../src/api/http';
import { parseSummary, StatusClient, visibleComponents } from '../../src/api/status';
import { fixtureText, serveCanned } from './helpers';

describe('status client: real Statuspage payloads', () => {
  it('reads the documented major-outage summary with every value', async () => {
    const srv = await serveCanned({
      '/api/v2/summary.json': { body: fixtureText('statuspage/statuspage-docs-example-summary-major.json') },
      '/api/v2/scheduled-maintenances/upcoming.json': {
        body: fixtureText('statuspage/statuspage-docs-example-upcoming.json'),
      },
    });
    try {
      const client = new StatusClient(`${srv.url}/api/v2/`, new HttpClient());
      const s = await client.summary();
      assert.strictEqual(s.page.name, 'GitHub');
      assert.strictEqual(s.status.indicator, 'major');
      assert.strictEqual(s.status.description, 'Partial System Outage');
      assert.deepStrictEqual(
        s.components.map((c) => [c.name, c.status]),
        [
          ['API', 'partial_outage'],
          ['Management Portal', 'major_outage'],
        ],
      );
      assert.strictEqual(s.incidents.length, 1);
      assert.strictEqual(s.incidents[0].name, 'Unplanned Database Outage');
      assert.strictEqual(s.incidents[0].impact, 'critical');
      assert.strictEqual(s.incidents[0].status, 'identified');
      assert.strictEqual(s.incidents[0].shortlink, 'http://stspg.co:5000/Q0E');
      assert.match(s.incidents[0].incident_updates[0].body, /ham sandwiches/);
      assert.deepStrictEqual(
        s.scheduled_maintenances.map((m) => [m.status, m.scheduled_for]),
        [
          ['scheduled', '2014-05-17T22:00:00.000-06:00'],
          ['in_progress', '2014-05-14T14:30:00.000-06:00'],
        ],
      );
      const up = await client.upcomingMaintenances();
      assert.strictEqual(up.scheduled_maintenances.length, 1);
      assert.strictEqual(up.scheduled_maintenances[0].name, 'Network Maintenance (No Interruption Expected)');
      assert.strictEqual(up.scheduled_maintenances[0].scheduled_until, '2014-05-17T23:30:00.000-06:00');
      assert.deepStrictEqual(srv.hits, ['/api/v2/summary.json', '/api/v2/scheduled-maintenances/upcoming.json']);
    } finally {
      await srv.close();
    }
  });

  it("reads GitHub's real summary and maintenance list", () => {
    const s = parseSummary(JSON.parse(fixtureText('statuspage/github-summary-2019-12-30.real.json')));
    assert.strictEqual(s.status.indicator, 'none');
    assert.strictEqual(s.status.description, 'All Systems Operational');
    assert.strictEqual(s.components.length, 9);
    assert.strictEqual(s.components[0].name, 'Git Operations');
    assert.deepStrictEqual(s.incidents, []);
    const m = JSON.parse(fixtureText('statuspage/github-scheduled-maintenances-2022-02-07.real-trimmed.json'));
    const parsed = parseSummary({ page: m.page, scheduled_maintenances: m.scheduled_maintenances });
    assert.strictEqual(parsed.scheduled_maintenances[0].status, 'completed');
    // updates newest first
    const times = parsed.scheduled_maintenances[0].incident_updates.map((u) => Date.parse(u.display_at));
    assert.deepStrictEqual(
      times,
      [...times].sort((a, b) => b - a),
    );
  });

  it('keeps unknown enum values and survives missing fields', () => {
    const s = parseSummary({
      page: { id: 'p', name: 'Hedera' },
      status: { indicator: 'catastrophic', description: 'Something new' },
      components: [
        { id: 'a', name: 'A', status: 'melting' },
        { id: 'g', name: 'G', status: 'operational', group: true, components: ['b'] },
        { id: 'b', name: 'B', status: 'operational', group_id: 'g', only_show_if_degraded: true },
      ],
      incidents: [{ id: 'i', name: 'I', status: 'escalated', impact: 'galactic', incident_updates: null }],
    });
    assert.strictEqual(s.status.indicator, 'catastrophic');
    assert.strictEqual(s.components[0].status, 'melting');
    assert.strictEqual(s.incidents[0].status, 'escalated');
    assert.strictEqual(s.incidents[0].impact, 'galactic');
    assert.deepStrictEqual(s.incidents[0].incident_updates, []);
    assert.deepStrictEqual(s.scheduled_maintenances, []);
    // B is hidden while operational, so its group has nothing to show
    assert.deepStrictEqual(
      visibleComponents(s.components).map((c) => c.id),
      ['a'],
    );
    s.components[2].status = 'major_outage';
    assert.deepStrictEqual(
      visibleComponents(s.components).map((c) => [c.id, c.children.map((x) => x.id)]),
      [
        ['a', []],
        ['g', ['b']],
      ],
    );
  });

  it('refuses an answer that is not a status page', () => {
    assert.throws(() => parseSummary({ hello: 'world' }), /not a Statuspage summary/);
  });
});
