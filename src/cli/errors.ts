// The CLI's failure kinds: a usage error (exit 2, with the command's usage line) and any other
// failure explained in one line (exit 1), of which a server's refusal (its error envelope) is one.
import type { ErrorCode, ErrorReason } from '../core/errors.js';

export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}

export class UsageError extends CliError {
  readonly usage: string | undefined;
  constructor(problem: string, usage?: string) {
    super(problem, 2);
    this.name = 'UsageError';
    this.usage = usage;
  }
}

/**
 * The server answered with its error envelope (`code: message`): it handled the request, and
 * refused it. `reason` names the refusal exactly (the admin API's envelope carries it); commands
 * branch on it, never on the message.
 */
export class ServerRefusal extends CliError {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly reason: ErrorReason | undefined,
    detail: string,
  ) {
    super(`${code}: ${detail}`.trim());
    this.name = 'ServerRefusal';
  }
}
