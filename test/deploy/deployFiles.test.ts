import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '../helpers/childProcess';
import { ensureNginx, freePort } from '../helpers/nginx';
import { ensurePromtool, runPromtool } from '../helpers/promtool';

const DEPLOY = path.join(REPO_ROOT, 'deploy');
const read = (file: string) => fs.readFileSync(path.join(DEPLOY, file), 'utf8');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  healthcheck?: { test: string[] };
  deploy?: { replicas?: number };
}

/** The compose file with its YAML merge keys (`<<: *forge`) resolved, as `docker compose config` would. */
function loadCompose(): { services: Record<string, ComposeService>; volumes: Record<string, unknown> } {
  return parse(read('compose.yaml'), { merge: true });
}

describe('deploy/compose.yaml', () => {
  const compose = loadCompose();

  it('runs the stores, the three roles, nginx, Prometheus and Grafana', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['api', 'game', 'grafana', 'mongo', 'nginx', 'prometheus', 'qdrant', 'redis', 'worker'].sort(),
    );
  });

  it.each(['api', 'game', 'worker'])(
    'runs the %s role from the production image, connected by URL',
    (role) => {
      const service = compose.services[role];
      expect(service.build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
      expect(service.environment).toMatchObject({
        ROLES: role,
        MONGODB_URI: 'mongodb://mongo:27017/?replicaSet=rs0',
        QDRANT_URL: 'http://qdrant:6333',
        REDIS_URL: 'redis://redis:6379',
      });
    },
  );

  it('runs MongoDB as a replica set and pins every image version', () => {
    expect(compose.services.mongo.command).toEqual(['--replSet', 'rs0', '--bind_ip_all']);
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.build) continue;
      expect(`${name}: ${service.image}`).toMatch(/:[\w.-]*\d[\w.-]*$/);
    }
  });

  it('mounts only files that exist and volumes it declares', () => {
    for (const service of Object.values(compose.services)) {
      for (const volume of service.volumes ?? []) {
        const [source] = volume.split(':');
        if (source.startsWith('.')) expect(fs.existsSync(path.join(DEPLOY, source))).toBe(true);
        else expect(Object.keys(compose.volumes)).toContain(source);
      }
    }
  });

  it('has an nginx site nginx accepts (nginx -t, service names pointed at loopback)', async () => {
    const nginx = ensureNginx();
    const port = await freePort();
    const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-nginx-check-'));
    try {
      const site = read('compose/nginx.conf')
        .replace(/server (api|game):3000;/g, 'server 127.0.0.1:3000;')
        .replace('listen 80;', `listen 127.0.0.1:${port};`);
      fs.writeFileSync(path.join(prefix, 'site.conf'), site);
      fs.writeFileSync(
        path.join(prefix, 'nginx.conf'),
        `pid ${prefix}/nginx.pid; error_log stderr; events {} http { include ${prefix}/site.conf; }`,
      );
      const check = spawnSync(nginx, ['-t', '-p', prefix, '-c', `${prefix}/nginx.conf`], {
        encoding: 'utf8',
      });
      expect(check.stderr).toContain('test is successful');
      expect(check.status).toBe(0);
    } finally {
      fs.rmSync(prefix, { recursive: true, force: true });
    }
  });
});

describe('deploy/Dockerfile', () => {
  const lines = read('Dockerfile')
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));
  const stages = lines.filter((line) => line.startsWith('FROM '));
  const final = lines.slice(lines.indexOf(stages[stages.length - 1]));

  it('builds in one stage and runs from a pinned slim image in another, on the Node that CI tests', () => {
    const pinned = /^FORGE_NODE_VERSION=(\d+\.\d+\.\d+)$/m.exec(
      fs.readFileSync(path.join(REPO_ROOT, 'scripts/node.sh'), 'utf8'),
    )?.[1];
    expect(pinned).toMatch(/^(22|24)\./);
    expect(stages).toEqual([
      `FROM node:${pinned}-bookworm-slim AS build`,
      `FROM node:${pinned}-bookworm-slim AS runtime`,
    ]);
  });

  it('runs node dist/main.js as the unprivileged node user, with a health check', () => {
    expect(final).toContain('USER node');
    expect(final.find((line) => line.startsWith('HEALTHCHECK'))).toContain('/healthz');
    expect(final[final.length - 1]).toBe('CMD ["node", "dist/main.js"]');
  });

  it('copies into the runtime only what the build produced and the files the server reads', () => {
    const copied = final.filter((line) => line.startsWith('COPY')).map((line) => line.split(' ').at(-2));
    expect(copied).toEqual([
      '/app/package.json',
      '/app/node_modules',
      '/app/dist',
      '/app/world',
      '/markdown/',
    ]);
    expect(fs.existsSync(path.join(REPO_ROOT, 'world'))).toBe(true);
  });
});

describe('deploy/prometheus/prometheus.yml', () => {
  it('passes promtool check config (with the alert rules it loads)', () => {
    const { status, output } = runPromtool(
      ensurePromtool(),
      ['check', 'config', 'prometheus.yml'],
      path.join(DEPLOY, 'prometheus'),
    );
    expect(output).toContain('SUCCESS: prometheus.yml is valid prometheus config file syntax');
    expect(status).toBe(0);
  }, 300_000);
});

describe('deploy/grafana', () => {
  const dashboard = JSON.parse(read('grafana/dashboards/forge-platform.json')) as {
    panels: {
      id: number;
      type: string;
      title: string;
      targets?: { expr: string; datasource: { uid: string } }[];
    }[];
  };
  const datasource = parse(read('grafana/provisioning/datasources/prometheus.yaml')) as {
    datasources: { uid: string }[];
  };

  it('has a section for search, embeddings, cache, memory, world, gateway and signer', () => {
    const rows = dashboard.panels.filter((panel) => panel.type === 'row').map((panel) => panel.title);
    expect(rows).toEqual(['Search', 'Embeddings', 'Cache', 'Memory', 'World', 'Gateway', 'Signer']);
  });

  it('queries the provisioned Prometheus from every panel, with unique panel ids', () => {
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    const uids = dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => target.datasource.uid),
    );
    expect(new Set(uids)).toEqual(new Set([datasource.datasources[0].uid]));
  });
});

describe('deploy/k8s/forge.yaml', () => {
  const documents = parseAllDocuments(read('k8s/forge.yaml')).map((document) => document.toJS());

  it('is valid YAML whose every object names its apiVersion, kind and name', () => {
    for (const document of documents) {
      expect(document).toMatchObject({
        apiVersion: expect.any(String),
        kind: expect.any(String),
        metadata: { name: expect.any(String) },
      });
    }
  });

  it('runs each role as non-root with /readyz and /healthz probes', () => {
    const deployments = documents.filter((document) => document.kind === 'Deployment');
    expect(deployments.map((deployment) => deployment.metadata.name)).toEqual([
      'forge-api',
      'forge-game',
      'forge-worker',
    ]);
    for (const deployment of deployments) {
      const pod = deployment.spec.template.spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.containers[0].readinessProbe.httpGet.path).toBe('/readyz');
      expect(pod.containers[0].livenessProbe.httpGet.path).toBe('/healthz');
      expect(deployment.spec.selector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
    }
  });
});
