import { useEffect, useMemo, useRef } from 'react';
import type { ReturnPackage } from '#shared/api/return-packages.ts';
import { useCamera } from '../media/camera.ts';
import type { Upload } from '../media/upload-queue.ts';
import { addFiles, takePhoto } from '../workflow/commands.ts';
import { packagePhotos } from './package-store.ts';
import { usePackage } from './page-package.ts';

const UPLOAD_LABEL: Record<Upload['state'], string> = {
  queued: 'Waiting to upload',
  uploading: 'Uploading…',
  retrying: 'Station unreachable — retrying',
  done: 'Saved',
  failed: 'Not accepted',
};

/** Photos of the package: a thumbnail at once, the upload state under it, the live camera beside. */
export function PhotoStrip({ pkg }: { pkg: ReturnPackage }) {
  const uploads = usePackage((s) => s.uploads);
  const photos = useMemo(() => packagePhotos(pkg, uploads), [pkg, uploads]);
  const fileInput = useRef<HTMLInputElement>(null);
  const stream = useCamera((s) => s.stream);
  const mode = useCamera((s) => s.mode);

  return (
    <section className="photos" aria-label="Photos">
      <div className="button-row">
        <button type="button" className="btn btn-secondary" onClick={() => void takePhoto()} data-testid="take-photo">
          Take photo <kbd>F4</kbd>
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => fileInput.current?.click()}>
          Add files…
        </button>
        <input
          ref={fileInput}
          type="file"
          accept="image/*,video/*,application/pdf"
          multiple
          hidden
          onChange={(e) => e.target.files && addFiles(e.target.files)}
          aria-label="Add photo files"
        />
        <span className="hint small">or drop / paste images here</span>
      </div>
      <div className="thumbs" data-testid="photos">
        {stream && mode === 'photo' && <LivePreview stream={stream} />}
        {photos.map((p) => (
          <figure key={p.key} className={`thumb thumb-${p.upload?.state ?? 'done'}`} data-testid="photo" data-state={p.upload?.state ?? 'done'}>
            {p.upload ? <BlobImage blob={p.upload.blob} /> : p.stored && <img src={p.stored.url} alt="Package photo" />}
            <figcaption>
              {p.upload ? `${UPLOAD_LABEL[p.upload.state]}${p.upload.error && p.upload.state === 'failed' ? `: ${p.upload.error}` : ''}` : 'Saved'}
            </figcaption>
          </figure>
        ))}
      </div>
    </section>
  );
}

function LivePreview({ stream }: { stream: MediaStream }) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.srcObject = stream;
  }, [stream]);
  return <video className="thumb live" ref={ref} autoPlay muted playsInline aria-label="Live camera" />;
}

/** The local copy shows at once, before (and whether or not) the upload lands. */
function BlobImage({ blob }: { blob: Blob }) {
  const url = useMemo(() => URL.createObjectURL(blob), [blob]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  if (!blob.type.startsWith('image/')) return <span className="file-icon">{blob.type}</span>;
  return <img src={url} alt="Package photo" />;
}
