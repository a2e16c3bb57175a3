import { describe, expect, it } from 'vitest';
import { parseSicsAnswer } from '../../electron/station/scale/mt-sics.ts';
import { parseNciAnswer } from '../../electron/station/scale/nci.ts';

/*
 * The parsers on the answers the protocols' documents print as examples (MT-SICS reference manual,
 * NCI SCP-01 as the scales' manuals quote it), byte for byte, and on what is not an answer.
 */
const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe('MT-SICS answers', () => {
  it('reads the stable and the dynamic weight, the sign right before the digits', () => {
    expect(parseSicsAnswer(bytes('S S     100.00 g'))).toEqual({ kind: 'weight', stable: true, value: 100, unit: 'g' });
    expect(parseSicsAnswer(bytes('S D      1.234 kg'))).toEqual({ kind: 'weight', stable: false, value: 1.234, unit: 'kg' });
    expect(parseSicsAnswer(bytes('S S     -0.020 kg'))).toEqual({ kind: 'weight', stable: true, value: -0.02, unit: 'kg' });
    expect(parseSicsAnswer(bytes('S S      250.5 mg'))).toEqual({ kind: 'weight', stable: true, value: 0.2505, unit: 'g' });
  });
  it('tells overload, underload, busy and the general errors apart', () => {
    expect(parseSicsAnswer(bytes('S +'))).toEqual({ kind: 'overload' });
    expect(parseSicsAnswer(bytes('S -'))).toEqual({ kind: 'underload' });
    expect(parseSicsAnswer(bytes('S I'))).toEqual({ kind: 'busy' });
    expect(parseSicsAnswer(bytes('ES'))).toMatchObject({ kind: 'refused' });
    expect(parseSicsAnswer(bytes('ET'))).toMatchObject({ kind: 'refused', why: expect.stringContaining('baud') });
  });
  it('refuses a unit the station does not record, and bytes that are no answer', () => {
    expect(parseSicsAnswer(bytes('S S      12.00 ct'))).toMatchObject({ kind: 'fault', why: expect.stringContaining('ct') });
    expect(parseSicsAnswer(bytes('\x00\xff#S S 1 kg'))).toEqual({ kind: 'garbled' });
    expect(parseSicsAnswer(bytes('S X 1.00 kg'))).toEqual({ kind: 'garbled' });
    expect(parseSicsAnswer(bytes(''))).toEqual({ kind: 'garbled' });
  });
});

describe('NCI answers to W', () => {
  it('reads the weight and the motion bit of status byte 1', () => {
    expect(parseNciAnswer(bytes('\n0001.25KG\r\n00\r'))).toEqual({ kind: 'weight', stable: true, value: 1.25, unit: 'kg' });
    expect(parseNciAnswer(bytes('\n  12.50lb\r\n10\r'))).toEqual({ kind: 'weight', stable: false, value: 12.5, unit: 'lb' });
    // pounds and ounces, as ounces
    expect(parseNciAnswer(bytes('\n 2lb 4.5oz\r\n00\r'))).toEqual({ kind: 'weight', stable: true, value: 36.5, unit: 'oz' });
    // a third status byte announced by bit 6 of byte 2; parity bits set
    expect(parseNciAnswer(bytes('\n0003.00KG\r\n\xb0p0\r'))).toEqual({ kind: 'weight', stable: true, value: 3, unit: 'kg' });
  });
  it('takes over and under capacity from status byte 2, whatever the display shows', () => {
    expect(parseNciAnswer(bytes('\n^^^^^^^KG\r\n02\r'))).toEqual({ kind: 'overload' });
    expect(parseNciAnswer(bytes('\n-------KG\r\n01\r'))).toEqual({ kind: 'underload' });
    expect(parseNciAnswer(bytes('\n0001.00KG\r\n04\r'))).toMatchObject({ kind: 'fault' });
  });
  it('knows the unknown-command answer, and refuses what is not a frame', () => {
    expect(parseNciAnswer(bytes('\n?\r'))).toMatchObject({ kind: 'refused' });
    expect(parseNciAnswer(bytes('\n0001.25KG\r\n\x01\x02\r'))).toEqual({ kind: 'garbled' });
    expect(parseNciAnswer(bytes('0001.25KG\r\n00\r'))).toEqual({ kind: 'garbled' });
    expect(parseNciAnswer(bytes('\nhello\r\n00\r'))).toEqual({ kind: 'garbled' });
  });
});
