import { describe, expect, it } from 'vitest';
import {
  assertOwnClientKey,
  assertOwnCustomer,
  assertOwnCustomerKey,
  assertOwnRepresentative,
  assertTermsUnchanged,
  clientScope,
  confinedClient,
  confinedCustomer,
  customerScope,
  MAX_PARTY_NO,
} from './access.ts';
import { ForbiddenError, ValidationError } from './errors.ts';

/** Runs `f` and returns what it threw (fails when it threw nothing). */
function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const outside = (message: string) => {
  const error = new ForbiddenError('OUTSIDE_SCOPE', message);
  return expect.objectContaining({ kind: 'forbidden', code: error.code, message: error.message });
};

const invalid = (name: string, message: string) => {
  const error = new ValidationError([{ name, message }]);
  return expect.objectContaining({ code: 'VALIDATION_FAILED', errors: error.errors });
};

const customer = (customerNo: number | null) => ({ customerNo });
const client = (clientNo: number | null) => ({ clientNo });

describe('confinedCustomer / confinedClient', () => {
  it('name the party a token is confined to, null otherwise', () => {
    expect(confinedCustomer(customer(10001))).toBe(10001);
    expect(confinedCustomer(customer(null))).toBeNull();
    expect(confinedCustomer(null)).toBeNull();
    expect(confinedClient(client(100002))).toBe(100002);
    expect(confinedClient(client(null))).toBeNull();
    expect(confinedClient(null)).toBeNull();
  });
});

describe('customerScope', () => {
  it('gives a confined token its own customer when it names none, 0 or its own', () => {
    expect(customerScope(customer(10001), undefined)).toBe(10001);
    expect(customerScope(customer(10001), 0)).toBe(10001);
    expect(customerScope(customer(10001), 10001)).toBe(10001);
  });

  it('refuses a confined token any other customer with 403 OUTSIDE_SCOPE', () => {
    expect(thrown(() => customerScope(customer(10001), 10002))).toEqual(
      outside('This token is confined to customer 10001.'),
    );
    expect(thrown(() => customerScope(customer(10001), 1))).toEqual(
      outside('This token is confined to customer 10001.'),
    );
  });

  it('gives an unconfined token what it asked for; none or 0 is undefined (all)', () => {
    expect(customerScope(customer(null), 10002)).toBe(10002);
    expect(customerScope(null, 10002)).toBe(10002);
    expect(customerScope(customer(null), undefined)).toBeUndefined();
    expect(customerScope(customer(null), 0)).toBeUndefined();
  });

  it('answers 400 naming the field for a number above 32 bits, confined or not', () => {
    const tooLarge = MAX_PARTY_NO + 1;
    const message = `must be at most ${MAX_PARTY_NO}`;
    expect(thrown(() => customerScope(customer(null), tooLarge))).toEqual(invalid('strcustomer', message));
    expect(thrown(() => customerScope(customer(10001), tooLarge))).toEqual(invalid('strcustomer', message));
    expect(thrown(() => customerScope(customer(10001), tooLarge, '/X/CUSTOMER'))).toEqual(
      invalid('/X/CUSTOMER', message),
    );
    expect(customerScope(customer(null), MAX_PARTY_NO)).toBe(MAX_PARTY_NO);
  });
});

describe('assertOwnCustomer', () => {
  it('lets a confined token touch its own customer only', () => {
    expect(() => assertOwnCustomer(customer(10001), 10001)).not.toThrow();
    expect(thrown(() => assertOwnCustomer(customer(10001), 10002))).toEqual(
      outside('This token is confined to customer 10001.'),
    );
  });

  it('lets an unconfined token touch any customer', () => {
    expect(() => assertOwnCustomer(customer(null), 10002)).not.toThrow();
    expect(() => assertOwnCustomer(null, 10002)).not.toThrow();
  });
});

describe('assertOwnCustomerKey / assertOwnClientKey', () => {
  it("answer only the own party's key, 403 OUTSIDE_SCOPE for any other", () => {
    expect(() => assertOwnCustomerKey(10001, true)).not.toThrow();
    expect(thrown(() => assertOwnCustomerKey(10001, false))).toEqual(
      outside('This token is confined to customer 10001.'),
    );
    expect(() => assertOwnClientKey(100002, true)).not.toThrow();
    expect(thrown(() => assertOwnClientKey(100002, false))).toEqual(
      outside('This token is confined to client 100002.'),
    );
  });
});

describe('assertOwnRepresentative', () => {
  it("answers only the own customer's representative", () => {
    expect(() => assertOwnRepresentative(10001, 'JDV', 'JDV')).not.toThrow();
    const message =
      'This token is confined to customer 10001, which is not a customer of representative "SPE".';
    expect(thrown(() => assertOwnRepresentative(10001, 'SPE', 'JDV'))).toEqual(outside(message));
    expect(thrown(() => assertOwnRepresentative(10001, 'SPE', null))).toEqual(outside(message));
  });
});

describe('assertTermsUnchanged', () => {
  it('refuses a change of commercial terms, naming them', () => {
    expect(() => assertTermsUnchanged(10001, [])).not.toThrow();
    expect(thrown(() => assertTermsUnchanged(10001, ['CURRENCY', 'PRICEGROUP']))).toEqual(
      outside(
        'A token confined to customer 10001 cannot change its commercial terms (CURRENCY, PRICEGROUP).',
      ),
    );
  });
});

describe('clientScope', () => {
  it('gives a confined token its own client when it names none, 0 or its own', () => {
    expect(clientScope(client(5), undefined)).toBe(5);
    expect(clientScope(client(5), 0)).toBe(5);
    expect(clientScope(client(5), 5)).toBe(5);
  });

  it('refuses a confined token any other client with 403 OUTSIDE_SCOPE, whatever its size', () => {
    for (const other of [6, 1, MAX_PARTY_NO + 1, -3]) {
      expect(thrown(() => clientScope(client(5), other))).toEqual(
        outside('This token is confined to client 5.'),
      );
    }
  });

  it('makes an unconfined token name the client', () => {
    expect(clientScope(client(null), 6)).toBe(6);
    expect(clientScope(null, MAX_PARTY_NO)).toBe(MAX_PARTY_NO);
    for (const none of [undefined, 0]) {
      expect(thrown(() => clientScope(client(null), none))).toEqual(
        invalid('strclient', 'give the client number'),
      );
    }
    expect(thrown(() => clientScope(null, undefined, '/X/CLIENT'))).toEqual(
      invalid('/X/CLIENT', 'give the client number'),
    );
  });

  it('answers 400 for an unconfined number out of range', () => {
    const message = `must be a client number from 1 to ${MAX_PARTY_NO}`;
    for (const bad of [MAX_PARTY_NO + 1, -1, 1.5, Number.NaN]) {
      expect(thrown(() => clientScope(client(null), bad))).toEqual(invalid('strclient', message));
    }
  });
});

describe('clientScope at the bounds', () => {
  it('takes client 1 and MAX_PARTY_NO from an unconfined token', () => {
    expect(clientScope(null, 1)).toBe(1);
    expect(clientScope(null, MAX_PARTY_NO)).toBe(MAX_PARTY_NO);
  });
});
