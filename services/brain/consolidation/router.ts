import type { ApiRoutes } from '../../../platform/http/routes';
import type { AuthGuard } from '../../../access/authGuard';
import { operatorOrService } from '../security/operatorOrService';
import type { Consolidation } from './consolidation';
import { presentRun } from './presenters';
import { ConsolidationRunSchema, RunListQuerySchema, RunListSchema } from './schemas';

/** What the consolidation routes need. */
export interface ConsolidationRouteDependencies {
  consolidation: Consolidation;
  guard: Pick<AuthGuard, 'requireRole'>;
}

/** SPEC 1 consolidation: its runs (operators, admins, the service token) and a run started now. */
export function registerConsolidationRoutes(routes: ApiRoutes, deps: ConsolidationRouteDependencies): void {
  const { consolidation } = deps;
  const common = {
    tags: ['brain-consolidation'],
    security: 'admin' as const,
    middleware: operatorOrService(deps.guard),
  };

  routes.add({
    ...common,
    method: 'get',
    path: '/brain/consolidation/runs',
    summary: 'Consolidation runs, newest first, with counts per step and durations',
    request: { query: RunListQuerySchema },
    responses: { 200: { description: 'Runs', schema: RunListSchema } },
    handler: async ({ query }) => {
      const runs = await consolidation.list(
        query.limit ?? 20,
        query.before ? new Date(query.before) : undefined,
      );
      return { status: 200, body: { runs: runs.map(presentRun) } };
    },
  });

  routes.add({
    ...common,
    method: 'post',
    path: '/brain/consolidation/run',
    summary: 'Start a consolidation run now (in the background; poll the runs)',
    responses: { 202: { description: 'The run, status running', schema: ConsolidationRunSchema } },
    handler: async () => ({ status: 202, body: presentRun(await consolidation.start()) }),
  });
}
