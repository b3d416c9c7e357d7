import { describe, expect, it } from 'vitest';
import { refusedFields as refused } from '../../kernel/refused-fields.ts';
import { blockRow, detailRow, type PickupPointInput, pickupPointRow } from './shop-rules.ts';

describe('detailRow', () => {
  it('builds the stored details, the time zone by the country by default', () => {
    expect(detailRow({ locationCode: 'AMS' }, 'NL')).toMatchObject({
      location_code: 'AMS',
      phone: null,
      email: null,
      latitude_micro: null,
      longitude_micro: null,
      pickup: 0,
      time_zone: 'Europe/Amsterdam',
    });
    expect(
      detailRow({ locationCode: 'AMS', latitude: '52.37', longitude: 4.89, pickup: true }, 'NL'),
    ).toMatchObject({ latitude_micro: 52_370_000, longitude_micro: 4_890_000, pickup: 1 });
  });

  it('needs latitude and longitude together, and a real time zone', () => {
    expect(refused(() => detailRow({ locationCode: 'AMS', latitude: '52.37' }, 'NL'))).toEqual([
      '/LONGITUDE',
    ]);
    expect(refused(() => detailRow({ locationCode: 'AMS', timeZone: 'Europe/Nowhere' }, 'NL'))).toEqual([
      '/TIMEZONE',
    ]);
  });

  it('reports every bad field at once', () => {
    expect(
      refused(() =>
        detailRow({ locationCode: 'AMS', email: 'not an address', latitude: 91, longitude: 181 }, 'NL'),
      ),
    ).toEqual(['/EMAIL', '/LATITUDE', '/LONGITUDE']);
  });
});

describe('pickupPointRow', () => {
  const point: PickupPointInput = { code: 'PP1', name: ' Kiosk ', latitude: '52.1', longitude: '5.1' };

  it('builds the stored row: names trimmed, blanks null, active by default', () => {
    expect(pickupPointRow({ ...point, city: ' ' })).toMatchObject({
      code: 'PP1',
      name: 'Kiosk',
      city: null,
      country: null,
      latitude_micro: 52_100_000,
      longitude_micro: 5_100_000,
      active: 1,
      deleted: 0,
    });
  });

  // The code and the name are the schema's: admin-shops.test.ts sends them over HTTP.
  it('needs a position', () => {
    expect(refused(() => pickupPointRow({ ...point, latitude: 'x' }))).toEqual(['/LATITUDE']);
    expect(refused(() => pickupPointRow({ ...point, longitude: '181' }))).toEqual(['/LONGITUDE']);
  });
});

describe('blockRow', () => {
  const block = { page: 'HOME', blockNo: 1, position: 10 };

  it('builds the stored row', () => {
    expect(blockRow({ ...block, image: 'SHOP:AMS/1', link: 'tv2app:shop/AMS' })).toMatchObject({
      page: 'HOME',
      block_no: 1,
      position: 10,
      image: 'SHOP:AMS/1',
      link: 'tv2app:shop/AMS',
      valid_from: null,
      active: 1,
    });
  });

  it('takes only https or image references, app links, whole-second UTC instants in order', () => {
    expect(refused(() => blockRow({ ...block, image: 'http://example.com/a.png' }))).toEqual(['/IMAGE']);
    expect(refused(() => blockRow({ ...block, link: 'has space:x y' }))).toEqual(['/LINK']);
    expect(refused(() => blockRow({ ...block, validFrom: '2026-06-01 10:00' }))).toEqual(['/VALIDFROM']);
    expect(
      refused(() =>
        blockRow({ ...block, validFrom: '2026-06-02T00:00:00Z', validTo: '2026-06-01T00:00:00Z' }),
      ),
    ).toEqual(['/VALIDTO']);
    // the page code and the block number are the schema's: admin-shops.test.ts
    expect(refused(() => blockRow({ ...block, position: -1 }))).toEqual(['/POSITION']);
  });
});
