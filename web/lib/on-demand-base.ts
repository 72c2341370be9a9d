// Imported first by every module a page loads on demand (../components/on-demand.tsx), for the
// files the pages load. esbuild splits shared code into one chunk per set of entry points that reach
// it, and a module loaded on demand is such an entry point: if it reached part of a chunk every page
// of its kind shares and not the rest (the page frame's modules, which a part inside the frame never
// imports), that chunk would split in two and every such page would load one file more. These are
// the modules of those chunks that such a part does not reach by itself; the pages' byte budgets
// (scripts/build-web.mjs) fail a build that splits a chunk again.
import './layout.js';
import './mount.js';
import './text/names.js';
