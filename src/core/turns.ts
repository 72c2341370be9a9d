// Long work on the event loop (an import's lines) gives it back every few milliseconds, so that the
// collection endpoint and every other request are answered meanwhile rather than after it.
export class EventLoopTurns {
  private sliceStart = performance.now();
  private steps = 0;

  private readonly sliceMs: number;
  private readonly stepsPerCheck: number;
  private readonly atTurn: () => void;

  /**
   * `sliceMs`: work between turns (10 ms); the clock is read every `stepsPerCheck` steps only (64).
   * `atTurn` runs before each turn is given back (the work's upkeep, such as bounding its heap).
   */
  constructor(options: { sliceMs?: number; stepsPerCheck?: number; atTurn?: () => void } = {}) {
    this.sliceMs = options.sliceMs ?? 10;
    this.stepsPerCheck = options.stepsPerCheck ?? 64;
    this.atTurn = options.atTurn ?? (() => undefined);
  }

  /** After a step of work: a promise of a later turn once the slice is spent, else undefined. */
  step(): Promise<void> | undefined {
    if (++this.steps % this.stepsPerCheck !== 0 || performance.now() - this.sliceStart < this.sliceMs) return undefined;
    this.atTurn();
    return new Promise((resolve) =>
      setImmediate(() => {
        this.sliceStart = performance.now();
        resolve();
      }),
    );
  }
}
