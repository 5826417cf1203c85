import request from 'supertest';
import { startBrainPlatform } from './brainPlatform';

describe('brain area by process role', () => {
  it('is not opened in a process without the api role', async () => {
    const worker = await startBrainPlatform({ ROLES: 'worker' });
    try {
      const res = await request(worker.url).post('/brain/search').send({ query: 'breaker' }).expect(404);

      expect(res.body.code).toBe('ROUTE_NOT_FOUND');
      const { collections } = await worker.platform.stores.qdrant.getCollections();
      expect(collections.map((c) => c.name).filter((name) => name.startsWith('brain_chunks'))).toEqual([]);
    } finally {
      await worker.stop();
    }
  });
});
