// The operator token of /admin/v1 and /metrics: SVC_ADMIN_TOKEN, else generated once and kept in the
// data dir.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from './config.js';
import { ADMIN_TOKEN_FILE, writeWhole } from './core/data-files.js';

const MIN_ADMIN_TOKEN = 16;

export interface AdminToken {
  token: string;
  /** The file this start generated the token into (to show it once), else undefined. */
  generatedFile: string | undefined;
}

/**
 * A token file that is empty or short (truncated by hand, a crash) stops the start: it must never
 * match the empty credential of a request without a header.
 */
export function resolveAdminToken(config: Config): AdminToken {
  if (config.adminToken) return { token: config.adminToken, generatedFile: undefined };
  const file = join(config.dataDir, ADMIN_TOKEN_FILE);
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored.length < MIN_ADMIN_TOKEN) {
      throw new Error(`${file} holds no usable admin token (under ${MIN_ADMIN_TOKEN} characters): delete it to generate a new one, or set SVC_ADMIN_TOKEN`);
    }
    return { token: stored, generatedFile: undefined };
  }
  const token = 'svcadm_' + randomBytes(24).toString('base64url');
  writeWhole(file, token + '\n');
  return { token, generatedFile: file };
}
