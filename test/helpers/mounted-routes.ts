// The routes a Fastify app mounts, read from its own tree (`printRoutes`): what a test of every
// route of a prefix compares its list with, so that a route added without a row there fails it.
import type { FastifyInstance } from 'fastify';

/** One line of the tree: its indent (4 characters a level), its part of the path and its methods. */
const TREE_LINE = /^((?:│ {3}| {4})*)[├└]── (.*?)(?: \(([A-Z, -]+)\))?$/;

/**
 * The routes of a ready `app` whose path starts with `prefix`, as `METHOD /path` (the path after the
 * prefix, sorted); HEAD is left out, since Fastify adds one to every GET.
 */
export function mountedRoutes(app: FastifyInstance, prefix: string): string[] {
  const paths: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const parsed = TREE_LINE.exec(line);
    if (!parsed) continue;
    const depth = parsed[1]!.length / 4;
    const path = (paths[depth - 1] ?? '') + parsed[2]!;
    paths[depth] = path;
    if (!path.startsWith(prefix + '/') || parsed[3] === undefined) continue;
    for (const method of parsed[3].split(', ')) if (method !== 'HEAD') routes.push(`${method} ${path.slice(prefix.length)}`);
  }
  return routes.sort();
}
