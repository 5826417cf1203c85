import fs from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');
const services = path.join(root, 'services');

/** The files every service area has (docs/ARCHITECTURE.md, "Service folders"). */
const AREA_FILES = ['router.ts', 'schemas.ts', 'presenters.ts', 'errors.ts', 'index.ts', 'README.md'];
/** What a sub-area (a subfolder with its own routes) has beside its router. */
const SUB_AREA_FILES = ['router.ts', 'schemas.ts'];
/**
 * Areas that serve no routes yet, with the reason. An entry goes once the area has the shape (the economy's
 * routes arrive with its accounts and ledger).
 */
const NOT_YET_AREAS: Record<string, string> = {};

/** Areas that serve only static assets (no JSON routes), so they have no schemas, presenters or error codes. */
const ASSET_AREAS: Record<string, string> = {
  web: "serves the built web client's files at /",
};
const ASSET_AREA_FILES = ['router.ts', 'index.ts', 'README.md'];

const folders = (dir: string) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

describe('service folders', () => {
  const areas = folders(services).filter((area) => !(area in NOT_YET_AREAS));

  it('finds the areas', () => {
    expect(areas).toEqual(expect.arrayContaining(['auth', 'brain', 'health', 'mud', 'signer']));
  });

  it.each(areas)('services/%s has router, schemas, presenters, errors, index and README', (area) => {
    const expected = area in ASSET_AREAS ? ASSET_AREA_FILES : AREA_FILES;
    const missing = expected.filter((file) => !fs.existsSync(path.join(services, area, file)));
    expect(missing).toEqual([]);
  });

  it('every sub-area with routes has its router named router.ts beside its schemas', () => {
    const missing: string[] = [];
    for (const area of areas) {
      for (const sub of folders(path.join(services, area))) {
        const dir = path.join(services, area, sub);
        const hasRoutes = fs.readdirSync(dir).some((file) => /^(router|routes|.*Routes)\.ts$/.test(file));
        if (!hasRoutes) continue;
        for (const file of SUB_AREA_FILES) {
          if (!fs.existsSync(path.join(dir, file))) missing.push(`services/${area}/${sub}/${file}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
