import { buildWeb } from './.bw.mjs';
const built = await buildWeb();
const page = process.argv[2] ?? 'share';
const e = built.manifest.pages[page];
const text = [e.script, ...e.preload].map((n) => built.files.get(n).body.toString()).join('\n');
const counts = new Map();
for (const m of text.matchAll(/"((?:[^"\\]|\\.){6,})"/g)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
for (const [s, c] of [...counts].filter(([, c]) => c > 1).sort((a, b) => b[1] * b[0].length - a[1] * a[0].length).slice(0, 40)) console.log(c, JSON.stringify(s).slice(0, 100));
