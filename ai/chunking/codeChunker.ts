import ts from 'typescript';
import type { Section } from './sectionSplitter';

/** Extensions the TypeScript parser chunks by symbol. */
export const CODE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'] as const;

const TEST_BLOCK_CALLEES = new Set(['describe', 'it', 'test', 'suite']);

function scriptKind(fileName: string): ts.ScriptKind {
  if (/\.tsx$/.test(fileName)) return ts.ScriptKind.TSX;
  if (/\.jsx$/.test(fileName)) return ts.ScriptKind.JSX;
  if (/\.[mc]?js$/.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** `describe('cache', ...)` → `describe cache`; also `it.each(...)('...')`-free forms like `test.skip`. */
function testBlockName(node: ts.Node, sf: ts.SourceFile): string | undefined {
  if (!ts.isExpressionStatement(node) || !ts.isCallExpression(node.expression)) return undefined;
  const call = node.expression;
  const callee = ts.isPropertyAccessExpression(call.expression)
    ? call.expression.expression
    : call.expression;
  if (!ts.isIdentifier(callee) || !TEST_BLOCK_CALLEES.has(callee.text)) return undefined;
  const first = call.arguments[0];
  const title = first && ts.isStringLiteralLike(first) ? first.text : first?.getText(sf);
  return `${callee.text} ${title ?? ''}`.trim();
}

/** Names a top-level statement defines, or [] for imports, re-exports and plain expressions. */
function symbolNames(node: ts.Statement, sf: ts.SourceFile): string[] {
  if (
    ts.isFunctionDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isEnumDeclaration(node)
  ) {
    return [node.name?.text ?? 'default'];
  }
  if (ts.isModuleDeclaration(node)) return [node.name.text];
  if (ts.isVariableStatement(node)) return node.declarationList.declarations.map((d) => d.name.getText(sf));
  if (ts.isExportAssignment(node)) return ['default'];
  const block = testBlockName(node, sf);
  return block ? [block] : [];
}

/** Children a too-large symbol is split into: class members, or the statements of a test block's callback. */
function childNodes(node: ts.Statement): readonly ts.Node[] {
  if (ts.isClassDeclaration(node)) return node.members;
  if (ts.isExpressionStatement(node) && ts.isCallExpression(node.expression)) {
    const callback = node.expression.arguments.find(
      (a) => ts.isArrowFunction(a) || ts.isFunctionExpression(a),
    );
    const body =
      callback && (ts.isArrowFunction(callback) || ts.isFunctionExpression(callback))
        ? callback.body
        : undefined;
    if (body && ts.isBlock(body)) return body.statements;
  }
  return [];
}

function memberName(parent: string, node: ts.Node, sf: ts.SourceFile): string {
  const named = node as { name?: ts.Node };
  if (named.name) return `${parent}.${named.name.getText(sf)}`;
  if (ts.isConstructorDeclaration(node)) return `${parent}.constructor`;
  const block = ts.isStatement(node) ? testBlockName(node, sf) : undefined;
  return block ? `${parent} › ${block}` : parent;
}

/** The node's text from its first comment or token (leading blank lines dropped) and its 1-based line. */
function sliceOf(
  node: ts.Node,
  sf: ts.SourceFile,
  from = node.getFullStart(),
): { text: string; startLine: number } {
  const raw = sf.text.slice(from, node.getEnd());
  const start = from + (raw.length - raw.trimStart().length);
  return {
    text: sf.text.slice(start, node.getEnd()),
    startLine: sf.getLineAndCharacterOfPosition(start).line + 1,
  };
}

/**
 * Splits TS/JS source by its top-level statements using the TypeScript parser (error tolerant: broken
 * code still parses). Each function, class, interface, type, enum, namespace, variable statement and
 * top-level `describe`/`it`/`test` block is a section named by its symbols, with its leading comments and
 * JSDoc. Runs of other statements (imports, re-exports, calls) form unnamed sections. A symbol whose
 * section does not `fit` is cut into its members (class members, test-block statements), each
 * named `Parent.member`; its header up to the first member becomes a section of its own.
 */
export function codeSections(
  text: string,
  fileName: string,
  fits: (sectionText: string) => boolean = () => true,
): Section[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, scriptKind(fileName));
  const sections: Section[] = [];
  let loose: ts.Statement[] = [];

  const flushLoose = () => {
    if (loose.length === 0) return;
    const first = sliceOf(loose[0], sf);
    const end = loose[loose.length - 1].getEnd();
    const startPos = sf.getPositionOfLineAndCharacter(first.startLine - 1, 0);
    sections.push({
      text: sf.text.slice(startPos, end).trimStart(),
      startLine: first.startLine,
      headingPath: [],
      symbols: [],
    });
    loose = [];
  };

  for (const statement of sf.statements) {
    const names = symbolNames(statement, sf);
    if (names.length === 0) {
      loose.push(statement);
      continue;
    }
    flushLoose();
    const whole = sliceOf(statement, sf);
    const children = childNodes(statement);
    if (children.length === 0 || fits(whole.text)) {
      sections.push({ ...whole, headingPath: [], symbols: names });
      continue;
    }
    const headerEnd = children[0].getFullStart();
    const header = sf.text.slice(sf.getPositionOfLineAndCharacter(whole.startLine - 1, 0), headerEnd).trim();
    if (header) sections.push({ text: header, startLine: whole.startLine, headingPath: [], symbols: names });
    for (const child of children) {
      sections.push({ ...sliceOf(child, sf), headingPath: [], symbols: [memberName(names[0], child, sf)] });
    }
  }
  flushLoose();
  return sections.filter((s) => s.text.trim() !== '');
}
