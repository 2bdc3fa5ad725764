/**
 * The import graph of `src/`, read with TypeScript's own parser: every static import, re-export
 * and dynamic `import()` between the project's files, each marked type-only when nothing of it
 * exists at run time (`import type`, or only `type` specifiers). What the layer test
 * (test/unit/import-layers.test.ts) checks the house against.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** Both paths relative to the repository root, with `/`. */
  readonly from: string;
  readonly to: string;
  readonly typeOnly: boolean;
}

const SOURCE = /\.(ts|tsx)$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveSpecifier(fromFile: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(fromFile), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './x'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

/** Every import between files under `roots` (paths relative to `root`). */
export function importGraph(root: string, roots: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  const rel = (path: string) => relative(root, path).split('\\').join('/');
  for (const file of roots.flatMap((r) => sourceFiles(join(root, r)))) {
    const text = readFileSync(file, 'utf8');
    const source = ts.createSourceFile(
      file,
      text,
      ts.ScriptTarget.Latest,
      false,
      file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
    );
    const add = (specifier: ts.Expression | undefined, typeOnly: boolean) => {
      if (!specifier || !ts.isStringLiteral(specifier)) return;
      const target = resolveSpecifier(file, specifier.text);
      if (target) edges.push({ from: rel(file), to: rel(target), typeOnly });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node));
      else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyExport(node));
      else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
      else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return edges;
}

/**
 * The import circles among run-time imports: each strongly connected set of more than one
 * file (Tarjan), files sorted, circles sorted by their first file.
 */
export function runtimeCircles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (e.typeOnly || e.from === e.to) continue;
    next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    if (!next.has(e.to)) next.set(e.to, []);
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const members: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        members.push(w);
      } while (w !== v);
      if (members.length > 1) circles.push(members.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) connect(v);
  return circles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
