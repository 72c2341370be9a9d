// Registers ./stage-trace-hook.mjs after tsx (`node --import tsx --import ./test/helpers/stage-trace.mjs`).
import { register } from 'node:module';

register('./stage-trace-hook.mjs', import.meta.url);
