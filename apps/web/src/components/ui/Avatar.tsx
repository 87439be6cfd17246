// A round avatar; members without a Steam picture (or a picture that fails to load) get an
// icon instead of a broken image.
import { useState } from 'react';
import { UserRound } from 'lucide-react';

export function Avatar({ src, className = 'size-8' }: { src: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  if (src === '' || failed) {
    return (
      <span
        className={`inline-flex shrink-0 items-center justify-center rounded-full bg-gray-300 text-gray-600 dark:bg-gray-700 dark:text-gray-300 ${className}`}
        aria-hidden
      >
        <UserRound className="size-3/5" />
      </span>
    );
  }
  return (
    <img
      src={src}
      alt=""
      onError={() => setFailed(true)}
      className={`shrink-0 rounded-full bg-gray-300 object-cover dark:bg-gray-700 ${className}`}
    />
  );
}
