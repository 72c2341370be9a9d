// deploy/compose.yml read as Docker Compose reads it: YAML merge keys, `${VAR}`, `${VAR:-default}`
// and `${VAR:?message}` interpolation of string values (`$$` is a literal `$`), and a service's
// command falling back to the CMD of the Dockerfile it is built from.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../../src/core/paths.js';

export const DEPLOY_DIR = join(projectRoot(), 'deploy');
export const COMPOSE_FILE = join(DEPLOY_DIR, 'compose.yml');
export const NGINX_CONF = join(DEPLOY_DIR, 'nginx.conf');

export interface ComposeService {
  name: string;
  image?: string;
  build?: { context: string; dockerfile: string };
  /** The command in exec form: the service's own, else its Dockerfile's CMD. */
  command: string[];
  environment: Record<string, string>;
  volumes: string[];
  ports: string[];
  healthcheck?: { test: string[] };
  /** The declaration as parsed and interpolated, for the checks of its shape. */
  declared: Record<string, any>;
}

export interface ComposeFile {
  services: Map<string, ComposeService>;
  declared: Record<string, any>;
}

/** Substitutes `${NAME}`, `${NAME:-default}`, `${NAME:?message}` and `$$` in one value. */
export function interpolate(text: string, variables: Record<string, string>): string {
  return text.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|:\?)([^}]*))?\}/g, (whole, name?: string, operator?: string, argument?: string) => {
    if (name === undefined) return '$';
    const value = variables[name];
    const set = value !== undefined && value !== '';
    if (operator === ':-') return set ? value : (argument ?? '');
    if (operator === ':?' && !set) throw new Error(`compose.yml: ${argument || `${name} is required`}`);
    return value ?? '';
  });
}

function interpolated(value: unknown, variables: Record<string, string>): any {
  if (typeof value === 'string') return interpolate(value, variables);
  if (Array.isArray(value)) return value.map((v) => interpolated(v, variables));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolated(v, variables)]));
  }
  return value;
}

/** The exec-form CMD of a Dockerfile (its last CMD, as Docker takes it). */
export function dockerfileCommand(path: string): string[] {
  const lines = readFileSync(path, 'utf8').split('\n').filter((line) => /^CMD\s/.test(line));
  const last = lines.at(-1);
  if (last === undefined) throw new Error(`${path} has no CMD`);
  const command: unknown = JSON.parse(last.replace(/^CMD\s+/, ''));
  if (!Array.isArray(command) || !command.every((part) => typeof part === 'string')) throw new Error(`${path}: CMD is not in exec form: ${last}`);
  return command;
}

/** Compose's list or map form of `environment`, as a map. */
function environmentOf(declared: unknown): Record<string, string> {
  if (declared === undefined) return {};
  if (Array.isArray(declared)) {
    return Object.fromEntries(declared.map((entry: string) => [entry.split('=')[0]!, entry.slice(entry.indexOf('=') + 1)]));
  }
  return Object.fromEntries(Object.entries(declared as Record<string, unknown>).map(([k, v]) => [k, String(v ?? '')]));
}

/** deploy/compose.yml with `variables` standing for the project's .env file. */
export function readCompose(variables: Record<string, string>): ComposeFile {
  const declared = interpolated(parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }), variables) as Record<string, any>;
  const services = new Map<string, ComposeService>();
  for (const [name, service] of Object.entries<Record<string, any>>(declared.services ?? {})) {
    const build = service.build as ComposeService['build'];
    const command = service.command ?? (build ? dockerfileCommand(join(DEPLOY_DIR, build.context, build.dockerfile)) : []);
    services.set(name, {
      name,
      image: service.image,
      build,
      command: typeof command === 'string' ? command.split(' ') : command,
      environment: environmentOf(service.environment),
      volumes: service.volumes ?? [],
      ports: (service.ports ?? []).map(String),
      healthcheck: service.healthcheck,
      declared: service,
    });
  }
  return { services, declared };
}

/** One entry of a service's `volumes`: what is mounted (a named volume, or a host path) and where. */
export interface VolumeMount {
  source: string;
  target: string;
  /** Whether `source` is a volume of the file's top-level `volumes` (else a host path). */
  named: boolean;
}

/** A service's `volumes`, in Compose's short (`source:target[:mode]`) or long (`{ source, target }`) form. */
export function volumeMounts(compose: ComposeFile, service: ComposeService): VolumeMount[] {
  const declared = (service.declared.volumes ?? []) as Array<string | { source?: string; target: string }>;
  return declared.map((entry) => {
    const [source = '', target = ''] = typeof entry === 'string' ? entry.split(':') : [entry.source ?? '', entry.target];
    return { source, target, named: source in (compose.declared.volumes ?? {}) };
  });
}

/** The services built from svc's own Dockerfile: the svc processes. */
export function svcServices(compose: ComposeFile): ComposeService[] {
  return [...compose.services.values()].filter((service) => service.build?.dockerfile === 'deploy/Dockerfile');
}
