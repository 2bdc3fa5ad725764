import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { captureTokenFromLocation } from './api/token';
import { resolveStartLocale } from './i18n/locale';
import { setupI18n } from './i18n/setup';
import './styles/app.css';
import './styles/views.css';
import './styles/changes.css';
import './styles/dark.css';

captureTokenFromLocation();
// A link that hands over the token later (a second `npm start`) only changes the fragment.
window.addEventListener('hashchange', captureTokenFromLocation);
const locale = resolveStartLocale();
void setupI18n(locale).then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
