import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** The repository root. */
export const root = path.join(__dirname, '../..');

/** Folders that are not the product's source: dependencies, output, data, tests and benches. */
const NOT_SOURCE = new Set(['node_modules', 'dist', 'test', 'bench', 'data', 'coverage']);

/** Every TypeScript source file (`.d.ts` aside), as paths relative to the root with `/` separators. */
export function sourceFiles(dir = root): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCE.has(entry.name) || entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative(full)] : [];
  });
}

const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');

/** One static `import … from` or `export … from` of a relative module, resolved to the file it loads. */
export interface SourceImport {
  from: string;
  to: string;
  /** `import type`, or only `type` names: erased at compile time, so no load order and no circle. */
  typeOnly: boolean;
}

/** The relative specifier's file: `x.ts`, `x/index.ts`, or nothing (a JSON file, a package). */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = path.resolve(root, path.dirname(from), specifier);
  const found = [`${base}.ts`, path.join(base, 'index.ts')].find((file) => fs.existsSync(file));
  return found && relative(found);
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return !!clause && ts.isNamedExports(clause) && clause.elements.every((element) => element.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false; // `import './x'` runs the module
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/** The static relative imports and re-exports of `file`, read with the TypeScript parser (comments never count). */
export function importsOf(file: string): SourceImport[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  return source.statements.flatMap((statement) => {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) return [];
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return [];
    const to = resolveSpecifier(file, specifier.text);
    return to ? [{ from: file, to, typeOnly: isTypeOnly(statement) }] : [];
  });
}

/** The service area a file belongs to (`services/<area>/…`), if any. */
export function serviceAreaOf(file: string): string | undefined {
  return /^services\/([^/]+)\//.exec(file)?.[1];
}

/** The strongly connected groups of more than one file (Tarjan), each sorted: the import circles. */
export function circlesOf(edges: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) circles.push(group.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return circles;
}
