import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { estimatedPercent, ScanProgress } from './ScanProgress.js';

describe('estimatedPercent', () => {
  it('follows time against the 100 s standard estimate and stops at 90 % until the answer', () => {
    expect(estimatedPercent({ phase: 'uploading', scanType: 'standard' }, 0)).toBe(0);
    expect(estimatedPercent({ phase: 'analysing', scanType: 'standard' }, 45)).toBe(45);
    expect(estimatedPercent({ phase: 'analysing', scanType: 'standard' }, 500)).toBe(90);
    expect(estimatedPercent({ phase: 'analysing', scanType: 'ia' }, 90)).toBe(50);
    expect(estimatedPercent({ phase: 'redirecting', scanType: 'standard' }, 3)).toBe(100);
  });
});

describe('ScanProgress', () => {
  it('shows elapsed time, type, minutes left and the current phase', () => {
    render(
      <ScanProgress
        run={{
          phase: 'analysing',
          scanType: 'standard',
          fileName: 'addon.zip',
          startedAt: Date.now() - 30_000,
          scanId: 's',
        }}
        onCancel={() => {}}
      />,
    );
    expect(screen.getByTestId('progress-elapsed').textContent).toBe('Elapsed: 0:30');
    expect(screen.getByTestId('progress-percent').textContent).toBe('30 %');
    expect(screen.getByTestId('progress-analysis-type').textContent).toBe('Standard analysis');
    expect(screen.getByTestId('progress-remaining').textContent).toBe('About 2 minutes remaining');
    const phases = screen.getByTestId('progress-phases').querySelectorAll('li');
    expect([...phases].map((li) => li.dataset.state)).toEqual(['done', 'current', 'pending']);
    expect(screen.getByTestId('cancel-scan')).toBeTruthy();
  });
});
