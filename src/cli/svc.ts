#!/usr/bin/env node
// `svc`: the operator's command line, a client of the admin API (docs/admin-api.md). See docs/cli.md.
import { main } from './main.js';

const code = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, env: process.env });
process.exitCode = code;
