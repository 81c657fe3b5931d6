// Crash points for the crash tests: CRIER_FAILPOINT=<name> makes the process SIGKILL itself when it
// reaches that point, exactly as a power cut would. Unset in production: a no-op.
//  after-claim:   a batch of targets claimed (their attempts committed), nothing reserved or sent
//  after-attempt: a container's reservation committed, right before its network call
//  after-network: the network accepted a container, before Crier recorded it
export type Failpoint = 'after-claim' | 'after-attempt' | 'after-network';

const armed = process.env.CRIER_FAILPOINT;

export function failpoint(name: Failpoint): void {
  if (armed === name) process.kill(process.pid, 'SIGKILL');
}
