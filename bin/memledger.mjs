#!/usr/bin/env node
// The CLI runs the TypeScript sources through tsx, so what runs is always
// what the repository holds (no build step to forget).
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
