// A new password for `svc user add`: from standard input (`--password-stdin`, for scripts), or typed
// twice at the terminal without echo. Never from an option: options end up in shell history and `ps`.
import { CliError } from './errors.js';

/** Everything on standard input, less one final line break. */
export async function passwordFromStdin(input: NodeJS.ReadableStream = process.stdin): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of input) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** One line typed at the terminal, not echoed; Ctrl-C or Ctrl-D abandons. */
function readHidden(prompt: string, tty: NodeJS.ReadStream, echo: NodeJS.WriteStream): Promise<string> {
  // Raw mode (no echo) before the prompt: what is typed after the prompt must never show.
  tty.setRawMode(true);
  tty.resume();
  tty.setEncoding('utf8');
  echo.write(prompt);
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (error?: CliError) => {
      tty.off('data', onData);
      tty.setRawMode(false);
      tty.pause();
      echo.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (data: string) => {
      for (const ch of data) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003' || ch === '\u0004') return finish(new CliError('password entry abandoned'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    tty.on('data', onData);
  });
}

/** Asks for the password twice at the terminal; they must match. */
export async function passwordFromTerminal(tty: NodeJS.ReadStream = process.stdin, echo: NodeJS.WriteStream = process.stderr): Promise<string> {
  if (!tty.isTTY) throw new CliError('no terminal to ask the password on: pass it on standard input with --password-stdin');
  const first = await readHidden('Password: ', tty, echo);
  const second = await readHidden('Repeat password: ', tty, echo);
  if (first !== second) throw new CliError('the two passwords differ; nothing was created');
  return first;
}
