import { describe, expect, test } from 'vitest';
import { clip, code128Data, fieldData, packageSlipZpl, unitLabelZpl, ZplLabel } from '../../electron/station/printing/zpl.ts';

/* The ZPL builder (electron/station/printing/zpl.ts): nothing typed can become a command. */

const label = {
  unit_id: 'RS-7K2Q-000042',
  sku: 'WBN-01',
  name: 'Earbuds',
  condition: 'like_new',
  disposition: 'restock',
  bin: 'A-12',
  tracking_number: '1Z999AA10123456784',
  date: '2026-05-01',
  worker: 'Ada',
};

describe('field data', () => {
  test('^, ~, _ and control characters become _XX hex; other text, UTF-8 included, stays', () => {
    expect(fieldData('a^FS~JA_b')).toBe('a_5EFS_7EJA_5Fb');
    expect(fieldData('line\nbreak\x7f')).toBe('line_0Abreak_7F');
    expect(fieldData('Müller 東京')).toBe('Müller 東京');
  });
  test('Code 128 data doubles > (an invocation code in ^BC)', () => {
    expect(code128Data('A>B^')).toBe('A><B_5E');
  });
  test('clip cuts to a length with an ellipsis', () => {
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(clip('abc', 4)).toBe('abc');
  });
});

test('a label is ^XA … ^XZ in UTF-8 at its size; every field is hex-escaped (^FH)', () => {
  const zpl = new ZplLabel({ widthDots: 812, heightDots: 406 }).text(10, 20, 30, 'x^y').toString();
  expect(zpl).toBe('^XA\n^CI28\n^PW812\n^LL406\n^LH0,0\n^FO10,20^A0N,30,30^FH_^FDx_5Ey^FS\n^XZ\n');
});

test('the unit label: the unit id as Code 128 with its text, the bin largest, the disposition, the facts', () => {
  const zpl = unitLabelZpl(label);
  expect(zpl.startsWith('^XA\n')).toBe(true);
  expect(zpl.endsWith('^XZ\n')).toBe(true);
  expect(zpl).toContain('^BY3,3,90^BCN,90,Y,N,N^FH_^FDRS-7K2Q-000042^FS');
  expect(zpl).toContain('^A0N,68,68^FH_^FDA-12^FS');
  for (const text of ['BIN', 'restock', 'SKU WBN-01   like_5Fnew', 'Earbuds', 'Parcel 1Z999AA10123456784', '2026-05-01   Ada'])
    expect(zpl).toContain(`^FD${text}^FS`);
  // One ^XA and one ^XZ whatever the text: a typed ^XZ cannot end the label early.
  const hostile = unitLabelZpl({ ...label, name: '^XZ^XA~JR', worker: '^XZ' });
  expect(hostile.match(/\^XZ/g)).toHaveLength(1);
  expect(hostile.match(/\^XA/g)).toHaveLength(1);
});

test('a label with nothing but the unit id still prints, saying what is missing', () => {
  const zpl = unitLabelZpl({ ...label, sku: null, name: null, condition: null, disposition: null, bin: null, tracking_number: null, worker: null });
  expect(zpl).toContain('^FDNo disposition^FS');
  expect(zpl).toContain('^FDNONE^FS');
});

test('the package slip: the tracking number as Code 128 and its units, the rest counted', () => {
  const units = Array.from({ length: 8 }, (_, i) => ({ unit_id: `RS-U-${i}`, sku: 'S', disposition: 'restock', bin: 'A-1' }));
  const zpl = packageSlipZpl({ tracking_number: '1Z999', return_package_id: 7, date: '2026-05-01', worker: null, units });
  expect(zpl).toContain('^BCN,80,Y,N,N^FH_^FD1Z999^FS');
  expect(zpl).toContain('^FDA-1  RS-U-5  restock  S^FS');
  expect(zpl).not.toContain('RS-U-6');
  expect(zpl).toContain('^FD+ 2 more^FS');
});
