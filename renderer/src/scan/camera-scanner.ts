import { BarcodeDetector, setZXingModuleOverrides } from 'barcode-detector/ponyfill';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/*
 * Camera scanning for stations without a hand scanner: zxing-cpp (WebAssembly, through the
 * BarcodeDetector ponyfill) reads the frames. The .wasm file is bundled and served by the station
 * itself — never fetched from a CDN — so this works offline and under `default-src 'self'`.
 */

setZXingModuleOverrides({
  locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
});

const FORMATS = ['code_128', 'code_39', 'ean_13', 'ean_8', 'upc_a', 'upc_e', 'itf', 'qr_code', 'data_matrix', 'pdf417'] as const;

/** Seconds a code must be out of view before the same code counts as a new scan. */
const REPEAT_AFTER_MS = 1500;

/**
 * Reads codes from `video` until the returned stop function is called. A code held in front of
 * the camera counts once; it counts again only after it left the picture.
 */
export function startCameraScanner(video: HTMLVideoElement, onCode: (code: string) => void, intervalMs = 150): () => void {
  const detector = new BarcodeDetector({ formats: [...FORMATS] });
  const lastSeen = new Map<string, number>();
  let stopped = false;
  const tick = async () => {
    if (stopped) return;
    try {
      if (video.readyState >= 2) {
        const now = performance.now();
        for (const found of await detector.detect(video)) {
          const seen = lastSeen.get(found.rawValue);
          lastSeen.set(found.rawValue, now);
          if (seen === undefined || now - seen > REPEAT_AFTER_MS) onCode(found.rawValue);
        }
      }
    } catch {
      // A frame that cannot be read: try the next one.
    }
    if (!stopped) setTimeout(() => void tick(), intervalMs);
  };
  void tick();
  return () => {
    stopped = true;
  };
}
