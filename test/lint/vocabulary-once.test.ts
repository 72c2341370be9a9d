// Every word of the vocabulary is declared once: the dashboard (web/), the CLI and the rest of src/
// import the word from the module that declares it (src/core/vocabulary.ts, metric-registry.ts,
// answers.ts, answer-headers.ts, management.ts) instead of declaring their own copy, which would drift from the
// server's. A copy is found by its name, or by its shape (an object type with the same fields).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const VOCABULARY = ['src/core/vocabulary.ts', 'src/core/metric-registry.ts', 'src/core/answers.ts', 'src/core/answer-headers.ts', 'src/core/management.ts'];

/** Fewer fields than this make a shape too common to call a copy (`{ id, name }`, `{ from, to }`). */
const SHAPE_MIN_FIELDS = 3;

interface Declaration {
  file: string;
  name: string;
  /** The object type's own field names, sorted and joined; undefined for other declarations. */
  shape: string | undefined;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function shapeOf(members: ts.NodeArray<ts.TypeElement>): string | undefined {
  const names = members.flatMap((member) => (ts.isPropertySignature(member) && member.name && ts.isIdentifier(member.name) ? [member.name.text] : []));
  return names.length >= SHAPE_MIN_FIELDS ? names.sort().join(',') : undefined;
}

/** The top-level types and constants a file declares, with the shape of each object type. */
function declarations(file: string): Declaration[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: Declaration[] = [];
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement)) {
      found.push({ file, name: statement.name.text, shape: statement.heritageClauses ? undefined : shapeOf(statement.members) });
    } else if (ts.isTypeAliasDeclaration(statement)) {
      found.push({ file, name: statement.name.text, shape: ts.isTypeLiteralNode(statement.type) ? shapeOf(statement.type.members) : undefined });
    } else if (ts.isVariableStatement(statement)) {
      for (const variable of statement.declarationList.declarations) {
        if (ts.isIdentifier(variable.name)) found.push({ file, name: variable.name.text, shape: undefined });
      }
    }
  }
  return found;
}

const words = VOCABULARY.flatMap(declarations);
const elsewhere = [...files('src'), ...files('web')].filter((file) => !VOCABULARY.includes(file)).flatMap(declarations);

test('the vocabulary modules declare each word once between them', () => {
  const names = words.map((word) => word.name);
  assert.deepEqual(
    names.filter((name, i) => names.indexOf(name) !== i),
    [],
  );
});

test('no file of src/ or web/ declares a word of the vocabulary again under its name', () => {
  const byName = new Map(words.map((word) => [word.name, word.file]));
  const copies = elsewhere.filter((declaration) => byName.has(declaration.name)).map((d) => `${d.file}: ${d.name} (declared in ${byName.get(d.name)})`);
  assert.deepEqual(copies, []);
});

test('no file of src/ or web/ declares an object type of the same fields as one of the vocabulary', () => {
  const byShape = new Map(words.flatMap((word) => (word.shape ? [[word.shape, word] as const] : [])));
  const copies = elsewhere
    .filter((declaration) => declaration.shape !== undefined && byShape.has(declaration.shape))
    .map((d) => `${d.file}: ${d.name} (the fields of ${byShape.get(d.shape!)!.name})`);
  assert.deepEqual(copies, []);
});
