import type { PlatformContext, ProductParts } from './platform/platform';
import { createAuthService } from './services/auth';

/**
 * The composition root of the product: builds each service area's routes, the world's room types and the
 * background jobs from the opened stores. New capabilities are added here.
 */
export function productParts(context: PlatformContext): ProductParts {
  const auth = createAuthService(context);
  return {
    services: [auth.register],
    rooms: [],
    jobs: [],
    adminGuard: auth.adminGuard,
    close: () => auth.close(),
  };
}
