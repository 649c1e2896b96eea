// Root hooks of the E2E tier: the CPU load of WIS_E2E_LOAD (see repeat.ts) runs from the first
// suite to the last. Nothing happens without it.
import { startCpuLoad, stopCpuLoad } from './repeat';

before(() => startCpuLoad());
after(() => stopCpuLoad());
