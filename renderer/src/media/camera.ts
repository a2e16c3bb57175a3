import { create } from 'zustand';
import { describeCameraError } from './camera-errors.ts';

/*
 * The station camera, one stream for the whole page: photos and camera scanning share it, and it
 * stays open while the worker moves between packages (opening a camera takes a noticeable moment).
 */

export type CameraMode = 'off' | 'photo' | 'scan';

interface CameraState {
  stream: MediaStream | null;
  mode: CameraMode;
  error: string | null;
  setMode(mode: CameraMode): Promise<void>;
}

let video: HTMLVideoElement | null = null;

async function open(): Promise<MediaStream> {
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { width: { ideal: 1280 }, height: { ideal: 720 }, facingMode: 'environment' },
    audio: false,
  });
  video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.srcObject = stream;
  await video.play();
  return stream;
}

export const useCamera = create<CameraState>()((set, get) => ({
  stream: null,
  mode: 'off',
  error: null,
  async setMode(mode) {
    if (mode === 'off') {
      get()
        .stream?.getTracks()
        .forEach((t) => t.stop());
      video = null;
      set({ stream: null, mode, error: null });
      return;
    }
    if (get().stream) return set({ mode });
    try {
      const stream = await open();
      set({ stream, mode, error: null });
    } catch (error) {
      // The browser's text ("Requested device not found") becomes words a worker can act on.
      const plain = describeCameraError(error);
      set({ mode: 'off', error: plain });
      throw new Error(plain, { cause: error });
    }
  },
}));

/** The live frame source (an off-screen video of the stream), or null when the camera is off. */
export function cameraVideo(): HTMLVideoElement | null {
  return video;
}

/** Takes a JPEG of the current frame, opening the camera first when it is off. */
export async function capturePhoto(): Promise<Blob> {
  const camera = useCamera.getState();
  if (!camera.stream) await camera.setMode('photo');
  const source = video;
  if (!source) throw new Error('Camera unavailable');
  if (source.videoWidth === 0) await new Promise((resolve) => source.addEventListener('loadeddata', resolve, { once: true }));
  const canvas = document.createElement('canvas');
  canvas.width = source.videoWidth;
  canvas.height = source.videoHeight;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('Cannot draw the camera frame');
  ctx.drawImage(source, 0, 0);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('Could not encode the photo'))), 'image/jpeg', 0.85),
  );
}
