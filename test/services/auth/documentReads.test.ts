import { Types } from 'mongoose';
import { sessionModel, type SessionRecord } from '../../../models/Session';
import { findOneDocument } from '../../../services/auth/documentReads';
import { startTestPlatform, type TestPlatform } from '../../helpers/platform';

/** Point reads through one `find` command, against the platform's MongoDB (the embedded engine). */
describe('findOneDocument', () => {
  let server: TestPlatform;

  beforeAll(async () => {
    server = await startTestPlatform({ ROLES: 'api' });
  });
  afterAll(() => server.stop());

  function buildSession(overrides: Partial<SessionRecord> = {}): SessionRecord {
    return {
      _id: new Types.ObjectId(),
      tokenHash: new Types.ObjectId().toHexString(),
      userId: new Types.ObjectId(),
      method: 'wallet',
      address: '0x00000000000000000000000000000000000000aa',
      expiresAt: new Date('2030-01-01T00:00:00Z'),
      revokedAt: null,
      createdAt: new Date('2025-01-01T00:00:00Z'),
      ...overrides,
    };
  }

  it('returns the same document, with the same BSON types, as the driver findOne', async () => {
    const sessions = sessionModel(server.platform.stores.mongo!);
    const stored = buildSession();
    await sessions.collection.insertOne(buildSession());
    await sessions.collection.insertOne(stored);
    const filter = {
      tokenHash: stored.tokenHash,
      revokedAt: null,
      expiresAt: { $gt: new Date('2029-01-01') },
    };
    const read = await findOneDocument<SessionRecord>(sessions, filter);
    expect(read).toEqual(await sessions.collection.findOne(filter));
    expect(read).toEqual(stored);
    expect(read?.userId).toBeInstanceOf(Types.ObjectId);
    expect(read?.expiresAt).toBeInstanceOf(Date);
  });

  it('returns null when nothing matches, and one document when several do', async () => {
    const sessions = sessionModel(server.platform.stores.mongo!);
    expect(await findOneDocument(sessions, { tokenHash: 'no such hash' })).toBeNull();
    const userId = new Types.ObjectId();
    await sessions.collection.insertMany([buildSession({ userId }), buildSession({ userId })]);
    const read = await findOneDocument<SessionRecord>(sessions, { userId });
    expect(read?.userId).toEqual(userId);
  });
});
