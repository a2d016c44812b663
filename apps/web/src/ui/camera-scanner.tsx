import { Alert, Box } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { readQr } from './qr-decode';

/**
 * The device's back camera, read for QR codes a few times a second; the same code is read once per
 * few seconds. `label` names what to hold in view; `otherWay` is what to do without a camera
 * ('choose a picture of the ticket'). The events door and the check-in station use it.
 */
export function CameraScanner({
  onRead,
  label,
  otherWay,
}: {
  onRead: (text: string) => void;
  label: string;
  otherWay: string;
}) {
  const video = useRef<HTMLVideoElement>(null);
  // What went wrong, worded below with `otherWay`.
  const [error, setError] = useState<'no access' | 'not opened' | null>(() =>
    navigator.mediaDevices ? null : 'no access',
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
      .catch(() => setError('not opened'));
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, []);

  if (error)
    return (
      <Alert color="yellow" title="No camera">
        {error === 'no access'
          ? `This browser has no camera access here. ${otherWay.charAt(0).toUpperCase()}${otherWay.slice(1)} instead.`
          : `The camera could not be opened. Allow it in the browser, or ${otherWay}.`}
      </Alert>
    );
  return (
    <Box
      component="video"
      ref={video}
      muted
      playsInline
      aria-label={label}
      w="100%"
      style={{ borderRadius: 'var(--mantine-radius-md)', background: '#000', maxHeight: 360, objectFit: 'cover' }}
    />
  );
}
