import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO_ROOT } from '../helpers/childProcess';

/** One alerting rule of deploy/prometheus/alerts.yml. */
export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** Folder of the Prometheus files. */
export const PROMETHEUS_DIR = path.join(REPO_ROOT, 'deploy/prometheus');

/** Every alerting rule of alerts.yml, across its groups. */
export function loadAlertRules(): AlertRule[] {
  const document = parse(fs.readFileSync(path.join(PROMETHEUS_DIR, 'alerts.yml'), 'utf8')) as {
    groups: { rules: AlertRule[] }[];
  };
  return document.groups.flatMap((group) => group.rules);
}

const PROMQL_WORDS = new Set(['and', 'or', 'unless', 'by', 'without', 'on', 'ignoring', 'bool', 'offset']);

/**
 * The metric names a PromQL expression reads: label matchers, quoted strings, `by (...)` lists and function names
 * removed; `_bucket`, `_count` and `_sum` series kept as written (the caller maps them to their family).
 */
export function metricNamesIn(expr: string): string[] {
  const stripped = expr
    .replace(/"[^"]*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  const names = new Set<string>();
  for (const match of stripped.matchAll(/(?<![\w.])([a-zA-Z_:][\w:]*)(\s*\()?/g)) {
    if (match[2] || PROMQL_WORDS.has(match[1])) continue;
    names.add(match[1]);
  }
  return [...names];
}

/** Every PromQL expression of the Grafana dashboard, by panel title. */
export function loadDashboardQueries(): { panel: string; expr: string }[] {
  const dashboard = JSON.parse(
    fs.readFileSync(path.join(REPO_ROOT, 'deploy/grafana/dashboards/forge-platform.json'), 'utf8'),
  ) as { panels: { title: string; targets?: { expr: string }[] }[] };
  return dashboard.panels.flatMap((panel) =>
    (panel.targets ?? []).map(({ expr }) => ({ panel: panel.title, expr })),
  );
}
