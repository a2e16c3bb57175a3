import { describe, expect, it } from 'vitest';
import { fedexCandidates, normaliseCode, normaliseScan, uspsCandidates } from '../../shared/barcode.ts';

const USPS_TRACKING = '9400111899223033005158'; // 22 digits, IMpb

describe('normaliseCode', () => {
  it.each([
    [' 1z 999 aa1 0123456784\n', '1Z999AA10123456784'],
    ['\t1Z999AA10123456784\r\n', '1Z999AA10123456784'],
    [']C1420100019400111899223033005158', `42010001${USPS_TRACKING}`],
    ['jd\u001d014 4190\u00a0123', 'JD0144190123'],
    ['ret-42', 'RET-42'],
  ])('%j → %s', (raw, expected) => {
    expect(normaliseCode(raw)).toBe(expected);
  });
});

describe('USPS 420 + ZIP labels', () => {
  it('strips a 5-digit ZIP routing prefix', () => {
    const scan = normaliseScan(`420 10001 ${USPS_TRACKING}`);
    expect(scan.code).toBe(`42010001${USPS_TRACKING}`);
    expect(scan.candidates[0]).toBe(USPS_TRACKING);
    expect(scan.candidates).toContain(scan.code);
  });

  it('strips a ZIP+4 routing prefix', () => {
    const scan = normaliseScan(`420100011234${USPS_TRACKING}`);
    expect(scan.candidates[0]).toBe(USPS_TRACKING);
  });

  it('leaves a bare USPS tracking number alone', () => {
    expect(normaliseScan(USPS_TRACKING).candidates).toEqual([USPS_TRACKING]);
  });

  it('needs a tracking number starting with 9 after the ZIP', () => {
    expect(uspsCandidates(`42010001${'1'.repeat(22)}`)).toEqual([]);
    expect(uspsCandidates(`4201000${USPS_TRACKING}`)).toEqual([]); // 4-digit ZIP
  });
});

describe('FedEx long barcodes', () => {
  it('a 34-digit barcode yields its last 15 and last 12 digits', () => {
    const express = '123456789012';
    const code = `1001901781940000000000${express}`;
    expect(code).toHaveLength(34);
    const scan = normaliseScan(code);
    expect(scan.candidates).toEqual([code.slice(-15), express, code]);
  });

  it('a 32-digit barcode yields candidates too', () => {
    const code = '10019017819400000000794510048123';
    expect(code).toHaveLength(32);
    expect(fedexCandidates(code)).toEqual([code.slice(-15), code.slice(-12)]);
  });

  it('a 22-digit FedEx Ground "96" barcode ends in the 15-digit tracking number', () => {
    const scan = normaliseScan('96 12804 012345678901234');
    expect(scan.candidates).toEqual(['012345678901234', '345678901234', '9612804012345678901234']);
  });

  it('ignores other lengths, non-digits and USPS 22-digit tracking numbers', () => {
    expect(fedexCandidates('1'.repeat(33))).toEqual([]);
    expect(fedexCandidates(`A${'1'.repeat(33)}`)).toEqual([]);
    expect(fedexCandidates(USPS_TRACKING)).toEqual([]);
  });

  it('a 34-digit USPS 420+ZIP+4 code is read as USPS, not FedEx', () => {
    const code = `420100011234${USPS_TRACKING}`;
    expect(code).toHaveLength(34);
    expect(normaliseScan(code).candidates).toEqual([USPS_TRACKING, code]);
  });
});

describe('other codes', () => {
  it('UPS, emails and SKUs have the normalised code as only candidate', () => {
    expect(normaliseScan('1z999aa10123456784')).toEqual({ code: '1Z999AA10123456784', candidates: ['1Z999AA10123456784'] });
    expect(normaliseScan(' sh-1 ').candidates).toEqual(['SH-1']);
  });
  it('an empty scan has no candidates', () => {
    expect(normaliseScan('  \n')).toEqual({ code: '', candidates: [] });
  });
});
