// The upload zone: drop or pick a .zip, see its name and size, or why it was refused.
import { useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FileArchive, Upload, X } from 'lucide-react';
import { Notice } from '../../../components/ui/Notice.js';
import { megabytes } from '../../../lib/format.js';
import { checkArchive, type ArchiveRefusal } from '../checkArchive.js';
import { useTransientMessage } from '../hooks/useTransientMessage.js';

export interface DropZoneProps {
  file: File | null;
  onFileChange: (file: File | null) => void;
}

export function DropZone({ file, onFileChange }: DropZoneProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [refusal, setRefusal, clearRefusal] = useTransientMessage<ArchiveRefusal>();

  const choose = (candidate: File | undefined) => {
    if (!candidate) return;
    const problem = checkArchive(candidate);
    if (problem) {
      setRefusal(problem);
      onFileChange(null);
    } else {
      clearRefusal();
      onFileChange(candidate);
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  return (
    <div className="space-y-3">
      <div
        role="button"
        tabIndex={0}
        data-testid="drop-zone"
        aria-label={t('upload.dropZoneLabel')}
        onClick={() => input.current?.click()}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            input.current?.click();
          }
        }}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`flex cursor-pointer flex-col items-center justify-center gap-3 rounded-2xl border-2 border-dashed px-6 py-12 text-center transition-colors ${
          dragging
            ? 'border-emerald-500 bg-emerald-50 dark:bg-emerald-950/30'
            : 'border-gray-300 bg-white hover:border-emerald-400 dark:border-gray-600 dark:bg-gray-800/60 dark:hover:border-emerald-500'
        }`}
      >
        <input
          ref={input}
          type="file"
          accept=".zip,application/zip,application/x-zip-compressed"
          className="hidden"
          data-testid="file-input"
          onChange={(event) => {
            choose(event.target.files?.[0]);
            event.target.value = ''; // Lets the same file be picked again after a refusal.
          }}
        />
        {file ? (
          <>
            <FileArchive className="size-12 text-emerald-500" aria-hidden />
            <div data-testid="selected-file">
              <p className="font-semibold break-all" data-testid="selected-file-name">
                {file.name}
              </p>
              <p
                className="text-sm text-gray-600 dark:text-gray-400"
                data-testid="selected-file-size"
              >
                {t('upload.sizeMb', { size: megabytes(file.size) })}
              </p>
            </div>
            <button
              type="button"
              onClick={(event) => {
                event.stopPropagation();
                onFileChange(null);
              }}
              className="inline-flex items-center gap-1 text-sm text-gray-600 underline-offset-2 hover:underline dark:text-gray-400"
            >
              <X className="size-4" aria-hidden />
              {t('upload.removeFile')}
            </button>
          </>
        ) : (
          <>
            <Upload className="size-12 text-gray-400" aria-hidden />
            <p className="text-lg font-semibold">{t('upload.dropTitle')}</p>
            <p className="text-sm text-gray-600 dark:text-gray-400">{t('upload.dropHint')}</p>
          </>
        )}
      </div>
      {refusal && (
        <Notice tone="error" testId="drop-zone-error">
          {refusal.reason === 'not_zip'
            ? t('upload.errors.notZip')
            : t('upload.errors.tooLarge', {
                maxSize: refusal.maxSizeMb,
                fileSize: refusal.fileSizeMb,
              })}
        </Notice>
      )}
    </div>
  );
}
