// The service's settings from the environment: each checked, a bad one a
// ConfigError naming the variable before anything starts.
import { describe, expect, it } from 'vitest';
import { readServiceConfig } from '../../src/api/service/service-config.js';
import { ConfigError } from '../../src/infrastructure/config.js';

describe('service settings', () => {
  it('off-peak consolidation waits at most a minute by default; 0 turns it off; anything else is refused by name', () => {
    expect(readServiceConfig({}).consolidationDeferMs).toBe(60_000);
    expect(readServiceConfig({ MEMLEDGER_CONSOLIDATION_DEFER_MS: '0' }).consolidationDeferMs).toBe(0);
    expect(readServiceConfig({ MEMLEDGER_CONSOLIDATION_DEFER_MS: '5000' }).consolidationDeferMs).toBe(5000);
    for (const bad of ['-1', '1.5', 'soon', '86400001']) {
      const read = () => readServiceConfig({ MEMLEDGER_CONSOLIDATION_DEFER_MS: bad });
      expect(read).toThrow(ConfigError);
      expect(read).toThrow(/MEMLEDGER_CONSOLIDATION_DEFER_MS/);
    }
  });
});
