// A spinning indicator for waits (login exchange, retrying, loading).
import { LoaderCircle } from 'lucide-react';

export function Spinner({ className = 'size-8', label }: { className?: string; label?: string }) {
  return (
    <LoaderCircle
      className={`animate-spin text-emerald-500 ${className}`}
      aria-label={label}
      role={label ? 'img' : undefined}
    />
  );
}
