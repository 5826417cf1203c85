import { api, ApiProblem, type Me } from './api';
import { saveToken, savedToken } from './session';

/** The operator console (`/admin.html`): status, health, audit search, anomalies and user activity for admins. */

const $ = <T extends HTMLElement = HTMLElement>(selector: string) => document.querySelector(selector) as T;

/** Replaces a list's or table body's rows with one element per item, text only (no HTML from the server). */
function fill(container: HTMLElement, rows: string[][], tag: 'li' | 'tr' = 'li'): void {
  container.replaceChildren(
    ...rows.map((cells) => {
      const row = document.createElement(tag);
      if (tag === 'li') row.textContent = cells.join(' · ');
      else
        for (const cell of cells) {
          const td = document.createElement('td');
          td.textContent = cell;
          row.append(td);
        }
      return row;
    }),
  );
}

function showError(error: unknown): void {
  $('#console-error').textContent =
    error instanceof ApiProblem ? `${error.status} ${error.code}: ${error.message}` : String(error);
}

interface Factor {
  name: string;
  value: number;
  penalty: number;
  detail: string;
}
interface Hit {
  score: number;
  event: { at: string; actor: string; kind: string; target: string; outcome: string };
}
interface Anomaly {
  severity: string;
  type: string;
  explanation: string;
}
interface Entry {
  at: string;
  area: string;
  summary: string;
}

async function load(token: string): Promise<void> {
  const me = await api<Me>('GET', '/auth/me', { token });
  $('#console-who').textContent = `${me.display_name ?? me.id} (${me.tier_name})`;
  const [status, summary] = await Promise.all([
    api<{
      status: string;
      monitor_url: string;
      areas: Array<{ name: string; state: string; indexes: Record<string, number>; detail: string | null }>;
    }>('GET', '/admin/brain/status', { token }),
    api<{
      health: { score: number; factors: Factor[] };
      insights: Array<{ severity: string; text: string }>;
    }>('GET', '/admin/brain/insights/summary', { token }),
  ]);
  $('#status-overall').textContent = status.status;
  fill(
    $('#status-areas'),
    status.areas.map((a) => [
      a.name,
      // Why an area is degraded or down (a failed consolidation, an open circuit) beside its state.
      a.detail ? `${a.state}: ${a.detail}` : a.state,
      Object.entries(a.indexes)
        .map(([k, v]) => `${k} ${v}`)
        .join(', '),
    ]),
    'tr',
  );
  $<HTMLAnchorElement>('#monitor-link').href = status.monitor_url;
  $('#health-score').textContent = String(summary.health.score);
  fill(
    $('#health-factors'),
    summary.health.factors.map((f) => [f.name, `−${f.penalty}`, f.detail]),
    'tr',
  );
  fill(
    $('#insights'),
    summary.insights.map((i) => [i.severity, i.text]),
  );
  $('#token-card').hidden = true;
}

function start(): void {
  let token = savedToken();
  const run = (work: (t: string) => Promise<void>) => (event?: Event) => {
    event?.preventDefault();
    if (!token) return showError('Sign in as an admin first');
    work(token).catch(showError);
  };
  $('#token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    token = $<HTMLInputElement>('#token').value.trim();
    saveToken(token);
    load(token).catch(showError);
  });
  $('#audit-form').addEventListener(
    'submit',
    run(async (t) => {
      const query = $<HTMLInputElement>('#audit-query').value;
      const result = await api<{ hits: Hit[] }>('POST', '/admin/brain/search/audit', {
        token: t,
        body: { query, limit: 50 },
      });
      fill(
        $('#audit-hits'),
        result.hits.map((h) => [
          h.event.at,
          h.event.kind,
          h.event.outcome,
          h.event.actor,
          h.event.target,
          `score ${h.score}`,
        ]),
      );
    }),
  );
  $('#detect').addEventListener(
    'click',
    run(async (t) => {
      const result = await api<{ anomalies: Anomaly[] }>('POST', '/admin/brain/detect/patterns', {
        token: t,
        body: {},
      });
      fill(
        $('#anomalies'),
        result.anomalies.length
          ? result.anomalies.map((a) => [a.severity, a.type, a.explanation])
          : [['none']],
      );
    }),
  );
  $('#activity-form').addEventListener(
    'submit',
    run(async (t) => {
      const id = $<HTMLInputElement>('#activity-user').value.trim();
      const result = await api<{ timeline: Entry[] }>('GET', `/admin/brain/users/${id}/activity`, {
        token: t,
      });
      fill(
        $('#activity'),
        result.timeline.map((e) => [e.at, e.area, e.summary]),
      );
    }),
  );
  if (token) load(token).catch(showError);
}

start();
