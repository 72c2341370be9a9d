// The read API's answers are declared twice: as types (src/core/answers.ts), which the read modules
// return and the dashboard and the CLI read, and as JSON Schemas (src/http/v1/schemas.ts), which
// Fastify serializes them with. The schemas say `additionalProperties: false`, so a field the type
// has and the schema lacks is silently dropped from the answer, and a `null` the schema does not
// allow is turned into 0 or "". This test reads the types with the compiler and walks both sides
// together, failing on each field, required-ness or nullability that one side has and not the other.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { responses } from '../../src/http/v1/schemas.js';
import type {
  BreakdownAnswer,
  FunnelAnswer,
  FunnelSummary,
  GoalsAnswer,
  JourneysAnswer,
  Realtime,
  StatsAnswer,
  TimeseriesAnswer,
} from '../../src/core/answers.js';
import type { AnnotationsAnswer, SegmentView } from '../../src/core/segments.js';

/**
 * The type of each response schema's answer, read by the compiler below. A new route's schema must
 * be added here (tsc fails otherwise). `sites` is left out: its answer is no vocabulary type, the
 * route copies the schema's fields one by one out of the Site entity.
 */
export type AnswerOf = {
  [Operation in Exclude<keyof typeof responses, 'sites'>]: {
    stats: StatsAnswer;
    timeseries: TimeseriesAnswer;
    breakdown: BreakdownAnswer;
    journeys: JourneysAnswer;
    realtime: Realtime;
    goals: GoalsAnswer;
    funnels: { funnels: FunnelSummary[] };
    funnel: FunnelAnswer;
    segments: { segments: SegmentView[] };
    annotations: AnnotationsAnswer;
  }[Operation];
};

/** The part of a JSON Schema this test reads. */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
}

// One program over this file: its imports bring in answers.ts, and AnswerOf names each answer type.
const thisFile = fileURLToPath(import.meta.url);
const program = ts.createProgram([thisFile], { strict: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, noEmit: true });
const checker = program.getTypeChecker();

function answerTypes(): Map<string, { name: string; type: ts.Type }> {
  const source = program.getSourceFile(thisFile)!;
  const alias = source.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === 'AnswerOf')!;
  const answerOf = checker.getTypeAtLocation(alias.name);
  return new Map(
    checker.getPropertiesOfType(answerOf).map((operation) => {
      const type = checker.getTypeOfSymbol(operation);
      // Paths start with the interface's name, or the operation's for an answer written inline.
      const name = type.symbol?.name === '__type' ? `${operation.name} answer` : checker.typeToString(type);
      return [operation.name, { name, type }];
    }),
  );
}

const isNullable = (type: ts.Type): boolean => type.isUnion() && type.types.some((t) => (t.flags & ts.TypeFlags.Null) !== 0);
const schemaIsNullable = (schema: JsonSchema): boolean => Array.isArray(schema.type) && schema.type.includes('null');
const schemaTypes = (schema: JsonSchema): string[] => (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []);

/** Every difference between a type and its schema, each as `path: what differs`. */
function differences(type: ts.Type, schema: JsonSchema, path: string): string[] {
  const found: string[] = [];
  if (isNullable(type) !== schemaIsNullable(schema)) {
    found.push(`${path}: ${isNullable(type) ? 'nullable in the type, not in the schema' : 'nullable in the schema, not in the type'}`);
  }
  // `undefined` is an optional property's (its required-ness is checked by its parent), `null` is checked above.
  const value = checker.getNonNullableType(type);

  if (checker.isArrayType(value)) {
    if (!schemaTypes(schema).includes('array') || !schema.items) return [...found, `${path}: an array in the type, not in the schema`];
    return [...found, ...differences(checker.getTypeArguments(value as ts.TypeReference)[0]!, schema.items, `${path}[]`)];
  }
  if (!(value.flags & ts.TypeFlags.Object)) {
    // A primitive, a union of literals or an enum: its values are not this test's concern.
    if (schema.properties || schema.items) found.push(`${path}: an object or array in the schema, not in the type`);
    return found;
  }
  if (!schemaTypes(schema).includes('object')) return [...found, `${path}: an object in the type, not in the schema`];

  // A record of any string key (GoalProps): the schema's additionalProperties says its values.
  const keyed = checker.getIndexInfosOfType(value).find((info) => info.keyType.flags & ts.TypeFlags.String);
  const fields = checker.getPropertiesOfType(value);
  if (keyed && fields.length === 0) {
    if (typeof schema.additionalProperties !== 'object') return [...found, `${path}: a record of any key in the type, not in the schema`];
    return [...found, ...differences(keyed.type, schema.additionalProperties, `${path}{}`)];
  }

  // Fields, named in the type (a Record<Metric, Kpi> has one per metric) and in the schema's properties.
  const schemaFields = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  for (const field of fields) {
    const fieldPath = `${path}.${field.name}`;
    const fieldSchema = schemaFields[field.name];
    if (!fieldSchema) {
      found.push(`${fieldPath}: in the type, not in the schema`);
      continue;
    }
    const optional = (field.flags & ts.SymbolFlags.Optional) !== 0;
    if (optional === required.has(field.name)) {
      found.push(`${fieldPath}: ${optional ? 'optional in the type, required in the schema' : 'required in the type, optional in the schema'}`);
    }
    found.push(...differences(checker.getTypeOfSymbol(field), fieldSchema, fieldPath));
  }
  const typeFieldNames = new Set(fields.map((field) => field.name));
  for (const name of Object.keys(schemaFields)) {
    if (!typeFieldNames.has(name)) found.push(`${path}.${name}: in the schema, not in the type`);
  }
  for (const name of required) {
    if (!(name in schemaFields)) found.push(`${path}.${name}: required by the schema, not among its properties`);
  }
  return found;
}

test('the compiler sees the answers file without errors', () => {
  const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(thisFile));
  assert.deepEqual(errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')), []);
});

test('each response schema has the fields, required-ness and nulls of its answer type', () => {
  const answers = answerTypes();
  assert.deepEqual([...answers.keys()].sort(), Object.keys(responses).filter((operation) => operation !== 'sites').sort());
  const found = [...answers].flatMap(([operation, answer]) =>
    differences(answer.type, responses[operation as keyof typeof responses] as JsonSchema, answer.name),
  );
  assert.deepEqual(found, [], `Answer types and response schemas differ (src/core/answers.ts, src/http/v1/schemas.ts):\n${found.join('\n')}`);
});

test('the walk finds a field on one side only', () => {
  // The check above passing would prove nothing if the walk saw no fields: this is its own proof.
  const [, stats] = [...answerTypes()].find(([operation]) => operation === 'stats')!;
  const schema = responses.stats as JsonSchema;
  const trimmed: JsonSchema = { ...schema, properties: { period: schema.properties!.period!, extra: { type: 'integer' } }, required: ['period', 'extra'] };
  assert.deepEqual(differences(stats.type, trimmed, 'StatsAnswer'), [
    'StatsAnswer.stats: in the type, not in the schema',
    'StatsAnswer.extra: in the schema, not in the type',
  ]);
});
