// Component-test setup: English by default, and a clean DOM and storage after each test.
import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import { initI18n } from '../lib/i18n.js';

initI18n('en');

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  document.documentElement.className = '';
  initI18n('en');
});
