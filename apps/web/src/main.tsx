// Browser entry: language and theme are applied before the first paint, then React mounts.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.js';
import { initI18n } from './lib/i18n.js';
import { applyTheme, readStoredDarkMode } from './lib/theme.js';
import './index.css';

initI18n();
applyTheme(readStoredDarkMode());

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
