// A framed surface that follows the theme; screens compose their blocks from it.
import type { HTMLAttributes } from 'react';

export function Card({ className = '', ...props }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={`rounded-2xl border border-gray-200 bg-white p-6 shadow-sm dark:border-gray-700/70 dark:bg-gray-800 ${className}`}
      {...props}
    />
  );
}
