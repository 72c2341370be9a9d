// The error catalogue: every error a client can see, with its HTTP status.
// Handlers throw `ApiError`; the HTTP layer turns it into `{ error: { code, message } }`.

export const ERROR_STATUS = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  INVALID_PARAMS: 400,
  INVALID_PERIOD: 400,
  INVALID_TIMEZONE: 400,
  RAW_WINDOW_EXCEEDED: 400,
  METRIC_NOT_FILTERABLE: 400,
  HOURLY_CONVERSIONS_UNSUPPORTED: 400,
  INVALID_WEBHOOK_URL: 400,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  // An import whose events are stored, but whose rollups failed after: the rollup task finishes them.
  IMPORT_ROLLUPS_PENDING: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.headers = headers;
  }
}

export const invalidParams = (message: string) => new ApiError('INVALID_PARAMS', message);
export const notFound = (message = 'not found') => new ApiError('NOT_FOUND', message);
export const unauthorized = () => new ApiError('UNAUTHORIZED', 'missing or invalid credentials');
export const forbidden = (message: string) => new ApiError('FORBIDDEN', message);
export const conflict = (message: string) => new ApiError('CONFLICT', message);

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string };
}

export function envelope(err: ApiError): ErrorEnvelope {
  return { error: { code: err.code, message: err.message } };
}
