#!/usr/bin/env node
// Entry point of the `crier` command. Crier runs its TypeScript sources directly (Node >= 22.18
// strips types natively), so there is no build step.
import '../src/main.ts';
