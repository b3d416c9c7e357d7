import { describe, expect, it } from 'vitest';
import { LoginThrottle } from './login-throttle.ts';

describe('LoginThrottle', () => {
  it('blocks an address after the allowed failures until the window ends', () => {
    let now = 0;
    const throttle = new LoginThrottle(3, 60, () => now);
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfter('a')).toBe(0);
      throttle.fail('a');
    }
    expect(throttle.retryAfter('a')).toBe(60);
    expect(throttle.retryAfter('b')).toBe(0);
    now = 59_500;
    expect(throttle.retryAfter('a')).toBe(1);
    now = 60_000;
    expect(throttle.retryAfter('a')).toBe(0);
  });

  it('forgets failures after a success', () => {
    const throttle = new LoginThrottle(2, 60, () => 0);
    throttle.fail('a');
    throttle.succeed('a');
    throttle.fail('a');
    expect(throttle.retryAfter('a')).toBe(0);
  });
});
