import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { root, sourceFiles } from './sourceImports';

/** The layers whose thrown codes must be in a catalogue: the services, the guards, the retrieval machinery, the world. */
const CHECKED = /^(services|access|ai|rooms)\//;
/** A stable error code: upper-case words joined by underscores (`LISTING_SOLD`). */
const CODE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;
/** A catalogue: `<AREA>_ERRORS` (the errorFactory shape), or a list or map of codes named `…_CODES` / `…_OUTCOMES`. */
const CATALOGUE = /_(ERRORS|CODES|OUTCOMES)$/;

const parse = (file: string) =>
  ts.createSourceFile(file, fs.readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);

const unwrap = (node: ts.Expression): ts.Expression =>
  ts.isAsExpression(node) || ts.isSatisfiesExpression(node) ? unwrap(node.expression) : node;

/** Every code a catalogue lists (object keys and string values, or array entries). */
function cataloguedCodes(files: string[]): Set<string> {
  const codes = new Set<string>();
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && CATALOGUE.test(node.name.text)) {
      const value = node.initializer && unwrap(node.initializer);
      if (value && ts.isObjectLiteralExpression(value)) {
        for (const property of value.properties) {
          if (property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)))
            codes.add(property.name.text);
          if (ts.isPropertyAssignment(property) && ts.isStringLiteral(property.initializer))
            codes.add(property.initializer.text);
        }
      }
      if (value && ts.isArrayLiteralExpression(value))
        for (const entry of value.elements) if (ts.isStringLiteral(entry)) codes.add(entry.text);
    }
    ts.forEachChild(node, visit);
  };
  for (const file of files) visit(parse(file));
  return codes;
}

/** The platform's own codes: the defaults of the error classes every layer may throw (`platform/errors.ts`). */
function platformCodes(): Set<string> {
  const codes = new Set<string>();
  const visit = (node: ts.Node) => {
    if (
      ts.isParameter(node) &&
      node.initializer &&
      ts.isStringLiteral(node.initializer) &&
      CODE.test(node.initializer.text)
    )
      codes.add(node.initializer.text);
    if (ts.isStringLiteral(node) && CODE.test(node.text) && ts.isCallOrNewExpression(node.parent))
      codes.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(parse('platform/errors.ts'));
  return codes;
}

/** The class a `super(…)` call belongs to extends an error class. */
function inErrorClass(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node; at; at = at.parent) {
    if (ts.isClassDeclaration(at) || ts.isClassExpression(at))
      return !!at.heritageClauses?.some((clause) =>
        clause.types.some((type) => /Error$/.test(type.expression.getText())),
      );
  }
  return false;
}

/**
 * Codes handed to an error as it is made: a literal code argument of `new XxxError(…)`, of a catalogue's factory
 * (`marketplaceError('LISTING_SOLD', …)`) or of an error class's `super(…)`. `isError(e, 'CALL_EXCEPTION')` reads
 * a library's code and is not one of ours.
 */
function thrownCodes(files: string[]): { code: string; file: string }[] {
  const found: { code: string; file: string }[] = [];
  for (const file of files) {
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
        const callee = node.expression;
        const name = ts.isIdentifier(callee)
          ? callee.text
          : ts.isPropertyAccessExpression(callee)
            ? callee.name.text
            : callee.kind === ts.SyntaxKind.SuperKeyword && inErrorClass(node)
              ? 'super'
              : '';
        if ((/Error$/i.test(name) && name !== 'isError') || name === 'super') {
          for (const argument of node.arguments ?? [])
            if (ts.isStringLiteral(argument) && CODE.test(argument.text))
              found.push({ code: argument.text, file });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(parse(file));
  }
  return found;
}

describe('error catalogues (docs/ARCHITECTURE.md, "Errors")', () => {
  const files = sourceFiles();
  const checked = files.filter((file) => CHECKED.test(file));

  it('finds the catalogues and the codes thrown', () => {
    const catalogued = cataloguedCodes(files);
    expect(catalogued).toEqual(expect.objectContaining({ size: expect.any(Number) }));
    expect([...catalogued]).toEqual(
      expect.arrayContaining(['LISTING_SOLD', 'SIGNER_FORGE_COOLDOWN', 'UNAUTHENTICATED']),
    );
    expect(thrownCodes(checked).length).toBeGreaterThan(100);
  });

  it('every errors.ts under services/ builds its errors with errorFactory', () => {
    const odd = files.filter(
      (file) =>
        /^services\/.*\/errors\.ts$/.test(file) &&
        !/errorFactory\(/.test(fs.readFileSync(path.join(root, file), 'utf8')),
    );
    expect(odd).toEqual([]);
  });

  it('every code thrown by services/, access/, ai/ and rooms/ is in a catalogue or is a platform code', () => {
    const known = new Set([...cataloguedCodes(files), ...platformCodes()]);
    const strays = thrownCodes(checked).filter(({ code }) => !known.has(code));
    expect(strays).toEqual([]);
  });
});
