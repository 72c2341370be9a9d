// What bench/dashboard and bench/read-turns share to run another checkout of the service in the
// bench's process: its own config loader and server, imported from its folder.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { loadConfig as LoadConfig } from '../src/config.js';
import type { startService as StartService } from '../src/server.js';

/** A checkout of the service: its server (and the dashboard it serves). */
export interface Variant {
  name: string;
  loadConfig: typeof LoadConfig;
  startService: typeof StartService;
}

export async function variantAt(name: string, root: string): Promise<Variant> {
  const { loadConfig } = (await import(pathToFileURL(join(root, 'src/config.ts')).href)) as { loadConfig: typeof LoadConfig };
  const { startService } = (await import(pathToFileURL(join(root, 'src/server.ts')).href)) as { startService: typeof StartService };
  return { name, loadConfig, startService };
}
