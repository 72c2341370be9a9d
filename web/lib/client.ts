// The dashboard's one client of /app/v1's JSON routes: `call('METHOD /path/:param', { params, body })`,
// typed by the route's body and answer (src/http/app-v1/routes.ts, imported as types only: the
// bundle carries the route's name, nothing more). Failures are api.ts's ApiError, as every call's.
import { api, type Method, type RequestOptions } from './api.js';
import type { AppRoutes } from '../../src/http/app-v1/routes.js';

export type Route = keyof AppRoutes;

/** The names of a path's `:name` parameters. */
type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}` ? Name | ParamNames<Rest> : Path extends `${string}:${infer Name}` ? Name : never;

/** What a call of `route` sends: its path parameters and its body when it has them, and how it goes. */
export type CallOf<R extends Route> = ([ParamNames<R>] extends [never] ? unknown : { params: Record<ParamNames<R>, string | number> }) &
  (AppRoutes[R] extends { body: infer Body } ? { body: Body } : unknown) &
  RequestOptions;

export type AnswerOf<R extends Route> = AppRoutes[R]['answer'];

/** Calls `route`, its `:name` parameters filled in from `params` (encoded). */
export function call<R extends Route>(route: R, ...request: {} extends CallOf<R> ? [CallOf<R>?] : [CallOf<R>]): Promise<AnswerOf<R>> {
  const [method, path] = route.split(' ') as [Method, string];
  const { params, body, ...options } = (request[0] ?? {}) as { params?: Record<string, string | number>; body?: unknown } & RequestOptions;
  return api(method, path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params![name]!)), body, options);
}
