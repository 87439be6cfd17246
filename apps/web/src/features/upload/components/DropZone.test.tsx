import { describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { initI18n } from '../../../lib/i18n.js';
import { DropZone } from './DropZone.js';

function fileOf(name: string, size: number): File {
  const file = new File(['PK'], name, { type: 'application/zip' });
  // jsdom cannot hold a real 1 GB buffer; the zone only reads `size`.
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

function StatefulDropZone({ onChange }: { onChange?: (file: File | null) => void }) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <DropZone
      file={file}
      onFileChange={(next) => {
        setFile(next);
        onChange?.(next);
      }}
    />
  );
}

describe('DropZone', () => {
  it('refuses a file that is not a .zip with the localised message', () => {
    const onChange = vi.fn();
    render(<StatefulDropZone onChange={onChange} />);
    fireEvent.change(screen.getByTestId('file-input'), {
      target: { files: [fileOf('addon.rar', 100)] },
    });
    expect(screen.getByRole('alert').textContent).toBe('Only ZIP files are accepted');
    expect(onChange).toHaveBeenCalledWith(null);
    expect(screen.queryByTestId('selected-file')).toBeNull();
  });

  it('refuses an archive above 1 GB, giving the limit and the actual size in MB', () => {
    render(<StatefulDropZone />);
    fireEvent.change(screen.getByTestId('file-input'), {
      target: { files: [fileOf('huge.zip', 1_073_741_825 + 52_428_800)] },
    });
    expect(screen.getByRole('alert').textContent).toBe(
      'File is too large. Maximum allowed size: 1024 MB (your file: 1074.00 MB)',
    );
  });

  it('accepts exactly 1 GB and shows the dropped file name and size in MB', () => {
    render(<StatefulDropZone />);
    fireEvent.drop(screen.getByTestId('drop-zone'), {
      dataTransfer: { files: [fileOf('My Addon.ZIP', 1_073_741_824)] },
    });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('selected-file-name').textContent).toBe('My Addon.ZIP');
    expect(screen.getByTestId('selected-file-size').textContent).toBe('1024.00 MB');
  });

  it('speaks French when the language is French', () => {
    initI18n('fr');
    render(<StatefulDropZone />);
    fireEvent.change(screen.getByTestId('file-input'), {
      target: { files: [fileOf('notes.txt', 10)] },
    });
    expect(screen.getByRole('alert').textContent).toBe('Seuls les fichiers ZIP sont acceptés');
    fireEvent.change(screen.getByTestId('file-input'), {
      target: { files: [fileOf('a.zip', 3 * 1024 * 1024)] },
    });
    expect(screen.getByTestId('selected-file-size').textContent).toBe('3.00 Mo');
  });
});
