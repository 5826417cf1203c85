import { getAddress } from 'ethers';
import { hasRole } from '../../platform/config';
import type { PlatformContext, ProductParts } from '../../platform/platform';
import { secretsEqual } from '../../platform/secrets';
import type { AuthService } from '../auth';
import { DeliveryHub } from './deliveryHub';
import { NotificationChannel, type ChannelAuthenticate } from './notificationChannel';
import { NotificationService, type Notify } from './notificationService';
import { registerNotificationRoutes } from './router';

export { NotificationService, type Notify, type PublishInput } from './notificationService';
export { NOTIFICATION_KINDS, type NotificationKind } from './notificationKinds';
export { notifyingMoneyEvents } from './moneyNotices';
export type { NotificationView } from './schemas';

/** The notification area's parts, the service and the `notify` port other areas publish through. */
export interface NotificationsArea extends ProductParts {
  service: NotificationService;
  notify: Notify;
  /** Live delivery (benches measure it alone). */
  hub: DeliveryHub;
}

/**
 * The notification channel (SPEC 6): one internal service every area publishes through (`notify(userId, kind,
 * payload)`), notifications stored in MongoDB, `GET /notifications` and `POST /notifications/read`, and live
 * delivery over `WS /notifications/ws` (api role; across processes through Redis when `REDIS_URL` is set). It
 * also raises the identity service's security alert: a new wallet linked to an existing account.
 */
export async function createNotificationsArea(
  context: PlatformContext,
  auth: Pick<AuthService, 'guard' | 'sessions' | 'accounts'>,
): Promise<NotificationsArea> {
  const { config, stores, clock } = context;
  if (!stores.mongo) throw new Error('Notifications need MongoDB');
  const logger = context.logger.child({ component: 'notifications' });
  const hub = await DeliveryHub.open(logger, stores.redis);
  const service = new NotificationService(
    stores.mongo,
    hub,
    clock,
    logger,
    config.NOTIFICATIONS_NOISY_PER_HOUR,
  );
  const stopAlerts = auth.accounts.onIdentityLinked((linked) => {
    if (linked.kind === 'wallet') {
      service.notify(linked.userId.toHexString(), 'security.new_wallet', {
        address: getAddress(linked.subject),
      });
    }
  });
  const authenticate: ChannelAuthenticate = async (token) => {
    if (config.BRAIN_SERVICE_TOKEN && secretsEqual(token, config.BRAIN_SERVICE_TOKEN)) return 'service';
    const user = await auth.sessions.authenticate(token);
    return user ? { userId: user.userId.toHexString() } : null;
  };
  const api = hasRole(config, 'api');
  return {
    service,
    hub,
    notify: service.notify,
    services: api ? [(routes) => registerNotificationRoutes(routes, service, auth.guard)] : [],
    upgrades: api ? [new NotificationChannel({ service, hub, authenticate, logger })] : [],
    close: async () => {
      stopAlerts();
      await hub.close();
    },
  };
}
