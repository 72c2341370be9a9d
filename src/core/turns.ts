// Long work on the event loop (an import's lines) gives it back every few milliseconds, so that the
// collection endpoint and every other request are answered meanwhile rather than after it.
export class EventLoopTurns {
  private sliceStart = performance.now();
  private steps = 0;

  /**
   * `sliceMs`: work between turns; the clock is read every `stepsPerCheck` steps only. `atTurn`
   * runs before each turn is given back (the work's upkeep, such as bounding its heap).
   */
  constructor(
    private readonly sliceMs = 10,
    private readonly stepsPerCheck = 64,
    private readonly atTurn: () => void = () => undefined,
  ) {}

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
