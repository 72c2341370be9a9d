// A module hook for the read path's stage check (test/stats/read-path-stages.test.ts): each function
// that a module of the read path exports is wrapped so that a call records the module and the
// function in `globalThis.__stageTrace` (when a test has set it), in the order of the calls.
const TRACED = /\/src\/(core\/query|stats\/(inputs|first-data-day|imported-days|planner|windows|funnel|sql\/[^/]+|read\/[^/]+))\.ts$/;

const WRAP = `const __traced = (module, name, f) =>
  typeof f !== 'function' || /^class\\b/.test(Function.prototype.toString.call(f))
    ? f
    : Object.defineProperty(function (...args) { globalThis.__stageTrace?.push({ module, name }); return f.apply(this, args); }, 'name', { value: f.name });
`;

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  const module = TRACED.exec(new URL(url).pathname)?.[1];
  if (!module || result.format !== 'module') return result;
  // tsx writes a module's exports as one list at its end: `export{a,b as c}`.
  const source = String(result.source).replace(/export\s*\{([^}]*)\};?/g, (_, list) => {
    const names = list.split(',').map((part) => part.trim()).filter(Boolean).map((part) => part.split(/\s+as\s+/));
    const wrapped = names.map(([local], i) => `const __t${i} = __traced(${JSON.stringify(module)}, ${JSON.stringify(local)}, ${local});`).join('\n');
    return `${wrapped}\nexport { ${names.map(([local, exported], i) => `__t${i} as ${exported ?? local}`).join(', ')} };`;
  });
  return { ...result, source: WRAP + source };
}
