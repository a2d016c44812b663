import { Alert, Box } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { readQr } from './qr-decode';

/** The phone's back camera, read for QR codes a few times a second; the same code is read once per few seconds. */
export function CameraScanner({ onRead }: { onRead: (text: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(() =>
    navigator.mediaDevices ? null : 'This browser has no camera access here. Choose a picture of the ticket instead.',
  );
  const read = useRef(onRead);
  useEffect(() => {
    read.current = onRead;
  }, [onRead]);

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer = 0;
    let stopped = false;
    let last = { text: '', at: 0 };
    const tick = async () => {
      const v = video.current;
      if (stopped || !v) return;
      if (v.readyState >= 2) {
        const text = await readQr(v).catch(() => null);
        if (text && (text !== last.text || Date.now() - last.at > 4000)) {
          last = { text, at: Date.now() };
          read.current(text);
        }
      }
      timer = window.setTimeout(() => void tick(), 250);
    };
    navigator.mediaDevices
      ?.getUserMedia({ video: { facingMode: 'environment' }, audio: false })
      .then((s) => {
        stream = s;
        if (stopped) return s.getTracks().forEach((t) => t.stop());
        if (video.current) {
          video.current.srcObject = s;
          void video.current.play();
        }
        void tick();
      })
      .catch(() =>
        setError('The camera could not be opened. Allow it in the browser, or choose a picture of the ticket.'),
      );
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);

  if (error)
    return (
      <Alert color="yellow" title="No camera">
        {error}
      </Alert>
    );
  return (
    <Box
      component="video"
      ref={video}
      muted
      playsInline
      aria-label="Camera: hold a ticket's QR code in view"
      w="100%"
      style={{ borderRadius: 'var(--mantine-radius-md)', background: '#000', maxHeight: 360, objectFit: 'cover' }}
    />
  );
}
