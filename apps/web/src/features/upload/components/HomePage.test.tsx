import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { renderApp } from '../../../testing/renderApp.js';
import { aUser } from '../../../testing/fixtures.js';

const chooseZip = () =>
  fireEvent.change(screen.getByTestId('file-input'), {
    target: { files: [new File(['PK'], 'addon.zip')] },
  });

describe('HomePage analysis buttons', () => {
  it('asks for a file first', () => {
    renderApp();
    fireEvent.click(screen.getByTestId('standard-analysis-button'));
    expect(screen.getByTestId('notice-no_file').textContent).toBe(
      'Please select a file to analyze',
    );
  });

  it('requires a login before a standard analysis and shows its cost', () => {
    renderApp();
    expect(screen.getByTestId('standard-analysis-cost').textContent).toBe('2 credits');
    chooseZip();
    fireEvent.click(screen.getByTestId('standard-analysis-button'));
    expect(screen.getByTestId('notice-login_required').textContent).toBe(
      'You must be logged in to perform an analysis',
    );
    expect(screen.queryByTestId('scan-progress')).toBeNull();
  });

  it('states balance against requirement when credits are short', () => {
    renderApp({ signedInAs: aUser({ credits: 1 }) });
    chooseZip();
    fireEvent.click(screen.getByTestId('standard-analysis-button'));
    expect(screen.getByTestId('notice-insufficient_credits').textContent).toBe(
      'Insufficient credits: you have 1, this analysis needs 2.',
    );
    expect(screen.queryByTestId('scan-progress')).toBeNull();
  });

  it('only warns that the AI analysis is not available', () => {
    renderApp({ signedInAs: aUser() });
    chooseZip();
    fireEvent.click(screen.getByTestId('ai-analysis-button'));
    expect(screen.getByTestId('notice-ai_unavailable').textContent).toContain('not available yet');
    expect(screen.queryByTestId('scan-progress')).toBeNull();
  });
});
