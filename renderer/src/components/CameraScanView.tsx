import { useEffect, useRef, useState } from 'react';
import { cameraVideo, useCamera } from '../media/camera.ts';
import { submitScan } from '../receiving/scan-router.ts';
import { notify } from '../state/feedback-store.ts';

/** Live preview while the camera reads barcodes; each code read goes through the scan queue. */
export function CameraScanView() {
  const stream = useCamera((s) => s.stream);
  const preview = useRef<HTMLVideoElement>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (preview.current && stream) preview.current.srcObject = stream;
  }, [stream]);

  useEffect(() => {
    const video = cameraVideo();
    if (!video) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    // The decoder (WebAssembly) loads only when camera scanning is first used.
    void import('../scan/camera-scanner.ts')
      .then(({ startCameraScanner }) => {
        if (cancelled) return;
        setReady(true);
        stop = startCameraScanner(video, (code) => {
          notify('success', `Camera read ${code}`);
          submitScan(code);
        });
      })
      .catch(() => notify('error', 'The barcode reader could not start.'));
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [stream]);

  return (
    <div className="camera-scan" data-testid="camera-scan" data-ready={ready}>
      <video ref={preview} autoPlay muted playsInline aria-label="Camera preview for scanning" />
      <span>{ready ? 'Hold the barcode in front of the camera' : 'Starting the barcode reader…'}</span>
    </div>
  );
}
