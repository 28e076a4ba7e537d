/** The action's entry point (actions/typescript-action shape): only calls run(). */
import { run } from './action/main.js';

await run();
